import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HeartworkServer

/// Issue 40's probe: each input generated here, its bound asserted — on both engines where it
/// stores. Time and memory figures (the victims' p99 latency, peak RSS) are measured by
/// Benchmarks/hostile_probe.py against a running server: a benchmark, not a timed test.
@Suite("No input stops the server (issue 40)", .timeLimit(.minutes(10)), .loadsTheMachine)
struct HostileInput40Tests {
    // MARK: Acknowledged means kept

    /// Chunks sent while a finish runs: every chunk answered 201 is in the workout, every other
    /// one is refused with 409 and the reason, and a resend of one answered 201 is 200 — never
    /// "stored" and then lost (82 of 82 were before).
    @Test(arguments: TestDatabase.all)
    func everyChunkAnswered201IsInTheWorkout(_ engine: TestDatabase) async throws {
        #expect(await MachineShare.holder() == .loadingTheMachine, "no live match runs beside the floods")
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("racer")
            try await server.completeProfile(token)
            for trial in 0..<3 {
                let start = RecordingAPITests.start().addingTimeInterval(Double(trial * 1000))
                let startMilliseconds = Int64(start.timeIntervalSince1970 * 1000)
                // Chunk n: ten seconds at 100 + n bpm (so the workout tells which came).
                @Sendable func chunk(_ n: Int) -> [String: Any] {
                    ["samples": (0..<10).map { i -> [String: Any] in ["at": startMilliseconds + Int64(n * 10 + i) * 1000, "bpm": 100 + n] }]
                }
                let id = UUID().uuidString.lowercased()
                let create: [String: Any] = ["sport": "running", "indoor": true, "startedAt": start.formatted(.iso8601)]
                #expect(try await server.request(.put, "/api/recordings/\(id)", token: token, json: create).status == .created)
                for n in 0..<3 { #expect(try await server.request(.put, "/api/recordings/\(id)/chunks/\(n)", token: token, json: chunk(n)).status == .created) }
                let answers = try await withThrowingTaskGroup(of: (Int, Int, String).self) { group in
                    group.addTask {
                        let finished = try await server.request(.post, "/api/recordings/\(id)/finish", token: token, json: [:] as [String: Any])
                        return (-1, Int(finished.status.code), finished.text)
                    }
                    for n in 3..<40 {
                        group.addTask {
                            let reply = try await server.request(.put, "/api/recordings/\(id)/chunks/\(n)", token: token, json: chunk(n))
                            return (n, Int(reply.status.code), reply.text)
                        }
                    }
                    var all = [(Int, Int, String)]()
                    for try await answer in group { all.append(answer) }
                    return all
                }
                let finish = try #require(answers.first { $0.0 == -1 })
                #expect(finish.1 == 201, "\(finish.2)")
                let accepted = Set(answers.filter { $0.0 >= 0 && $0.1 == 201 }.map(\.0)).union(0..<3)
                for refused in answers where refused.0 >= 0 && refused.1 != 201 {
                    #expect(refused.1 == 409, "chunk \(refused.0): \(refused.1) \(refused.2)")
                    #expect(refused.2.contains("being finished") || refused.2.contains("finished already"), "\(refused.2)")
                }
                let workoutID = try #require(try await server.request(.get, "/api/recordings/\(id)", token: token).json["workoutID"] as? String)
                let detail = try await server.request(.get, "/api/workouts/\(workoutID)", token: token)
                let heartRate = detail.json["heartRate"] as? [Any] ?? []
                let stored = Set((0..<40).filter { n in n * 10 < heartRate.count && heartRate[n * 10] as? Int == 100 + n })
                #expect(stored == accepted, "chunks answered 201 but not in the workout: \(accepted.subtracting(stored).sorted())")
                // A resend of an acknowledged chunk is "stored before"; of a refused one, "finished".
                if let late = answers.first(where: { $0.0 >= 0 && $0.1 == 201 })?.0 {
                    #expect(try await server.request(.put, "/api/recordings/\(id)/chunks/\(late)", token: token, json: chunk(late)).status == .conflict)
                }
            }
        }
    }

    // MARK: Caps that hold

    /// 60 requests at once against each per-account cap leave exactly the cap.
    @Test(arguments: TestDatabase.all)
    func capsHoldUnderParallelRequests(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("flooder")
            func parallel(_ count: Int, _ make: @escaping @Sendable (Int) async throws -> HTTPResponse.Status) async throws -> [HTTPResponse.Status] {
                try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for index in 0..<count { group.addTask { try await make(index) } }
                    var all = [HTTPResponse.Status]()
                    for try await status in group { all.append(status) }
                    return all
                }
            }
            let gateways = try await parallel(60) { try await server.request(.post, "/api/gateways", token: token, json: ["name": "g\($0)"]).status }
            #expect(gateways.filter { $0 == .created }.count == 50 && gateways.filter { $0 == .conflict }.count == 10, "\(gateways)")
            #expect((try await server.request(.get, "/api/gateways", token: token).json["gateways"] as? [Any])?.count == 50)
            let tokens = try await parallel(60) { try await server.request(.post, "/api/sync-tokens", token: token, json: ["name": "phone \($0)"]).status }
            #expect(tokens.filter { $0 == .created }.count == 20, "\(tokens)")
            let start = Date().addingTimeInterval(-600).formatted(.iso8601)
            let recordings = try await parallel(60) { _ in
                try await server.request(
                    .put, "/api/recordings/\(UUID().uuidString.lowercased())", token: token, json: ["sport": "running", "indoor": true, "startedAt": start]
                ).status
            }
            #expect(recordings.filter { $0 == .created }.count == 20, "\(recordings)")
            let exercises = try await parallel(530) { index in
                try await server.request(
                    .post, "/api/exercises", token: token, json: ["name": "Own lift number \(index)", "group": "legs", "equipment": "barbell"]
                ).status
            }
            #expect(exercises.filter { $0 == .created }.count == 500 && exercises.filter { $0 == .conflict }.count == 30)
            let owner = try #require(try await server.store.users.find(username: "flooder"))
            #expect(try await server.services.strength.customExercises(for: owner).count == 500)
        }
    }

    /// 170 chunks of 600 samples at once on one recording: the samples stored never pass
    /// 100,000 (103,000 did), counted in the transaction that stores each chunk.
    @Test(arguments: TestDatabase.all)
    func aRecordingsSamplesStayWithinItsCap(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("sampler")
            let id = UUID().uuidString.lowercased()
            let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3600).rounded(.down))
            let startMilliseconds = Int64(start.timeIntervalSince1970 * 1000)
            #expect(
                try await server.request(.put, "/api/recordings/\(id)", token: token, json: ["sport": "running", "indoor": true, "startedAt": start.formatted(.iso8601)])
                    .status == .created)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for n in 0..<170 {
                    group.addTask {
                        let samples = (0..<600).map { i -> [String: Any] in ["at": startMilliseconds + Int64(n * 600 + i) * 800, "bpm": 120] }
                        return try await server.request(.put, "/api/recordings/\(id)/chunks/\(n)", token: token, json: ["samples": samples]).status
                    }
                }
                var all = [HTTPResponse.Status]()
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses.filter { $0 == .created }.count == 166, "100,000 / 600 = 166 chunks fit")
            #expect(statuses.filter { $0 == .unprocessableContent }.count == 4)
            #expect(try await server.request(.get, "/api/recordings/\(id)", token: token).json["samples"] as? Int == 99_600)
        }
    }

    /// Invitations: at most 5 waiting from one player, at most 10 waiting for one player.
    @Test(arguments: TestDatabase.all)
    func openInvitationsAreLimited(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (targetID, target) = try await server.signUp("target")
            try await server.completeProfile(target)
            var friends = [String]()
            for index in 0..<11 {
                let (_, token) = try await server.signUp("friend\(index)")
                try await server.completeProfile(token)
                try await FriendProfileTests.befriend(server, token, targetID, target)
                friends.append(token)
            }
            for _ in 0..<5 { #expect(try await server.request(.post, "/api/matches", token: friends[0], json: ["opponent": targetID, "minutes": 5]).status == .created) }
            let sixth = try await server.request(.post, "/api/matches", token: friends[0], json: ["opponent": targetID, "minutes": 5])
            #expect(sixth.status == .tooManyRequests && sixth.text.contains("5 invitations waiting"), "\(sixth.text)")
            for index in 1..<6 { #expect(try await server.request(.post, "/api/matches", token: friends[index], json: ["opponent": targetID, "minutes": 5]).status == .created) }
            let eleventh = try await server.request(.post, "/api/matches", token: friends[6], json: ["opponent": targetID, "minutes": 5])
            #expect(eleventh.status == .tooManyRequests && eleventh.text.contains("10 invitations waiting"), "\(eleventh.text)")
            let notifications = try await server.request(.get, "/api/notifications", token: target).json["notifications"] as? [[String: Any]] ?? []
            #expect(notifications.filter { ($0["link"] as? String ?? "").hasPrefix("/matches/") }.count == 10, "\(notifications)")
        }
    }

    // MARK: Doors

    /// Sign-in and sign-up posted from an opaque origin (what browsers send after a cross-site
    /// redirect) are refused, and no session cookie is set; without an Origin (not a browser)
    /// and from this site they work.
    @Test func signInAndSignUpRefuseTheNullOrigin() async throws {
        try await ServerHarness.run { server in
            _ = try await server.signUp("victim")
            func post(_ path: String, _ body: String, origin: String?) async throws -> ServerHarness.Reply {
                var headers = HTTPFields()
                headers[.contentType] = "application/x-www-form-urlencoded"
                if let origin { headers[.origin] = origin }
                return try await server.request(.post, path, raw: Data(body.utf8), headers: headers)
            }
            let login = "username=victim&password=correct+horse+1"
            let opaque = try await post("/login", login, origin: "null")
            #expect(opaque.status == .forbidden && opaque.headers[.setCookie] == nil)
            #expect(opaque.text.contains("sent from another site"))
            let other = try await post("/login", login, origin: "https://evil.example")
            #expect(other.status == .forbidden && other.headers[.setCookie] == nil)
            #expect(try await post("/login", login, origin: nil).status == .seeOther)
            #expect(try await post("/login", login, origin: "http://localhost").status == .seeOther)
            let signup = "username=newcomer&fullName=New+Comer&email=new%40example.org&password=correct+horse+1"
            let opaqueSignup = try await post("/signup", signup, origin: "null")
            #expect(opaqueSignup.status == .forbidden && opaqueSignup.headers[.setCookie] == nil)
            #expect(try await server.store.users.find(username: "newcomer") == nil)
        }
    }

    /// A photo of 20,000 × 20,000 pixels (48 kB as a PNG) is refused, saying how large one may
    /// be; one within the bound is kept.
    @Test func aHugePhotoIsRefused() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("poser")
            let huge = ZipTestArchive.png(width: 20_000, height: 20_000)
            let refused = try await server.request(.put, "/api/me/photo", token: token, raw: Data(huge), contentType: "image/png")
            #expect(refused.status.code >= 400 && refused.text.contains("at most 16 megapixels"), "\(refused.status) \(refused.text)")
            // One within the bound is stored re-encoded to at most 1024 pixels a side.
            var pixels = [UInt8](repeating: 255, count: 3000 * 2000 * 4)
            for index in 0..<(3000 * 2000) {
                pixels[index * 4] = UInt8(index % 251)
                pixels[index * 4 + 1] = UInt8(index % 241)
            }
            let large = PNGEncoder.encode(RasterImage(width: 3000, height: 2000, pixels: pixels))
            #expect(try await server.request(.put, "/api/me/photo", token: token, raw: Data(large), contentType: "image/png").status == .noContent)
            let me = try #require(try await server.request(.get, "/api/me", token: token).json["id"] as? String)
            let stored = try await server.request(.get, "/api/users/\(me)/photo", token: token)
            let file = try ImageFile([UInt8](stored.body))
            #expect(file.kind == .png && file.width == 1024 && file.height == 682, "\(file)")
        }
    }

    /// A body trickled a byte at a time is answered 408 once it has kept the server waiting
    /// past its allowance (here 2 s), whatever its idle timeout; a normal body is untouched.
    @Test func aTrickledBodyIsCutOff() async throws {
        try await ServerHarness.run(setup: .live, adjusting: { $0.bodyWaitAllowance = .seconds(2) }) { server in
            let (_, token) = try await server.signUp("trickler")
            let port = try #require(server.client.port)
            let answer = try await onThread {
                let connection = try RawConnection(port: port)
                try connection.send(
                    "POST /api/workouts HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
                let began = Date()
                var answer = ""
                while Date().timeIntervalSince(began) < 20 {
                    try? connection.send("{")
                    answer = connection.receiveAll(within: 0.5)
                    if !answer.isEmpty { break }
                }
                return (answer, Date().timeIntervalSince(began))
            }
            #expect(answer.0.hasPrefix("HTTP/1.1 408"), "\(answer.0.prefix(200))")
            #expect(answer.0.contains("came too slowly"))
            #expect(answer.1 < 15, "cut off after \(answer.1) s")
            // A body sent at once, on a connection of its own, is stored.
            let body = try JSONSerialization.data(withJSONObject: ServerHarness.workoutJSON())
            let stored = try await onThread {
                let connection = try RawConnection(port: port)
                try connection.send(
                    "POST /api/workouts HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")
                try connection.send(bytes: [UInt8](body))
                return connection.receiveAll(within: 20)
            }
            #expect(stored.hasPrefix("HTTP/1.1 201"), "\(stored.prefix(200))")
        }
    }

    /// Connections from one address past the limit (here 3) are closed at once, before a byte
    /// is read; those within it stay open; one more is taken when one of them closes.
    @Test func connectionsFromOneAddressAreLimited() async throws {
        try await ServerHarness.run(setup: .live, adjusting: { $0.maximumConnectionsPerAddress = 3 }) { server in
            let port = try #require(server.client.port)
            let result = try await onThread {
                // Six at once from 127.0.0.1 (the test's own client may hold one more).
                var six = try (0..<6).map { _ in try RawConnection(port: port) }
                let closed = six.map { $0.isClosed(within: 2) }
                let kept = closed.filter { !$0 }.count
                // All of them closed: a new one is taken once the server has seen them close
                // (on a saturated machine that may take a few seconds: asked again every 0.5 s).
                six.removeAll()
                let began = Date()
                while Date().timeIntervalSince(began) < 30 {
                    Thread.sleep(forTimeInterval: 0.5)
                    let again = try RawConnection(port: port)
                    try again.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    if again.receiveAll(within: 5).hasPrefix("HTTP/1.1 200") { return (kept, true) }
                }
                return (kept, false)
            }
            #expect((2...3).contains(result.0), "\(result.0) of 6 connections kept open with a limit of 3")
            #expect(result.1, "a connection was not taken after the others closed")
        }
    }

    /// Two bodies a user sends slowly hold only that user's places: another user's upload and
    /// sync are stored at once meanwhile (they waited 60 s for a 503 when the slots were taken
    /// before the body).
    @Test func slowUploadsHoldOnlyTheirSendersPlaces() async throws {
        try await ServerHarness.run(setup: .live) { server in
            let (_, slow) = try await server.signUp("slowpoke")
            let (_, other) = try await server.signUp("bystander")
            let port = try #require(server.client.port)
            let senders = try await onThread {
                try (0..<2).map { _ in
                    let connection = try RawConnection(port: port)
                    try connection.send(
                        "POST /api/workouts HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(slow)\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{")
                    return connection
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            let began = ContinuousClock.now
            let upload = try await server.request(.post, "/api/workouts", token: other, json: ServerHarness.workoutJSON())
            #expect(upload.status == .created)
            #expect(ContinuousClock.now - began < .seconds(20), "the other user's upload waited \(ContinuousClock.now - began)")
            // The slow sender's third body is refused at once (their places are taken).
            let third = try await server.request(.post, "/api/workouts", token: slow, json: ServerHarness.workoutJSON(start: "2026-11-21T07:00:00Z"))
            #expect(third.status == .created || third.status == .tooManyRequests)
            _ = senders
        }
    }
}
