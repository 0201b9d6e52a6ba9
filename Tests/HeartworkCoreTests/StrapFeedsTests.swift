import HeartworkCore
import Testing

/// `StrapFeeds`, the rule for one strap heard by two gateways (issue 41), on its own: who
/// feeds, when the other takes over, and numbers from outside that cannot trap.
@Suite("Strap feeds")
struct StrapFeedsTests {
    static func reading(_ sequence: Int, at: Int) -> SensorReading {
        SensorReading(sequence: sequence, atMilliseconds: at, beatsPerMinute: 80, contact: .detected, rrIntervalTicks: [768])
    }

    @Test func theFirstGatewayFeedsAndTheOtherTakesOverOnlyAfterTheLease() {
        var feeds = StrapFeeds()
        feeds.learn(userID: "u", address: "s", nil, now: 0)
        let first = feeds.decide(userID: "u", address: "s", gatewayID: "pi", readings: [Self.reading(5, at: 1_000)], now: 1_050)
        #expect(first.stored.map(\.sequence) == [5] && first.newFeed == nil, "a new strap: its first gateway's numbers, kept when its sensor is created")
        let other = feeds.decide(userID: "u", address: "s", gatewayID: "phone", readings: [Self.reading(900, at: 1_010)], now: 1_090)
        #expect(other.stored.isEmpty && other.notStored == 1, "the same notification through the other gateway")
        // The Pi falls silent; after 3 s the phone's held and new readings carry on above 5.
        _ = feeds.decide(userID: "u", address: "s", gatewayID: "phone", readings: [Self.reading(901, at: 2_010)], now: 2_090)
        let takeover = feeds.decide(userID: "u", address: "s", gatewayID: "phone", readings: [Self.reading(902, at: 4_010)], now: 4_090)
        #expect(takeover.stored.map(\.sequence) == [6, 7], "the held reading of 2 s and the new one, numbered after the Pi's")
        #expect(takeover.newFeed?.gatewayID == "phone" && takeover.newFeed?.base == 6)
        // The Pi comes back: the phone feeds now, the Pi's readings are not stored.
        let back = feeds.decide(userID: "u", address: "s", gatewayID: "pi", readings: [Self.reading(8, at: 4_000)], now: 4_100)
        #expect(back.stored.isEmpty)
    }

    @Test func aStoredStrapContinuesAboveWhatTheStoreHolds() {
        var feeds = StrapFeeds()
        feeds.learn(userID: "u", address: "s", StrapFeeds.Stored(feed: StrapFeeds.Feed(gatewayID: "pi"), sequenceFloor: 4_096), now: 0)
        // The Pi has not been heard since the restart: the phone takes over at once, above the floor.
        let decision = feeds.decide(userID: "u", address: "s", gatewayID: "phone", readings: [Self.reading(3, at: 10_000)], now: 10_000)
        #expect(decision.stored.map(\.sequence) == [4_096])
    }

    @Test func numbersFromOutsideNeverTrap() {
        var feeds = StrapFeeds()
        feeds.learn(userID: "u", address: "s", StrapFeeds.Stored(feed: StrapFeeds.Feed(gatewayID: "pi"), sequenceFloor: Int.max), now: 0)
        let decision = feeds.decide(
            userID: "u", address: "s", gatewayID: "phone", readings: [Self.reading(0, at: Int.min), Self.reading(Int.max, at: Int.max)], now: Int.max)
        #expect(decision.stored.count <= 2)
        let feeder = feeds.decide(userID: "u", address: "s", gatewayID: "phone", readings: [Self.reading(Int.max, at: 0)], now: Int.min)
        #expect(feeder.stored.count <= 1)
    }
}
