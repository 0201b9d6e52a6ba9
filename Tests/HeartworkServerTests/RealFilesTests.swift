import Foundation
import HTTPTypes
import HeartworkTestSupport
import Testing

/// Issue 28: real files are kept whole. Fixtures written by fit-tool and a Zwift-style GPX
/// (scripts/make_artifact_fixtures.py), their artifacts counted by fitdecode and gpxpy into
/// Resources/artifacts/artifacts.expected.json.
@Suite("Real files kept whole")
struct RealFilesTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Resources/artifacts"))
        return try Data(contentsOf: url)
    }

    static var expected: [String: [String: Any]] {
        get throws {
            try #require(try JSONSerialization.jsonObject(with: fixture("artifacts.expected.json")) as? [String: [String: Any]])
        }
    }

    static func messages(_ reply: ServerHarness.Reply) -> [String] {
        (reply.json["warnings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }

    /// An Edge 1030 ride with a 6,712 ms RR "interval", 20 s of 0 bpm, a GPS jump and a clock
    /// stepping back (the probe's ride was refused for the first alone): stored, with each
    /// artifact counted in the answer and on the workout's page.
    @Test(arguments: TestDatabase.all)
    func anEdgeRideWithArtifactsIsStoredWhole(_ engine: TestDatabase) async throws {
        let ride = try Self.expected["edgeRide"] ?? [:]
        let zeros = ride["zeroHeartRate"] as? Int ?? -1
        let rrKept = (ride["rr"] as? Int ?? 0) - (ride["rrOver5000"] as? Int ?? 0)
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("rider")
            try await server.completeProfile(token)
            let reply = try await server.request(.post, "/api/workouts", token: token, raw: try Self.fixture("edge-ride.fit"), contentType: "application/vnd.ant.fit")
            #expect(reply.status == .created, "\(reply.text)")
            let notes = Self.messages(reply)
            #expect(notes.contains("1 RR interval longer than 5 s (a gap in the recording, not a beat) left out; the longest was 6712 ms"), "\(notes)")
            #expect(notes.contains { $0.hasPrefix("\(zeros) heart-rate readings of 0 bpm") }, "\(notes)")
            #expect(notes.contains("1 track point that jumped faster than 250 m/s (a GPS jump) left out"), "\(notes)")
            #expect(notes.contains("1 record whose time went back (a clock's step) put in time order"), "\(notes)")
            let summary = try #require(reply.json["summary"] as? [String: Any])
            #expect(summary["rrIntervalCount"] as? Int == rrKept)
            #expect((summary["kilocalories"] as? Double ?? 0) > 100, "0 kcal from the file is 'not measured': estimated")
            #expect(summary["device"] as? String == "fit:1/2713/974935520")
            let page = try await server.request(.get, "/workouts/\(summary["id"] as? String ?? "")", headers: try await Self.cookie(server, "rider"))
            #expect(page.text.contains("What was left out when this file was read"))
            #expect(page.text.contains("recorded with Garmin Edge 1030"), "FIT's own product list: 2713 is edge_1030")
        }
    }

    /// A copy that stopped 19,066 bytes short: stored with what was readable, and the answer
    /// says so with the byte (the page said "imported" and nothing else).
    @Test(arguments: TestDatabase.all)
    func aCutFileIsStoredAndSaysWhereItWasCut(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("cutter")
            let reply = try await server.request(.post, "/api/workouts", token: token, raw: try Self.fixture("edge-ride-cut.fit"), contentType: "application/vnd.ant.fit")
            #expect(reply.status == .created, "\(reply.text)")
            let warnings = try #require(reply.json["warnings"] as? [[String: Any]])
            let cut = try #require(warnings.first { ($0["message"] as? String ?? "").contains("truncated") })
            #expect((cut["message"] as? String)?.contains("19072 bytes of data are missing") == true, "\(cut)")
            #expect(cut["byte"] as? Int == 27332)
            #expect(((reply.json["summary"] as? [String: Any])?["durationSeconds"] as? Int ?? 0) > 600, "what was readable is kept")
        }
    }

    /// Issue 41: the cut copy uploaded first, the whole ride then takes its place — the same
    /// workout (id, sharing), the whole length, the answer saying so — and neither copy is
    /// stored twice after.
    @Test(arguments: TestDatabase.all)
    func aWholeCopyReplacesTheCutOneUploadedFirst(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("recutter")
            try await server.completeProfile(token)
            let fit = "application/vnd.ant.fit"
            let cut = try await server.request(.post, "/api/workouts", token: token, raw: try Self.fixture("edge-ride-cut.fit"), contentType: fit)
            #expect(cut.status == .created)
            let cutSummary = try #require(cut.json["summary"] as? [String: Any])
            let id = try #require(cutSummary["id"] as? String)
            let cutSeconds = try #require(cutSummary["durationSeconds"] as? Int)
            #expect(try await server.request(.put, "/api/workouts/\(id)/share", token: token).status == .ok)

            let whole = try await server.request(.post, "/api/workouts", token: token, raw: try Self.fixture("edge-ride.fit"), contentType: fit)
            #expect(whole.status == .ok, "\(whole.text)")
            #expect(whole.headers[.location] == "/api/workouts/\(id)")
            let summary = try #require(whole.json["summary"] as? [String: Any])
            let seconds = try #require(summary["durationSeconds"] as? Int)
            #expect(summary["id"] as? String == id && seconds > cutSeconds + 60, "\(cutSeconds) → \(seconds)")
            #expect(summary["shared"] as? Bool == true, "sharing stays")
            let replaced = try #require(whole.json["replaced"] as? [String: Any])
            #expect(replaced["durationSeconds"] as? Int == cutSeconds)
            #expect((replaced["message"] as? String ?? "").hasPrefix("replaced the shorter copy stored before"), "\(replaced)")
            #expect(!Self.messages(whole).contains { $0.contains("truncated") }, "the cut copy's note went with it")

            let detail = try await server.request(.get, "/api/workouts/\(id)", token: token).json
            #expect(((detail["heartRate"] as? [Any])?.count ?? 0) > cutSeconds + 60, "the whole ride's heart rate")
            let list = try await server.request(.get, "/api/workouts", token: token).json["workouts"] as? [Any]
            #expect(list?.count == 1, "one workout, not two")
            // Either copy again: already here.
            for name in ["edge-ride.fit", "edge-ride-cut.fit"] {
                let again = try await server.request(.post, "/api/workouts", token: token, raw: try Self.fixture(name), contentType: fit)
                #expect(again.status == .conflict && again.headers[.location] == "/api/workouts/\(id)", "\(name): \(again.status)")
            }
        }
    }

    /// A Zwift ride: its own name, indoors (its track is a game world's), 0 and 255 bpm and a
    /// point whose time goes back left out and counted.
    @Test(arguments: TestDatabase.all)
    func aZwiftRideKeepsItsNameAndIsIndoors(_ engine: TestDatabase) async throws {
        let zwift = try Self.expected["zwift"] ?? [:]
        let name = zwift["name"] as? String
        let bad = (zwift["zeroHeartRate"] as? Int ?? 0) + (zwift["heartRate255"] as? Int ?? 0)
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("zwifter")
            let reply = try await server.request(.post, "/api/workouts", token: token, raw: try Self.fixture("zwift.gpx"), contentType: "application/gpx+xml")
            #expect(reply.status == .created, "\(reply.text)")
            let summary = try #require(reply.json["summary"] as? [String: Any])
            #expect(summary["title"] as? String == name)
            #expect(summary["indoor"] as? Bool == true)
            let notes = Self.messages(reply)
            #expect(notes.contains { $0.hasPrefix("\(bad) heart-rate readings outside 20–250 bpm") }, "\(notes)")
            #expect(notes.contains("1 record whose time went back (a clock's step) put in time order"), "\(notes)")
        }
    }

    static func cookie(_ server: ServerHarness, _ user: String) async throws -> HTTPFields {
        var fields = HTTPFields()
        fields[.cookie] = try await server.webSession(user).cookie
        return fields
    }
}
