import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import NIOWebSocket
import Testing

@testable import HeartworkServer

/// Matches (issue 10): invitations between friends only, the room protocol over real
/// sockets, scores equal to the offline engine, forfeits by leaving and by silence, ghost
/// races, bad readings refused without changing the match, and notifications. Rooms run with
/// real 1-s seconds (a one-minute match takes a minute): a reading is lost when it comes 3
/// seconds late, and shorter seconds were not enough on a loaded 2-core CI machine (150 ms on
/// 2026-11-26: two tests lost one second each; 400 ms on 2026-12-02, beside the issue-40
/// floods: four tests). `.keepsTime`: never beside the tests that load the machine on purpose.
/// And readings may come `lateSeconds` (8 s) late, not the rule's 3, except in the test of that
/// rule: in real seconds, beside the floods' turn, the forged-strap test still lost one second
/// on CI's machine (2026-12-02), so a test of something else gets slack below the 10-s silence.
@Suite("Matches", .timeLimit(.minutes(10)), .keepsTime)
struct MatchTests {
    static let second = 1000
    /// How late a reading may come in these tests (the rule, `MatchRules.lateSeconds`, is 3 s;
    /// below `MatchRules.silenceSeconds`, so a side waiting on the other is never silent).
    static let lateSeconds = 8

    struct Players {
        let harness: ServerHarness
        let ann: (id: String, token: String)
        let bob: (id: String, token: String)
        let eve: (id: String, token: String)
    }

    /// Ann and Bob are friends with complete profiles; Eve is nobody's friend.
    static func run(
        _ engine: TestDatabase = .sqlite, second: Int = Self.second, late: Int = Self.lateSeconds, _ body: @Sendable (Players) async throws -> Void
    ) async throws {
        #expect(await MachineShare.holder() == .keepingTime, "no flood runs beside a live match")
        // A match of real minutes outlasts the server's 60-s idle timeout on the test client's
        // kept-alive HTTP connection, which (unlike a browser) does not reconnect.
        try await ServerHarness.run(
            engine, setup: .live,
            adjusting: {
                $0.matchSecondMilliseconds = second
                $0.matchLateSeconds = late
                $0.idleTimeout = .seconds(600)
            }
        ) { harness in
            let ann = try await harness.signUp("annmatch")
            let bob = try await harness.signUp("bobmatch")
            let eve = try await harness.signUp("evematch")
            for token in [ann.token, bob.token, eve.token] { try await harness.completeProfile(token) }
            try await harness.request(.post, "/api/friend-requests", token: ann.token, json: ["userID": bob.id])
            try await harness.request(.post, "/api/friend-requests", token: bob.token, json: ["userID": ann.id])
            try await body(Players(harness: harness, ann: ann, bob: bob, eve: eve))
        }
    }

    static func bearer(_ token: String) -> WebSocketClientConfiguration {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        return .init(additionalHeaders: headers)
    }

    /// One second's reading as a page sends it: the strap's own 0x2A37 bytes (8-bit heart
    /// rate, skin contact detected: flags 0x06), or with `practice` the bare number; 0 (lost
    /// contact) as `bpm: 0`, which every match takes.
    static func frame(_ second: Int, _ bpm: Double, practice: Bool = false) -> String {
        if practice || bpm == 0 { return #"{"type":"reading","second":\#(second),"bpm":\#(bpm)}"# }
        return #"{"type":"reading","second":\#(second),"hrm":"\#(String(format: "06%02x", Int(bpm)))"}"#
    }

    /// Plays one side: joins, waits for "start", then sends `series[s]` as second s when it
    /// begins, and collects every message until the end. `leaveAfter` closes the socket
    /// before that second; `silentAfter` stops sending; `extra` frames go out with second 2.
    static func play(
        _ client: any TestClientProtocol, token: String, match: String, query: String = "", series: [Double], practice: Bool = false, firstSecond: Int = 0,
        leaveAfter: Int? = nil, silentAfter: Int? = nil, lateness: Double = 0.1, delays: [Int: Double] = [:], extra: @escaping @Sendable (Int) -> [String] = { _ in [] },
        frames: (@Sendable (Int, Double) -> String)? = nil
    ) async throws -> [[String: Any]] {
        let seen = LockedBox<[[String: Any]]>([])
        _ = try await client.ws("/api/live/matches/\(match)\(query)", configuration: bearer(token)) { inbound, outbound, _ in
            var sender: Task<Void, Error>?
            defer { sender?.cancel() }
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message,
                    let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
                else { continue }
                seen.withValue { $0.append(object) }
                let type = object["type"] as? String
                if type == "start", sender == nil, let at = object["at"] as? Int, let length = object["secondMilliseconds"] as? Int {
                    sender = Task {
                        for (second, bpm) in series.enumerated() where second >= firstSecond {
                            let due = at + second * length + Int(Double(length) * lateness)
                            let wait = due - Int(Date().timeIntervalSince1970 * 1000)
                            if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
                            if second == leaveAfter {
                                try await outbound.close(.normalClosure, reason: nil)
                                return
                            }
                            if let silentAfter, second >= silentAfter { return }
                            if let delay = delays[second] {
                                // Sent `delay` seconds after its second ended, while the others go on.
                                let text = Self.frame(second, bpm, practice: practice)
                                Task {
                                    try await Task.sleep(for: .milliseconds(Int((1 + delay) * Double(length))))
                                    try await outbound.write(.text(text))
                                }
                                continue
                            }
                            try await outbound.write(.text(frames?(second, bpm) ?? Self.frame(second, bpm, practice: practice)))
                            for frame in extra(second) { try await outbound.write(.text(frame)) }
                        }
                    }
                }
                if type == "end" || type == "closed" { break }
            }
        }
        return seen.value
    }

    /// A made-up minute in steps long enough to be confirmed (15 s): Ann climbs from none to
    /// moderate to red line; Bob holds high (with a 6-s lost contact, 0 bpm), then drops to
    /// low. With both profiles (resting 65, born 1992: zones at 136/148/160/172 bpm) Bob leads
    /// most of the way and Ann scores at the end.
    static let annSeries: [Double] = (0..<60).map(annAt)
    static let bobSeries: [Double] = (0..<60).map(bobAt)

    static func annAt(_ second: Int) -> Double {
        let wobble = Double(second % 3)
        if second < 20 { return 125 + wobble }
        if second < 40 { return 150 + wobble }
        return 175 + wobble
    }

    static func bobAt(_ second: Int) -> Double {
        if (20..<26).contains(second) { return 0 }
        let wobble = Double(second % 2)
        return second < 45 ? 165 + wobble : 140 + wobble
    }

    static func profile(_ harness: ServerHarness, _ token: String) async throws -> ZoneProfile {
        let me = try await harness.request(.get, "/api/me", token: token).json
        return try ZoneProfile(
            restingHeartRate: try #require(me["restingHeartRate"] as? Double),
            maximumHeartRate: try #require((me["maxHeartRate"] as? [String: Any])?["bpm"] as? Double))
    }

    @Test(arguments: TestDatabase.all)
    func invitationsGoOnlyToFriendsAndOnlyTheFriendAnswers(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { p in
            let h = p.harness
            // Not a friend, yourself, a bad length: refused, nothing stored.
            let stranger = try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.eve.id, "minutes": 5])
            #expect(stranger.status == .unprocessableContent && stranger.problemField == "opponent")
            #expect(try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.ann.id, "minutes": 5]).status == .unprocessableContent)
            for minutes in [0, 121] {
                let reply = try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.bob.id, "minutes": minutes])
                #expect(reply.status == .unprocessableContent && reply.problemField == "minutes")
            }
            #expect((try await h.request(.get, "/api/matches", token: p.ann.token).json["matches"] as? [Any])?.isEmpty == true)

            let created = try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.bob.id, "minutes": 5])
            #expect(created.status == .created)
            let id = try #require(created.json["id"] as? String)
            #expect(created.json["state"] as? String == "invited" && created.json["durationSeconds"] as? Int == 300 && created.json["you"] as? String == "a")

            // Bob is told (besides Ann's friend request); Eve sees nothing of it; Ann cannot answer her own invitation.
            let bobs = try await h.request(.get, "/api/notifications", token: p.bob.token).json
            #expect(bobs["unread"] as? Int == 2)
            let invitation = try #require((bobs["notifications"] as? [[String: Any]])?.first { $0["kind"] as? String == "match-invitation" })
            #expect(invitation["link"] as? String == "/matches/\(id)" && (invitation["text"] as? String ?? "").contains("5-minute"))
            #expect(try await h.request(.get, "/api/matches/\(id)", token: p.eve.token).status == .notFound)
            #expect(try await h.request(.post, "/api/matches/\(id)/accept", token: p.eve.token).status == .notFound)
            #expect(try await h.request(.post, "/api/matches/\(id)/accept", token: p.ann.token).status == .conflict)

            let declined = try await h.request(.post, "/api/matches/\(id)/decline", token: p.bob.token)
            #expect(declined.status == .ok && declined.json["state"] as? String == "declined" && declined.json["you"] as? String == "b")
            #expect(try await h.request(.post, "/api/matches/\(id)/accept", token: p.bob.token).status == .conflict)
            let annNotes = try await h.request(.get, "/api/notifications", token: p.ann.token).json
            #expect((annNotes["notifications"] as? [[String: Any]])?.contains { $0["kind"] as? String == "match-declined" } == true)

            // Marking read: one, then all.
            #expect(try await h.request(.post, "/api/notifications/\(invitation["id"] as? String ?? "")/read", token: p.bob.token).json["unread"] as? Int == 1)
            #expect(try await h.request(.post, "/api/notifications/read", token: p.ann.token).json["unread"] as? Int == 0)

            // An invitation lapses after ten minutes.
            let ann = try #require(try await h.store.users.find(id: p.ann.id))
            let old = try await h.services.matches.invite(p.bob.id, minutes: 3, by: ann, now: Date().addingTimeInterval(-601))
            #expect(try await h.request(.get, "/api/matches/\(old.id)", token: p.bob.token).json["state"] as? String == "expired")
            #expect(try await h.request(.post, "/api/matches/\(old.id)/accept", token: p.bob.token).status == .conflict)

            // Issue 28: Ann deletes her account; her matches go with it, and Bob is told so.
            #expect(try await h.request(.delete, "/api/me", token: p.ann.token, json: ["password": "correct horse 1"]).status == .noContent)
            #expect((try await h.request(.get, "/api/matches", token: p.bob.token).json["matches"] as? [Any])?.isEmpty == true)
            let told = try await h.request(.get, "/api/notifications", token: p.bob.token).json["notifications"] as? [[String: Any]] ?? []
            let gone = try #require(told.first { $0["kind"] as? String == "account-deleted" })
            #expect((gone["text"] as? String ?? "").contains("your 2 matches with them went with it"), "\(gone)")
        }
    }

    @Test func aLiveMatchScoresExactlyAsTheOfflineEngine() async throws {
        try await Self.run { p in
            let h = p.harness
            let id = try #require(try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.bob.id, "minutes": 1]).json["id"] as? String)
            // Bob cannot enter before accepting.
            let early = try await Self.play(h.client, token: p.bob.token, match: id, series: [])
            #expect(early.first?["type"] as? String == "closed" && (early.first?["detail"] as? String ?? "").contains("accept"))
            #expect(try await h.request(.post, "/api/matches/\(id)/accept", token: p.bob.token).status == .ok)

            // Two recorded files, read and put on the 1-second grid exactly as `heartwork compete`
            // reads them (HeartRateCSV + HeartRateSeries.resampling: gaps held up to 5 s, 0 bpm
            // a lost contact), played live second by second, then scored offline.
            let directory = try TemporaryDirectory()
            let annFile = try directory.write("second,bpm\n" + Self.annSeries.enumerated().map { "\($0.offset),\($0.element)" }.joined(separator: "\n"), to: "ann.csv")
            let bobFile = try directory.write(
                Self.bobSeries.enumerated().filter { !(40..<43).contains($0.offset) }
                    .map { "\($0.offset),\($0.element)" }.joined(separator: "\n"), to: "bob.csv")
            let annGrid = try HeartRateSeries.resampling(HeartRateCSV.read(path: annFile), originSeconds: 0).beatsPerMinute
            let bobGrid = try HeartRateSeries.resampling(HeartRateCSV.read(path: bobFile), originSeconds: 0).beatsPerMinute
            async let annSide = Self.play(h.client, token: p.ann.token, match: id, series: annGrid.map { $0 ?? 0 })
            async let bobSide = Self.play(h.client, token: p.bob.token, match: id, series: bobGrid.map { $0 ?? 0 })
            let (ann, bob) = try await (annSide, bobSide)

            let offline = CompetitionEngine.evaluate(
                a: annGrid, b: bobGrid, profileA: try await Self.profile(h, p.ann.token), profileB: try await Self.profile(h, p.bob.token))
            #expect(offline.a.score > 0 && offline.b.score > 0, "the series exercise both sides' scoring")
            let end = try #require(ann.last { $0["type"] as? String == "end" })
            let result = try #require(end["result"] as? [String: Any])
            #expect((result["a"] as? [String: Any])?["score"] as? Int == offline.a.score)
            #expect((result["b"] as? [String: Any])?["score"] as? Int == offline.b.score)
            #expect(result["reason"] as? String == "time" && result["secondsPlayed"] as? Int == 60)
            #expect(result["outcome"] as? String == (offline.a.score > offline.b.score ? "won" : offline.a.score < offline.b.score ? "lost" : "draw"))
            #expect(((result["a"] as? [String: Any])?["timeInZoneSeconds"] as? [String: Int])?["none"] == offline.a.timeInZone[.none])

            // Every second a state message, with your heart rate and never the opponent's.
            let annStates = ann.filter { $0["type"] as? String == "state" }
            #expect(annStates.count == 60)
            #expect(annStates.map { $0["second"] as? Int } == (0..<60).map { $0 })
            #expect((annStates[10]["you"] as? [String: Any])?["bpm"] as? Double == Self.annSeries[10])
            #expect(annStates.allSatisfy { ($0["opponent"] as? [String: Any])?["bpm"] == nil })
            let lastState = try #require(annStates.last)
            #expect((lastState["you"] as? [String: Any])?["score"] as? Int == offline.a.score)
            #expect((lastState["opponent"] as? [String: Any])?["progress"] as? Int == MatchRules.progressPercent(offline.b.confirmedZones.last ?? .none))
            // Events carry the sentence to speak, from each side's point of view.
            let bobHeard = bob.filter { $0["type"] as? String == "event" }.compactMap { $0["text"] as? String }
            let expected = offline.events.map { $0.announcement(for: .b) }
            #expect(bobHeard == expected && !expected.isEmpty)
            #expect(bob.contains { $0["type"] as? String == "lobby" } && bob.contains { $0["type"] as? String == "start" })

            // Stored, for both, with the same result; both were told.
            let stored = try await h.request(.get, "/api/matches/\(id)", token: p.bob.token).json
            #expect(stored["state"] as? String == "finished")
            #expect(((stored["result"] as? [String: Any])?["b"] as? [String: Any])?["score"] as? Int == offline.b.score)
            let annNotes = try await h.request(.get, "/api/notifications", token: p.ann.token).json["notifications"] as? [[String: Any]] ?? []
            #expect(annNotes.contains { $0["kind"] as? String == "match-result" })
            // Each player saves their side as a workout, once: their heart rate as played.
            let saved = try await h.request(.post, "/api/matches/\(id)/workout", token: p.ann.token)
            #expect(saved.status == .created)
            let workoutID = try #require((saved.json["id"] as? String) ?? ((saved.json["summary"] as? [String: Any])?["id"] as? String))
            #expect(try await h.request(.post, "/api/matches/\(id)/workout", token: p.ann.token).status == .conflict)
            #expect(try await h.request(.post, "/api/matches/\(id)/workout", token: p.eve.token).status == .notFound)
            let workout = try await h.request(.get, "/api/workouts/\(workoutID)", token: p.ann.token).json
            let heartRate = (workout["streams"] as? [String: Any])?["heartRate"] as? [Any] ?? workout["heartRate"] as? [Any] ?? []
            #expect(heartRate.count == 60)
            #expect(heartRate.prefix(20).compactMap { $0 as? Int } == annGrid.prefix(20).map { Int(($0 ?? 0).rounded()) })
            #expect(try await h.request(.get, "/api/matches/\(id)", token: p.ann.token).json["workoutID"] as? String == workoutID)
            #expect(try await h.request(.post, "/api/matches/\(id)/workout", token: p.bob.token).status == .created)
            // Joining a finished match gives its result and closes.
            let again = try await Self.play(h.client, token: p.ann.token, match: id, series: [])
            #expect(again.count == 1 && again.first?["type"] as? String == "end")
        }
    }

    @Test func leavingOrFallingSilentForfeits() async throws {
        try await Self.run { p in
            let h = p.harness
            for (leave, silent) in [(Optional(12), Optional<Int>.none), (nil, 12)] {
                let id = try #require(try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.bob.id, "minutes": 1]).json["id"] as? String)
                try await h.request(.post, "/api/matches/\(id)/accept", token: p.bob.token)
                async let annSide = Self.play(h.client, token: p.ann.token, match: id, series: Self.annSeries)
                async let bobSide = Self.play(h.client, token: p.bob.token, match: id, series: Self.bobSeries, leaveAfter: leave, silentAfter: silent)
                let (ann, _) = try await (annSide, bobSide)
                let result = try #require(ann.last { $0["type"] as? String == "end" }?["result"] as? [String: Any])
                #expect(result["winner"] as? String == "a" && result["forfeitedBy"] as? String == "b" && result["outcome"] as? String == "won")
                #expect(result["reason"] as? String == (leave != nil ? "left" : "silence"))
                let played = result["secondsPlayed"] as? Int ?? 0
                #expect(played >= 12 && played < 60, "ended early, after what was played (\(played) s)")
                // Who ended it early may only discard it (HeartMate F20); the winner may save.
                #expect(try await h.request(.post, "/api/matches/\(id)/workout", token: p.bob.token).status == .conflict)
                #expect(try await h.request(.post, "/api/matches/\(id)/workout", token: p.ann.token).status == .created)
            }
        }
    }

    @Test func badReadingsAreRefusedAndChangeNothing() async throws {
        try await Self.run { p in
            let h = p.harness
            let id = try #require(try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.bob.id, "minutes": 1]).json["id"] as? String)
            try await h.request(.post, "/api/matches/\(id)/accept", token: p.bob.token)
            // Eve cannot even open the room.
            await #expect(throws: WebSocketClientError.webSocketUpgradeFailed) {
                try await h.client.ws("/api/live/matches/\(id)", configuration: Self.bearer(p.eve.token)) { _, _, _ in }
            }
            let hostile: @Sendable (Int) -> [String] = { second in
                guard second == 2 else { return [] }
                return [
                    #"{"type":"reading","second":2,"hrm":"0663"}"#,  // a duplicate second
                    #"{"type":"reading","second":40,"hrm":"0696"}"#,  // far ahead of the clock
                    #"{"type":"reading","second":3,"hrm":"072c01"}"#,  // not a heart rate (300 bpm, 16-bit)
                    #"{"type":"reading","second":-1,"hrm":"0696"}"#,
                    #"{"type":"reading","second":0,"hrm":"0696"}"#,  // already scored
                    #"{"type":"reading","second":"x","hrm":"0696"}"#,
                    #"{"type":"reading","second":4,"hrm":"0696","side":"b"}"#,  // speaking for the other side
                    "not json",
                    #"{"type":"reading","second":5,"bpm":200}"#,  // a number chosen, outside practice (issue 23)
                    #"{"type":"reading","second":6,"hrm":"06"}"#,  // a truncated measurement
                    #"{"type":"reading","second":7,"hrm":"zz"}"#,  // not hex
                    #"{"type":"reading","second":8,"hrm":"0696","bpm":150}"#,  // both
                ]
            }
            async let annSide = Self.play(h.client, token: p.ann.token, match: id, series: Self.annSeries, extra: hostile)
            // Bob sends his second 2 four seconds late (within the tests' 8-s window), so Ann's
            // duplicate of second 2 finds it not yet scored however loaded the machine is (CI,
            // 2026-12-02: sent 0.6 s late only, Bob's reading came first and it read "already scored").
            async let bobSide = Self.play(h.client, token: p.bob.token, match: id, series: Self.bobSeries, lateness: 0.6, delays: [2: 3])
            let (ann, _) = try await (annSide, bobSide)
            let errors = ann.filter { $0["type"] as? String == "error" }.compactMap { $0["detail"] as? String }
            #expect(errors.count == 12, "\(errors)")
            #expect(errors.contains { $0.contains("already sent") } && errors.contains { $0.contains("has not begun") })
            #expect(errors.contains { $0.contains("neither 0 nor 20–250") } && errors.contains { $0.contains("already scored") })
            #expect(errors.contains { $0.contains("unknown field") })
            #expect(errors.contains { $0.contains("the slider is for practice") }, "a bare bpm outside practice")
            #expect(errors.filter { $0.hasPrefix("hrm:") }.count == 3 && errors.contains { $0.contains("not both") }, "\(errors)")
            // The match went on as if they had never been sent.
            let offline = CompetitionEngine.evaluate(
                a: Self.annSeries.map { $0 > 0 ? $0 : nil }, b: Self.bobSeries.map { $0 > 0 ? $0 : nil },
                profileA: try await Self.profile(h, p.ann.token), profileB: try await Self.profile(h, p.bob.token))
            let result = try #require(ann.last { $0["type"] as? String == "end" }?["result"] as? [String: Any])
            #expect((result["a"] as? [String: Any])?["score"] as? Int == offline.a.score)
            #expect((result["b"] as? [String: Any])?["score"] as? Int == offline.b.score)
        }
    }

    @Test func aGhostRaceReplaysAFriendsSharedWorkoutAtItsOwnLength() async throws {
        try await Self.run { p in
            let h = p.harness
            // Bob's recorded minute, with a gap the ghost holds for up to 5 s.
            let recorded: [Int?] = Self.bobSeries.enumerated().map { $0.element > 0 && !(30..<33).contains($0.offset) ? Int($0.element) : nil }
            let heartRate: [Any] = recorded.map { $0.map { $0 as Any } ?? NSNull() }
            let workout = try await h.upload(p.bob.token, ["sport": "running", "startTime": "2026-11-20T07:00:00Z", "indoor": true, "heartRate": heartRate])
            // Not shared: Ann cannot race it (nor can Eve); then shared.
            try await h.request(.delete, "/api/workouts/\(workout)/share", token: p.bob.token)
            #expect(try await h.request(.post, "/api/matches", token: p.ann.token, json: ["ghost": workout]).status == .unprocessableContent)
            #expect(try await h.request(.post, "/api/matches", token: p.eve.token, json: ["ghost": workout]).status == .unprocessableContent)
            try await h.request(.put, "/api/workouts/\(workout)/share", token: p.bob.token)
            let created = try await h.request(.post, "/api/matches", token: p.ann.token, json: ["ghost": workout])
            #expect(created.status == .created && created.json["kind"] as? String == "ghost" && created.json["durationSeconds"] as? Int == 60)
            let id = try #require(created.json["id"] as? String)

            // Ann runs longer than the ghost: the race stops at the recording's length.
            let ann = try await Self.play(h.client, token: p.ann.token, match: id, series: Self.annSeries + [150, 150, 150])
            let stored = try #require(try await h.store.workouts.find(id: workout))
            let ghost = HeartRateSeries.ghost(perSecond: recorded)
            let offline = CompetitionEngine.evaluate(
                a: Self.annSeries, b: ghost.beatsPerMinute, profileA: try await Self.profile(h, p.ann.token),
                profileB: try #require(stored.profile.zoneProfile), durationSeconds: 60)
            let result = try #require(ann.last { $0["type"] as? String == "end" }?["result"] as? [String: Any])
            #expect(result["secondsPlayed"] as? Int == 60 && result["reason"] as? String == "time")
            #expect((result["a"] as? [String: Any])?["score"] as? Int == offline.a.score)
            #expect((result["b"] as? [String: Any])?["score"] as? Int == offline.b.score)
            // Bob hears that his workout was raced, and may read the result.
            let bobs = try await h.request(.get, "/api/notifications", token: p.bob.token).json["notifications"] as? [[String: Any]] ?? []
            #expect(bobs.contains { $0["kind"] as? String == "ghost-raced" })
            let seen = try await h.request(.get, "/api/matches/\(id)", token: p.bob.token).json
            #expect(seen["state"] as? String == "finished" && seen["you"] == nil)
        }
    }

    /// The match follows a player's own strap (heard by their gateway): each second takes the
    /// strap's latest heart rate; a stranger's strap is refused before the upgrade.
    @Test func aPlayerCanPlayFromTheirOwnStrap() async throws {
        try await Self.run { p in
            let h = p.harness
            let ann = try #require(try await h.store.users.find(id: p.ann.id))
            let gateway = try await h.services.gateways.create(name: "Ann's phone", for: ann).gateway
            func strap(_ sequence: Int) -> GatewayReading {
                GatewayReading(
                    sensor: "ann-strap", sequence: sequence, atMilliseconds: Int(Date().timeIntervalSince1970 * 1000),
                    // RR around 337 ms (178 bpm), varying beat to beat as a heart's does (issue 40:
                    // the same interval for 20 s is a flat line, not a heart).
                    measurement: HeartRateMeasurement(beatsPerMinute: 178, sensorContact: .detected, rrIntervalTicks: [UInt16(343 + sequence % 5)]))
            }
            _ = try await h.services.live.ingest([strap(1)], from: gateway)
            let sensor = try #require(try await h.services.live.sensors(of: ann).first?.id)
            let id = try #require(try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.bob.id, "minutes": 1]).json["id"] as? String)
            try await h.request(.post, "/api/matches/\(id)/accept", token: p.bob.token)
            await #expect(throws: WebSocketClientError.webSocketUpgradeFailed) {
                try await h.client.ws("/api/live/matches/\(id)?sensor=\(sensor)", configuration: Self.bearer(p.bob.token)) { _, _, _ in }
            }
            // The strap sends four readings a match-second until the match is over.
            let feeder = Task {
                var sequence = 2
                while !Task.isCancelled {
                    _ = try? await h.services.live.ingest([strap(sequence)], from: gateway)
                    sequence += 1
                    try? await Task.sleep(for: .milliseconds(Self.second / 4))
                }
            }
            defer { feeder.cancel() }
            async let annSide = Self.play(h.client, token: p.ann.token, match: id, query: "?sensor=\(sensor)", series: [])
            async let bobSide = Self.play(h.client, token: p.bob.token, match: id, series: Self.bobSeries)
            let (annSaw, _) = try await (annSide, bobSide)
            let states = annSaw.filter { $0["type"] as? String == "state" }
            #expect(states.count == 60)
            #expect(states.filter { ($0["you"] as? [String: Any])?["bpm"] as? Double == 178 }.count >= 55, "the strap's heart rate played Ann's side")
            let result = try #require(annSaw.last { $0["type"] as? String == "end" }?["result"] as? [String: Any])
            #expect(result["reason"] as? String == "time" && result["secondsPlayed"] as? Int == 60)
            #expect(((result["a"] as? [String: Any])?["timeInZoneSeconds"] as? [String: Int])?["red-line"] ?? 0 >= 55)
        }
    }

    /// Issue 23: a player whose connection drops has 15 s to come back. Bob's socket closes at
    /// second 10 and he is back 5 s later: the match goes on to its time, Ann is told he was
    /// away and is back, Bob's missing seconds are lost contact, and both sides' heart rates
    /// and sources come with the result.
    @Test func aDroppedPlayerHasFifteenSecondsToComeBack() async throws {
        try await Self.run { p in
            let h = p.harness
            let id = try #require(try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.bob.id, "minutes": 1]).json["id"] as? String)
            try await h.request(.post, "/api/matches/\(id)/accept", token: p.bob.token)
            async let annSide = Self.play(h.client, token: p.ann.token, match: id, series: Self.annSeries)
            async let bobSide: Void = {
                _ = try await Self.play(h.client, token: p.bob.token, match: id, series: Self.bobSeries, leaveAfter: 10)
                try await Task.sleep(for: .milliseconds(5 * Self.second))
                _ = try await Self.play(h.client, token: p.bob.token, match: id, series: Self.bobSeries, firstSecond: 17)
            }()
            let (ann, _) = try await (annSide, bobSide)
            #expect(ann.contains { $0["type"] as? String == "away" && $0["graceSeconds"] as? Int == 15 })
            #expect(ann.contains { $0["type"] as? String == "back" })
            let result = try #require(ann.last { $0["type"] as? String == "end" }?["result"] as? [String: Any])
            #expect(result["reason"] as? String == "time" && result["forfeitedBy"] == nil && result["secondsPlayed"] as? Int == 60, "\(result)")
            let a = try #require(result["a"] as? [String: Any])
            let b = try #require(result["b"] as? [String: Any])
            let bobHeart = try #require(b["heartRate"] as? [Any])
            #expect((a["heartRate"] as? [Any])?.count == 60 && bobHeart.count == 60)
            #expect((11..<15).allSatisfy { bobHeart[$0] is NSNull }, "Bob's seconds away are lost contact")
            #expect(bobHeart[40] as? Int == Int(Self.bobSeries[40]) || Self.bobSeries[40] == 0)
            #expect(a["sources"] as? [String] == ["strap"] && b["sources"] as? [String] == ["strap"])
            let stored = try await h.request(.get, "/api/matches/\(id)", token: p.bob.token).json
            #expect(stored["practice"] as? Bool == false)
            #expect(((stored["result"] as? [String: Any])?["a"] as? [String: Any])?["heartRate"] as? [Any] != nil, "the API gives both graphs")
        }
    }

    /// Issue 40: a forged strap — well-formed bytes of a constant 190 bpm whose RR interval (1 s,
    /// 60 bpm) does not agree — does not win: every such second is lost contact, and the result
    /// says how many seconds of that side were implausible (the API, the stored match, the page).
    /// The honest side's strap data, with RR that agrees, is untouched.
    @Test(arguments: TestDatabase.all)
    func aForgedStrapIsCaughtAndTheResultSaysSo(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { p in
            let h = p.harness
            let id = try #require(try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.bob.id, "minutes": 1]).json["id"] as? String)
            try await h.request(.post, "/api/matches/\(id)/accept", token: p.bob.token)
            // 0xbe = 190 bpm, flags 0x16: contact and one RR of 0x0400 ticks (1024/1024 s).
            async let annSide = Self.play(
                h.client, token: p.ann.token, match: id, series: Self.annSeries, frames: { second, _ in #"{"type":"reading","second":\#(second),"hrm":"16be0004"}"# })
            // Bob's strap sends RR that agrees with his rate (60000/bpm ms, in 1/1024 s).
            async let bobSide = Self.play(
                h.client, token: p.bob.token, match: id, series: Self.bobSeries,
                frames: { second, bpm in
                    guard bpm > 0 else { return Self.frame(second, 0) }
                    let ticks = Int((60.0 / bpm * 1024).rounded())
                    return #"{"type":"reading","second":\#(second),"hrm":"\#(String(format: "16%02x%02x%02x", Int(bpm), ticks & 0xff, ticks >> 8))"}"#
                })
            let (ann, _) = try await (annSide, bobSide)
            let result = try #require(ann.last { $0["type"] as? String == "end" }?["result"] as? [String: Any])
            let a = try #require(result["a"] as? [String: Any])
            let b = try #require(result["b"] as? [String: Any])
            #expect(a["implausibleSeconds"] as? Int == 60, "\(a); refused: \(ann.filter { $0["type"] as? String == "error" })")
            #expect(b["implausibleSeconds"] as? Int == 0, "\(b)")
            #expect(a["score"] as? Int == 0 && (b["score"] as? Int ?? 0) > 0)
            #expect(result["winner"] as? String == "b")
            #expect((a["heartRate"] as? [Any])?.allSatisfy { $0 is NSNull } == true, "implausible seconds are lost contact")
            let stored = try await h.request(.get, "/api/matches/\(id)", token: p.bob.token).json
            #expect(((stored["result"] as? [String: Any])?["a"] as? [String: Any])?["implausibleSeconds"] as? Int == 60)
            var cookie = HTTPFields()
            cookie[.cookie] = try await h.webSession("bobmatch").cookie
            let page = try await h.request(.get, "/matches/\(id)", headers: cookie)
            #expect(page.text.contains("Implausible data: 60 s"), "the match page says so")
        }
    }

    /// End (`forfeit`): Bob forfeits with one frame, at once; nothing is kept for him to save.
    @Test func endForfeitsAtOnce() async throws {
        try await Self.run { p in
            let h = p.harness
            let second = try #require(try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.bob.id, "minutes": 1]).json["id"] as? String)
            try await h.request(.post, "/api/matches/\(second)/accept", token: p.bob.token)
            async let annAgain = Self.play(h.client, token: p.ann.token, match: second, series: Self.annSeries)
            async let bobAgain = Self.play(
                h.client, token: p.bob.token, match: second, series: Self.bobSeries, extra: { $0 == 2 ? [#"{"type":"forfeit"}"#] : [] })
            let (annSaw, _) = try await (annAgain, bobAgain)
            let ended = try #require(annSaw.last { $0["type"] as? String == "end" }?["result"] as? [String: Any])
            #expect(ended["reason"] as? String == "left" && ended["forfeitedBy"] as? String == "b" && (ended["secondsPlayed"] as? Int ?? 99) < 10, "\(ended)")
            // "Your data is discarded": Bob's heart rate is not kept; Ann's is.
            #expect((ended["b"] as? [String: Any])?["heartRate"] as? [Any] == nil || ((ended["b"] as? [String: Any])?["heartRate"] as? [Any])?.isEmpty == true)
            #expect(((ended["a"] as? [String: Any])?["heartRate"] as? [Any])?.isEmpty == false)
            #expect(try await h.request(.post, "/api/matches/\(second)/workout", token: p.bob.token).status == .conflict)
        }
    }

    /// A practice match lets the slider (a bare bpm) play, and says so: in the API, the
    /// sources and the notification.
    @Test func aPracticeMatchTakesTheSliderAndSaysPractice() async throws {
        try await Self.run { p in
            let h = p.harness
            let created = try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.bob.id, "minutes": 1, "practice": true])
            #expect(created.json["practice"] as? Bool == true)
            let id = try #require(created.json["id"] as? String)
            try await h.request(.post, "/api/matches/\(id)/accept", token: p.bob.token)
            async let annSide = Self.play(h.client, token: p.ann.token, match: id, series: Self.annSeries, practice: true)
            async let bobSide = Self.play(h.client, token: p.bob.token, match: id, series: Self.bobSeries, practice: true)
            let (ann, _) = try await (annSide, bobSide)
            #expect(!ann.contains { $0["type"] as? String == "error" }, "\(ann.filter { $0["type"] as? String == "error" })")
            let result = try #require(ann.last { $0["type"] as? String == "end" }?["result"] as? [String: Any])
            #expect((result["a"] as? [String: Any])?["sources"] as? [String] == ["practice"])
            let notes = try await h.request(.get, "/api/notifications", token: p.ann.token).json["notifications"] as? [[String: Any]] ?? []
            #expect(notes.contains { $0["kind"] as? String == "match-result" && ($0["text"] as? String ?? "").hasPrefix("Practice match against") })
        }
    }

    /// A reading up to 3 s late is placed; a later one is refused and its second counts as lost
    /// contact (zone none), so the match is as the offline engine scores it with that gap.
    /// Places its early reading 1 s late and its late one 5 s late, so the margins on both
    /// sides of the 3-s window are 2 s: on a loaded CI machine a 150-ms margin was not enough
    /// (the reading was refused once).
    @Test func lateReadingsArePlacedWithinThreeSecondsAndLostAfter() async throws {
        try await Self.run(late: MatchRules.lateSeconds) { p in
            let h = p.harness
            let id = try #require(try await h.request(.post, "/api/matches", token: p.ann.token, json: ["opponent": p.bob.id, "minutes": 1]).json["id"] as? String)
            try await h.request(.post, "/api/matches/\(id)/accept", token: p.bob.token)
            async let annSide = Self.play(h.client, token: p.ann.token, match: id, series: Self.annSeries, delays: [5: 1, 30: 5])
            async let bobSide = Self.play(h.client, token: p.bob.token, match: id, series: Self.bobSeries)
            let (ann, _) = try await (annSide, bobSide)
            let states = ann.filter { $0["type"] as? String == "state" }
            let bpm = { (second: Int) in (states.first { $0["second"] as? Int == second }?["you"] as? [String: Any])?["bpm"] as? Double }
            #expect(bpm(5) == Self.annSeries[5], "1 s late: placed")
            #expect(bpm(30) == nil, "5 s late: lost contact")
            #expect(ann.contains { $0["type"] as? String == "error" && $0["second"] as? Int == 30 && ($0["detail"] as? String ?? "").contains("already scored") })
            var annPlayed: [Double?] = Self.annSeries.map { $0 }
            annPlayed[30] = nil
            let offline = CompetitionEngine.evaluate(
                a: annPlayed, b: Self.bobSeries.map { $0 > 0 ? $0 : nil },
                profileA: try await Self.profile(h, p.ann.token), profileB: try await Self.profile(h, p.bob.token))
            let result = try #require(ann.last { $0["type"] as? String == "end" }?["result"] as? [String: Any])
            #expect((result["a"] as? [String: Any])?["score"] as? Int == offline.a.score)
            #expect((result["b"] as? [String: Any])?["score"] as? Int == offline.b.score)
        }
    }
}
