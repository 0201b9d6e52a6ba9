import HeartworkCore
import HeartworkTestSupport
import Testing

@Suite("Zone debouncer (15-second rule, seed-000 §3.6)")
struct ZoneDebouncerTests {
    @Test func aSwitchIsConfirmedOnTheFifteenthConsecutiveSecond() {
        var debouncer = ZoneDebouncer(initial: ReserveZone.none)
        for second in 1...14 {
            #expect(debouncer.observe(.moderate) == nil, "second \(second) must not confirm yet")
        }
        #expect(debouncer.confirmedZone == .none)
        let change = debouncer.observe(.moderate)
        #expect(change == ZoneChange(from: .none, to: .moderate))
        #expect(change?.direction == .up)
        #expect(debouncer.confirmedZone == .moderate)
        #expect(debouncer.observe(.moderate) == nil)
    }

    @Test func anInterruptionRestartsTheCount() {
        var debouncer = ZoneDebouncer(initial: ReserveZone.none)
        for _ in 1...14 { _ = debouncer.observe(.high) }
        _ = debouncer.observe(.low)
        for _ in 1...14 { #expect(debouncer.observe(.high) == nil) }
        #expect(debouncer.observe(.high)?.to == .high)
    }

    @Test func goingDownIsReportedAsDown() {
        var debouncer = ZoneDebouncer(initial: ReserveZone.redLine)
        var last: ZoneChange<ReserveZone>?
        for _ in 1...15 { last = debouncer.observe(.low) ?? last }
        #expect(last?.direction == .down)
    }

    @Test func returningToTheConfirmedZoneIsNotAChange() {
        var debouncer = ZoneDebouncer(initial: ReserveZone.low)
        for _ in 1...10 { _ = debouncer.observe(.high) }
        for _ in 1...30 { #expect(debouncer.observe(.low) == nil) }
        #expect(debouncer.confirmedZone == .low)
    }

    /// Law: the streaming debouncer and the run-length batch computation agree everywhere.
    @Test func streamingAndBatchAgreeOnRandomSeries() {
        var random = SplitMix64(seed: 0xDEB0_0CE5)
        for _ in 0..<300 {
            var raw = [ReserveZone]()
            while raw.count < 600 {
                let zone = ReserveZone.allCases.randomElement(using: &random)!
                raw.append(contentsOf: repeatElement(zone, count: Int.random(in: 1...40, using: &random)))
            }
            let window = Int.random(in: 1...20, using: &random)
            var debouncer = ZoneDebouncer(initial: ReserveZone.none, confirmationSeconds: window)
            let streamed = raw.map { zone -> ReserveZone in
                _ = debouncer.observe(zone)
                return debouncer.confirmedZone
            }
            #expect(streamed == ZoneDebouncer.confirmedZones(rawZones: raw, initial: .none, confirmationSeconds: window))
        }
    }

    @Test func tallyCountsSecondsPerZone() {
        let tally = ZoneTally<ReserveZone>(counting: [.low, .low, .high, .none])
        #expect(tally[.low] == 2 && tally[.high] == 1 && tally[.none] == 1 && tally[.redLine] == 0)
        #expect(tally.totalSeconds == 4)
    }
}
