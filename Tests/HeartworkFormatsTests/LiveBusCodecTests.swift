import HeartworkCore
import HeartworkFormats
import Testing

/// The live bus's notification text (issue 9): what one instance sends, another reads back
/// the same; payloads stay under PostgreSQL's 8000-byte NOTIFY limit; broken text is refused.
@Suite("Live bus codec")
struct LiveBusCodecTests {
    func readings(_ count: Int) -> [BusReading] {
        (0..<count).map { index in
            BusReading(
                sensorID: "sensor-\(index % 40)", address: "C0:DE:00:00:00:\(index % 40)", name: index % 3 == 0 ? nil : "Strap \"\(index)\" ♥",
                reading: SensorReading(
                    sequence: 10_000 + index, atMilliseconds: 1_795_400_000_000 + index * 1000, beatsPerMinute: 60 + index % 120,
                    contact: index % 5 == 0 ? .notDetected : .detected, battery: index % 4 == 0 ? nil : index % 101,
                    rrIntervalTicks: Array(repeating: UInt16(600 + index % 400), count: index % 10)))
        }
    }

    @Test func readingsRoundTripAcrossPayloadsUnderTheLimit() throws {
        let sent = readings(1000)
        let payloads = LiveBusCodec.encode(.readings(userID: "user-1", sent), instance: "instance-a")
        #expect(payloads.count > 1, "1000 readings do not fit one notification")
        #expect(payloads.allSatisfy { $0.utf8.count <= LiveBusCodec.maximumPayloadBytes })
        var received = [BusReading]()
        for payload in payloads {
            let (instance, message) = try LiveBusCodec.decode(payload)
            #expect(instance == "instance-a")
            guard case .readings(let user, let part) = message else {
                Issue.record("not readings")
                return
            }
            #expect(user == "user-1")
            received += part
        }
        #expect(received == sent, "every reading, in order, exactly")
    }

    @Test func sessionsAndUsersToForget() throws {
        let session = try LiveBusCodec.decode(try #require(LiveBusCodec.encode(.forgetSession(tokenHash: "abc"), instance: "b").first))
        #expect(session.instance == "b" && session.message == .forgetSession(tokenHash: "abc"))
        let user = try LiveBusCodec.decode(try #require(LiveBusCodec.encode(.forgetUser(userID: "u-2"), instance: "c").first))
        #expect(user.message == .forgetUser(userID: "u-2"))
        #expect(LiveBusCodec.encode(.readings(userID: "u", []), instance: "a").isEmpty)
    }

    @Test(arguments: [
        "", "[]", "{}", #"{"i":"a","k":"x"}"#, #"{"i":"a","k":"r","u":"u","r":[[1]]}"#,
        #"{"i":"a","k":"r","u":"u","r":[["s","a",null,1,2,3,"detected",null,[70000]]]}"#,
        #"{"i":"a","k":"r","u":"u","r":[["s","a",null,1,2,3,"maybe",null,[]]]}"#, #"{"i":"a","k":"s"}"#,
    ])
    func malformedTextIsRefused(_ text: String) {
        #expect(throws: LiveBusCodec.Malformed.self) { try LiveBusCodec.decode(text) }
    }

    /// Match-room traffic and notifications read back as they were sent; every room frame
    /// survives its own JSON (the same text a player's socket carries).
    @Test func matchTrafficAndNoticesRoundTrip() throws {
        let frames: [MatchMessage] = [
            .lobby(you: "a", present: ["a", "b"], ghost: false),
            .start(atMilliseconds: 1_795_400_005_000, nowMilliseconds: 1_795_400_000_000, durationSeconds: 300, secondMilliseconds: 1000),
            .state(
                second: 12, you: .init(beatsPerMinute: 151.5, zone: .moderate, score: 3, progressPercent: 40),
                opponent: .init(beatsPerMinute: nil, zone: .redLine, score: 0, progressPercent: 80)),
            .state(
                second: 13, you: .init(beatsPerMinute: nil, zone: .none, score: 3, progressPercent: 0),
                opponent: .init(beatsPerMinute: nil, zone: .low, score: 1, progressPercent: 20)),
            .event(second: 15, who: "opponent", direction: "up", zone: .high, text: "Your opponent moved up to High; you are in \"Moderate\""),
            .refused(second: nil, detail: "not JSON"), .refused(second: 40, detail: "second 40 has not begun"),
            .end(matchID: "m-1"), .closed(reason: "declined", detail: "Bob declined ♥"),
        ]
        for frame in frames {
            #expect(try MatchMessage(json: frame.json) == frame, "\(frame.json)")
            let bus = BusMatch(kind: .out, target: "instance-b", matchID: "m-1", seat: "seat-1", side: "b", message: frame.json)
            let payloads = LiveBusCodec.encode(.match(bus), instance: "instance-a")
            #expect(payloads.count == 1)
            let (instance, message) = try LiveBusCodec.decode(payloads[0])
            #expect(instance == "instance-a" && message == .match(bus))
        }
        let reading = BusMatch(kind: .reading, target: "instance-a", matchID: "m-1", seat: "seat-1", side: "b", second: 7, beatsPerMinute: 0)
        #expect(try LiveBusCodec.decode(LiveBusCodec.encode(.match(reading), instance: "i")[0]).message == .match(reading))
        let notice = BusNotice(id: "n-1", userID: "u-1", kind: "match-result", text: "You won 12–3", link: nil, atMilliseconds: 1_795_400_000_000)
        #expect(try LiveBusCodec.decode(LiveBusCodec.encode(.notice(notice), instance: "i")[0]).message == .notice(notice))
        #expect(throws: (any Error).self) { try MatchMessage(json: #"{"type":"state","second":1}"#) }
        #expect(throws: (any Error).self) { try LiveBusCodec.decode(#"{"v":1,"i":"x","k":"m","m":["teleport","a","b","c","d",null,null,null]}"#) }
    }
}
