import Foundation
import HeartworkTestSupport
import Hummingbird
import Testing

/// Issue 23's live recordings: every write idempotent on resend, owners only, bounded, and
/// a finish that makes the same workout an upload of the same seconds would.
@Suite("Recordings API")
struct RecordingAPITests {
    /// A whole second, an hour ago (the server takes starts up to 7 days back).
    static func start() -> Date { Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3600).rounded(.down)) }

    /// Second `i`'s heart rate and RR intervals: a climb from 110 to 189 and back, so the
    /// zones change; RR is 60000/bpm, as a steady heart would beat.
    static func second(_ i: Int) -> (bpm: Int?, rr: [Double]) {
        if i % 50 == 7 { return (nil, []) }  // a dropped reading now and then
        let bpm = 110 + (i < 80 ? i : 160 - i)
        return (bpm, [(60_000.0 / Double(bpm)).rounded()])
    }

    static func chunk(_ seconds: Range<Int>, start: Date, track: Bool = true) -> [String: Any] {
        let startMilliseconds = Int64(start.timeIntervalSince1970 * 1000)
        return [
            "samples": seconds.map { i -> [String: Any] in
                let (bpm, rr) = second(i)
                var sample: [String: Any] = ["at": startMilliseconds + Int64(i) * 1000, "bpm": bpm.map { $0 as Any } ?? NSNull(), "rr": rr]
                if track {
                    sample["lat"] = 48.2 + Double(i) * 0.00003
                    sample["lon"] = 16.37
                    sample["alt"] = 180.0
                }
                return sample
            }
        ]
    }

    @Test(arguments: TestDatabase.all)
    func chunksAreStoredOnceAndFinishMakesTheUploadsWorkout(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("runner")
            try await server.completeProfile(token)
            let (_, stranger) = try await server.signUp("stranger")
            let id = UUID().uuidString.lowercased()
            let start = Self.start()
            let startText = start.formatted(.iso8601)
            let create: [String: Any] = ["sport": "running", "indoor": false, "startedAt": startText]
            #expect(try await server.request(.put, "/api/recordings/\(id)", token: token, json: create).status == .created)
            #expect(try await server.request(.put, "/api/recordings/\(id)", token: token, json: create).status == .ok)
            var other = create
            other["sport"] = "cycling"
            #expect(try await server.request(.put, "/api/recordings/\(id)", token: token, json: other).status == .conflict)

            // 160 seconds in chunks of 40; the first sent twice, and once with other samples.
            for n in 0..<4 {
                let reply = try await server.request(.put, "/api/recordings/\(id)/chunks/\(n)", token: token, json: Self.chunk(n * 40..<(n + 1) * 40, start: start))
                #expect(reply.status == .created, "\(reply.text)")
            }
            let again = try await server.request(.put, "/api/recordings/\(id)/chunks/0", token: token, json: Self.chunk(0..<40, start: start))
            #expect(again.status == .ok && again.json["stored"] as? Bool == false)
            let changed = try await server.request(.put, "/api/recordings/\(id)/chunks/0", token: token, json: Self.chunk(1..<41, start: start))
            #expect(changed.status == .conflict)
            let stored = try await server.request(.get, "/api/recordings/\(id)", token: token)
            #expect(stored.json["chunks"] as? Int == 4 && stored.json["samples"] as? Int == 160)
            let list = try await server.request(.get, "/api/recordings", token: token)
            #expect((list.json["recordings"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])

            // Someone else's recording is not there for anyone else.
            #expect(try await server.request(.get, "/api/recordings/\(id)", token: stranger).status == .notFound)
            #expect(try await server.request(.put, "/api/recordings/\(id)", token: stranger, json: create).status == .notFound)
            #expect(
                try await server.request(.put, "/api/recordings/\(id)/chunks/4", token: stranger, json: Self.chunk(160..<161, start: start)).status == .notFound)
            #expect(try await server.request(.post, "/api/recordings/\(id)/finish", token: stranger, json: [:] as [String: Any]).status == .notFound)
            #expect(try await server.request(.delete, "/api/recordings/\(id)", token: stranger).status == .notFound)
            #expect((try await server.request(.get, "/api/recordings", token: stranger).json["recordings"] as? [Any])?.isEmpty == true)

            let finish: [String: Any] = ["endedAt": start.addingTimeInterval(170).formatted(.iso8601), "pausedSeconds": 10]
            let finished = try await server.request(.post, "/api/recordings/\(id)/finish", token: token, json: finish)
            #expect(finished.status == .created, "\(finished.text)")
            let summary = try #require(finished.json["summary"] as? [String: Any])
            let workoutID = try #require(summary["id"] as? String)
            #expect(finished.headers[.location] == "/api/workouts/\(workoutID)")
            let twice = try await server.request(.post, "/api/recordings/\(id)/finish", token: token, json: finish)
            #expect(twice.status == .ok && (twice.json["summary"] as? [String: Any])?["id"] as? String == workoutID)
            #expect(try await server.request(.put, "/api/recordings/\(id)/chunks/4", token: token, json: Self.chunk(160..<161, start: start)).status == .conflict)
            #expect((try await server.request(.get, "/api/recordings", token: token).json["recordings"] as? [Any])?.isEmpty == true)

            // Every second, once: the streams are exactly what was sent.
            let detail = try await server.request(.get, "/api/workouts/\(workoutID)", token: token)
            let heartRate = try #require(detail.json["heartRate"] as? [Any])
            #expect(heartRate.count == 160)
            #expect(heartRate.enumerated().allSatisfy { i, value in (value as? Int) == Self.second(i).bpm })
            #expect(detail.json["rrIntervals"] as? [Double] == (0..<160).flatMap { Self.second($0).rr })

            // The same seconds uploaded as Heartwork's JSON (a minute later) make the same figures.
            let upload: [String: Any] = [
                "sport": "running", "startTime": start.addingTimeInterval(60).formatted(.iso8601), "indoor": false,
                "heartRate": (0..<160).map { Self.second($0).bpm.map { $0 as Any } ?? NSNull() },
                "rrIntervals": (0..<160).flatMap { Self.second($0).rr },
                "track": (0..<160).map { i in ["lat": 48.2 + Double(i) * 0.00003, "lon": 16.37, "ele": 180.0, "t": Double(i)] },
            ]
            let uploaded = try await server.request(.post, "/api/workouts", token: token, json: upload)
            let expected = try #require(uploaded.json["summary"] as? [String: Any])
            for key in ["durationSeconds", "averageHeartRate", "minimumHeartRate", "maximumHeartRate", "kilocalories", "distanceMeters", "rrIntervalCount", "trackPointCount"] {
                #expect("\(summary[key] ?? "missing")" == "\(expected[key] ?? "missing")", "\(key)")
            }
            let zones = try #require(summary["secondsInZones"] as? [String: Int])
            #expect(zones == expected["secondsInZones"] as? [String: Int])
            #expect(zones.values.reduce(0, +) > 0 && (zones["high"] ?? 0) > 0)
            #expect((summary["kilocalories"] as? Double ?? 0) > 0)
            #expect(summary["rrIntervalCount"] as? Int == 156)
        }
    }

    @Test func hostileAndOversizedInputIsRefusedClearly() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("limits")
            let id = UUID().uuidString
            let start = Self.start()
            let startMilliseconds = Int64(start.timeIntervalSince1970 * 1000)
            #expect(
                try await server.request(.put, "/api/recordings/not-a-uuid", token: token, json: ["sport": "running", "startedAt": start.formatted(.iso8601)]).status == .notFound)
            for (body, field) in [
                (["sport": "swimming", "startedAt": start.formatted(.iso8601)], "sport"),
                (["sport": "running", "startedAt": "2026-02-31T00:00:00Z"], "startedAt"),
                (["sport": "running", "startedAt": "2999-01-01T00:00:00Z"], "startedAt"),
                (["sport": "running", "startedAt": start.formatted(.iso8601), "extra": 1], "extra"),
            ] as [([String: Any], String)] {
                let reply = try await server.request(.put, "/api/recordings/\(id)", token: token, json: body)
                #expect(reply.status == .unprocessableContent || reply.status == .badRequest, "\(body)")
                #expect(reply.problemField == field, "\(body): \(reply.text)")
            }
            #expect(try await server.request(.put, "/api/recordings/\(id)", token: token, json: ["sport": "running", "startedAt": start.formatted(.iso8601)]).status == .created)
            let sample: [String: Any] = ["at": startMilliseconds, "bpm": 100]
            for (path, body, field) in [
                ("0", ["samples": Array(repeating: sample, count: 601)], "samples"),
                ("0", ["samples": [["at": startMilliseconds, "bpm": 300]]], "samples[0].bpm"),
                ("0", ["samples": [["at": startMilliseconds - 5000, "bpm": 100]]], "samples[0].at"),
                ("0", ["samples": [["at": startMilliseconds, "bpm": 100, "rr": Array(repeating: 500, count: 17)]]], "samples[0].rr"),
                ("0", ["samples": [["at": startMilliseconds, "bpm": 100, "rr": [5]]]], "samples[0].rr[0]"),
                ("0", ["samples": [["at": startMilliseconds, "bpm": 100, "lat": 48.0]]], "samples[0].lon"),
                ("0", ["samples": [["at": startMilliseconds, "bpm": 100, "lat": 91, "lon": 0]]], "samples[0].lat"),
                ("0", ["samples": [["at": "soon", "bpm": 100]]], "samples[0].at"),
                ("-1", ["samples": [sample]], "n"),
                ("10000", ["samples": [sample]], "n"),
                ("x", ["samples": [sample]], "n"),
            ] as [(String, [String: Any], String)] {
                let reply = try await server.request(.put, "/api/recordings/\(id)/chunks/\(path)", token: token, json: body)
                #expect(reply.status == .unprocessableContent || reply.status == .badRequest, "\(path) \(field): \(reply.status)")
                #expect(reply.problemField == field, "\(path) \(field): \(reply.text)")
            }
            let huge = try await server.request(
                .put, "/api/recordings/\(id)/chunks/0", token: token, raw: Data(repeating: 0x20, count: 300 * 1024), contentType: "application/json")
            #expect(huge.status == .contentTooLarge)
            let notJSON = try await server.request(.put, "/api/recordings/\(id)/chunks/0", token: token, raw: Data("samples".utf8), contentType: "text/plain")
            #expect(notJSON.status == .unsupportedMediaType)
            #expect((try await server.request(.get, "/api/recordings/\(id)", token: token).json["chunks"] as? Int) == 0)
            // Nothing recorded: nothing to make a workout of, and the recording stays.
            #expect(try await server.request(.post, "/api/recordings/\(id)/finish", token: token, json: [:] as [String: Any]).status == .unprocessableContent)
            #expect(try await server.request(.delete, "/api/recordings/\(id)", token: token).status == .noContent)
            #expect(try await server.request(.get, "/api/recordings/\(id)", token: token).status == .notFound)
            // At most 20 unfinished at once.
            for _ in 0..<20 {
                #expect(
                    try await server.request(.put, "/api/recordings/\(UUID())", token: token, json: ["sport": "running", "startedAt": start.formatted(.iso8601)]).status == .created
                )
            }
            #expect(
                try await server.request(.put, "/api/recordings/\(UUID())", token: token, json: ["sport": "running", "startedAt": start.formatted(.iso8601)]).status == .conflict)
        }
    }
}
