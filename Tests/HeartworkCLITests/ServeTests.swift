import Foundation
import HeartworkTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `heartwork serve` as a process: it starts, answers, and on SIGTERM stops cleanly without
/// losing anything it acknowledged.
@Suite("heartwork serve", .serialized)
struct ServeTests {
    enum CalendarDayText {
        static func day(offset: Int) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
            return formatter.string(from: Date().addingTimeInterval(Double(offset) * 86_400))
        }
    }

    final class Server: @unchecked Sendable {
        let process = Process()
        let errors = Pipe()
        private(set) var port = 0

        init(
            dataDirectory: String, executable: URL? = nil, workingDirectory: URL? = nil, options: [String] = [], port fixed: Int = 0,
            environment extra: [String: String] = [:]
        ) throws {
            process.executableURL = try executable ?? ExecutableTests.executable()
            process.arguments = ["serve", "--port", String(fixed), "--data-dir", dataDirectory] + options
            if let workingDirectory { process.currentDirectoryURL = workingDirectory }
            var environment = ProcessInfo.processInfo.environment
            environment["HEARTWORK_BCRYPT_COST"] = "4"
            environment.merge(extra) { _, new in new }
            process.environment = environment
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // The JSON log says where it listens: "Server started and listening on 127.0.0.1:PORT".
            var text = ""
            let deadline = Date().addingTimeInterval(60)
            while port == 0 && Date() < deadline {
                let data = errors.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
                if let range = text.range(of: "listening on 127.0.0.1:") {
                    let digits = text[range.upperBound...].prefix { $0.isNumber }
                    port = Int(digits) ?? 0
                }
            }
            guard port != 0 else { throw HarnessFailure("the server did not start: \(text)") }
            // Keep reading the log: a pipe nobody drains fills at 64 KB, and then the server's
            // next log line blocks it (a busy import polled every 20 ms logs that much).
            errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                if data.isEmpty {  // the server has exited
                    handle.readabilityHandler = nil
                    return
                }
                self?.logTail.withLock { $0 = String(($0 + String(decoding: data, as: UTF8.self)).suffix(16_384)) }
            }
        }

        /// The end of the server's log, for failure messages.
        let logTail = Mutex<String>("")

        /// SIGKILL: no shutdown at all, as when the machine loses power.
        func kill() {
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        func stop() -> Int32 {
            process.terminate()  // SIGTERM
            process.waitUntilExit()
            return process.terminationStatus
        }

        func call(_ method: String, _ path: String, token: String? = nil, body: Data? = nil, contentType: String = "application/json") async throws -> (status: Int, data: Data) {
            let (status, data, _) = try await exchange(method, path, token: token, body: body, contentType: contentType)
            return (status, data)
        }

        func exchange(
            _ method: String, _ path: String, token: String? = nil, body: Data? = nil,
            contentType: String = "application/json"
        ) async throws -> (status: Int, data: Data, contentType: String) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = method
            request.timeoutInterval = 60
            if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
            if let body {
                request.httpBody = body
                request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            }
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = response as? HTTPURLResponse
            return (http?.statusCode ?? 0, data, http?.value(forHTTPHeaderField: "Content-Type") ?? "")
        }

        func signIn() async throws -> String {
            let reply = try await call("POST", "/api/auth/login", body: Data(#"{"username":"stopper","password":"12345678"}"#.utf8))
            return (try JSONSerialization.jsonObject(with: reply.data) as? [String: Any])?["token"] as? String ?? ""
        }
    }

    struct HarnessFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A 2-hour workout: 7,200 heart rates, 9,000 RR intervals and 7,200 GPS points.
    static func twoHourWorkout(start: String) -> Data {
        let heartRate = (0..<7200).map { String(120 + $0 % 40) }.joined(separator: ",")
        let rr = (0..<9000).map { String(600 + $0 % 50) }.joined(separator: ",")
        let track = (0..<7200).map { index -> String in
            let lat = 48.2 + Double(index) * 1e-5
            let lon = 16.37 + Double(index % 100) * 1e-5
            return "{\"lat\":\(lat),\"lon\":\(lon),\"ele\":180.0,\"t\":\(index)}"
        }.joined(separator: ",")
        let json = "{\"sport\":\"running\",\"startTime\":\"\(start)\",\"indoor\":false,\"heartRate\":[\(heartRate)],\"rrIntervals\":[\(rr)],\"track\":[\(track)]}"
        return Data(json.utf8)
    }

    static func startTimes(_ data: Data) -> [String] {
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        return (object?["workouts"] as? [[String: Any]])?.compactMap { $0["startTime"] as? String } ?? []
    }

    @Test func acknowledgedWorkoutsSurviveAGracefulStop() async throws {
        let directory = try TemporaryDirectory()
        let server = try Server(dataDirectory: directory.url.path)
        #expect(try await server.call("GET", "/healthz").status == 200)
        let registration = Data(#"{"username":"stopper","fullName":"Stop Per","email":"s@example.org","password":"12345678"}"#.utf8)
        #expect(try await server.call("POST", "/api/auth/register", body: registration).status == 201)
        let token = try await server.signIn()
        #expect(try await server.call("POST", "/api/workouts", token: token, body: Self.twoHourWorkout(start: "2026-11-01T07:00:00Z")).status == 201)

        // A large upload in flight when SIGTERM arrives: if it was acknowledged, it must be stored.
        let secondWorkout = Self.twoHourWorkout(start: "2026-11-02T07:00:00Z")
        let inFlight = Task { try? await server.call("POST", "/api/workouts", token: token, body: secondWorkout) }
        try await Task.sleep(for: .milliseconds(30))
        let status = server.stop()
        let inFlightResult = await inFlight.value
        #expect(status == 0, "serve should exit 0 after SIGTERM")

        let restarted = try Server(dataDirectory: directory.url.path)
        let again = try await restarted.signIn()
        let starts = Self.startTimes(try await restarted.call("GET", "/api/workouts", token: again).data)
        #expect(starts.contains("2026-11-01T07:00:00Z"))
        if inFlightResult?.status == 201 {
            #expect(starts.contains("2026-11-02T07:00:00Z"), "an acknowledged upload was lost")
        }
        #expect(restarted.stop() == 0)
    }

    /// `heartwork import apple-health` uploads and follows an import; `heartwork day` prints a
    /// day from the server (issue 11).
    @Test func appleHealthImportAndDayFromTheCommandLine() async throws {
        let directory = try TemporaryDirectory()
        let server = try Server(dataDirectory: directory.url.path, environment: ["HEARTWORK_JOB_LEASE_SECONDS": "5"])
        let registration = Data(#"{"username":"stopper","fullName":"Stop Per","email":"s@example.org","password":"12345678"}"#.utf8)
        #expect(try await server.call("POST", "/api/auth/register", body: registration).status == 201)
        let token = try await server.signIn()
        let today = CalendarDayText.day(offset: 0)
        let file = directory.url.appendingPathComponent("export.xml")
        try Data(HealthExportFixture.xml(days: [CalendarDayText.day(offset: -1), today]).utf8).write(to: file)
        let address = "http://127.0.0.1:\(server.port)"
        let cli = ExecutableTests()
        let imported = try cli.run(["import", "apple-health", file.path, "--server", address, "--token", token])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("State     done"), "\(imported.standardOutput)")
        #expect(
            imported.standardOutput.contains("Samples   1658 read, 1658 new") && imported.standardOutput.contains("Workouts  2 new, 0 already stored"),
            "\(imported.standardOutput)")
        let again = try cli.run(["import", "apple-health", file.path, "--server", address, "--token", token, "--format", "json"])
        let summary = (try JSONSerialization.jsonObject(with: Data(again.standardOutput.utf8)) as? [String: Any]) ?? [:]
        #expect(summary["samplesAdded"] as? Int == 0 && summary["workoutsDuplicate"] as? Int == 2, "\(again.standardOutput)")
        // The recomputation runs after the import; wait for the day.
        var day = ExecutableTests.Run(status: 1, standardOutput: "", standardError: "")
        for _ in 0..<100 {
            day = try cli.run(["day", "--date", today, "--server", address, "--token", token])
            if day.standardOutput.contains("Recovery") { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(day.status == 0, "\(day.standardError)")
        #expect(day.standardOutput.contains("Recovery    84.4 % (in bed 7.5 h, asleep 6.5 h, quality 9/10 estimated)"), "\(day.standardOutput)")
        #expect(day.standardOutput.contains("Steps       3000"), "\(day.standardOutput)")
        let empty = try cli.run(["day", "--date", "2020-01-01", "--server", address, "--token", token])
        #expect(empty.status == 0 && empty.standardOutput.contains("none recorded"))
        let refused = try cli.run(["day", "--date", today, "--server", address, "--token", "nope"])
        #expect(refused.status != 0 && refused.standardError.contains("token was not accepted"))
        let notExport = directory.url.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: notExport)
        let wrongFile = try cli.run(["import", "apple-health", notExport.path, "--server", address, "--token", token])
        #expect(wrongFile.status != 0 && wrongFile.standardError.contains("not export.zip or export.xml"))
        #expect(server.stop() == 0)
    }

    /// The job queue under kill -9 (issue 11): an Apple Health import is killed mid-way; the
    /// restarted server takes the job over once its lease runs out, and the days come out
    /// exactly as a clean import of the same export makes them (no job lost, none run twice
    /// to a different result).
    @Test func anImportKilledMidwayFinishesAfterARestartAsIfNothingHappened() async throws {
        let days = (0..<40).map { CalendarDayText.day(offset: -$0) }.reversed().map { $0 }
        let export = Data(HealthExportFixture.xml(days: Array(days), heartRateEverySeconds: 60).utf8)
        let registration = Data(#"{"username":"stopper","fullName":"Stop Per","email":"s@example.org","password":"12345678"}"#.utf8)
        // A short lease, so the restarted server takes the killed job over soon; not so short that
        // a saturated machine (the whole suite at once on two cores) lets the clean run's own
        // lease lapse and another of its workers take the job over (CI once: the clean import
        // reported its 40 workouts as duplicates of its own first run, with a 2-s lease).
        let environment = ["HEARTWORK_JOB_LEASE_SECONDS": "10"]
        func waitFor(_ server: Server, _ token: String, _ id: String, until done: ([String: Any]) -> Bool) async throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(300)
            while Date() < deadline {
                let reply = try await server.call("GET", "/api/imports/\(id)", token: token)
                let json = (try JSONSerialization.jsonObject(with: reply.data) as? [String: Any]) ?? [:]
                if done(json) { return json }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw HarnessFailure("the import did not get there in time")
        }
        func importAndRead(killing: Bool) async throws -> (days: Data, state: [String: Any], killedAt: Int) {
            let directory = try TemporaryDirectory()
            var server = try Server(dataDirectory: directory.url.path, environment: environment)
            #expect(try await server.call("POST", "/api/auth/register", body: registration).status == 201)
            let token = try await server.signIn()
            let accepted = try await server.call("POST", "/api/imports/apple-health", token: token, body: export, contentType: "application/xml")
            #expect(accepted.status == 202)
            let id = (try JSONSerialization.jsonObject(with: accepted.data) as? [String: Any])?["id"] as? String ?? ""
            var killedAt = 0
            if killing {
                // Killed once the first batches are stored, well before the end.
                let running = try await waitFor(server, token, id) { ($0["samplesRead"] as? Int ?? 0) > 0 || $0["state"] as? String == "done" }
                server.kill()
                killedAt = running["samplesRead"] as? Int ?? 0
                server = try Server(dataDirectory: directory.url.path, environment: environment)
            }
            let token2 = try await server.signIn()
            let state = try await waitFor(server, token2, id) { ["done", "failed"].contains($0["state"] as? String ?? "") }
            // The recomputation queued by the import runs next; the last day is there when it has.
            var range = Data()
            let deadline = Date().addingTimeInterval(300)
            repeat {
                try await Task.sleep(for: .milliseconds(200))
                range = try await server.call("GET", "/api/days?from=\(days.first ?? "")&to=\(days.last ?? "")", token: token2).data
            } while !Self.allDaysComputed(range, count: days.count) && Date() < deadline
            #expect(server.stop() == 0)
            return (range, state, killedAt)
        }
        let clean = try await importAndRead(killing: false)
        let killed = try await importAndRead(killing: true)
        #expect(clean.state["state"] as? String == "done" && killed.state["state"] as? String == "done", "\(killed.state)")
        #expect(killed.killedAt > 0 && killed.killedAt < days.count * 1950, "killed mid-way (at \(killed.killedAt) samples)")
        #expect(killed.state["samplesRead"] as? Int == clean.state["samplesRead"] as? Int)
        // What the import reports after the restart is what a clean one reports (a resumed run
        // once reported no first day and its own earlier workouts as duplicates).
        for key in ["firstDay", "lastDay", "workoutsAdded", "workoutsDuplicate"] {
            #expect("\(killed.state[key] ?? "none")" == "\(clean.state[key] ?? "none")", "\(key): \(killed.state[key] ?? "none") after the kill")
        }
        #expect(clean.state["workoutsAdded"] as? Int == 40)
        let samplesAdded = killed.state["samplesAdded"] as? Int ?? 0
        let cleanSamples = clean.state["samplesAdded"] as? Int ?? 0
        #expect(samplesAdded <= cleanSamples && samplesAdded >= cleanSamples - 20_000, "samples added \(samplesAdded) of \(cleanSamples) (one batch may go uncounted)")
        #expect(Self.withoutWorkoutIDs(clean.days) == Self.withoutWorkoutIDs(killed.days), "the days after a kill -9 and a restart differ from a clean import's")
    }

    /// Issue 40: a Strong import is a job too. Killed (kill -9) while its workouts are being
    /// stored, it goes on after a restart from the last workout it had done, and ends with what
    /// a clean import of the same file ends with: every workout once, the same summary.
    @Test func aStrengthImportKilledMidwayFinishesAfterARestart() async throws {
        var text = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps\n"
        for day in 0..<600 {
            let date = Calendar(identifier: .gregorian).date(byAdding: .day, value: day, to: Date(timeIntervalSince1970: 1_600_000_000))!
            let stamp = ISO8601DateFormatter().string(from: date).prefix(10)
            for set in 1...5 { text += "\(stamp) 07:30:00,Legs,45m,Squat (Barbell),\(set),\(60 + day % 40),5\n" }
        }
        let export = Data(text.utf8)
        let registration = Data(#"{"username":"stopper","fullName":"Stop Per","email":"s@example.org","password":"12345678"}"#.utf8)
        let environment = ["HEARTWORK_JOB_LEASE_SECONDS": "10"]
        func importAndRead(killing: Bool) async throws -> [String: Any] {
            let directory = try TemporaryDirectory()
            var server = try Server(dataDirectory: directory.url.path, environment: environment)
            #expect(try await server.call("POST", "/api/auth/register", body: registration).status == 201)
            let token = try await server.signIn()
            let posted = try await server.call("POST", "/api/strength/import", token: token, body: export, contentType: "text/csv")
            #expect([200, 202].contains(posted.status))
            let answer = (try JSONSerialization.jsonObject(with: posted.data) as? [String: Any]) ?? [:]
            guard let id = (answer["importID"] ?? answer["id"]) as? String else { throw HarnessFailure("no import id: \(answer)") }
            func status(_ server: Server, _ token: String) async throws -> [String: Any] {
                (try JSONSerialization.jsonObject(with: try await server.call("GET", "/api/strength/imports/\(id)", token: token).data) as? [String: Any]) ?? [:]
            }
            if killing {
                // Killed once some workouts are stored, well before the end.
                let deadline = Date().addingTimeInterval(120)
                while Date() < deadline {
                    let now = try await status(server, token)
                    if (now["workoutsImported"] as? Int ?? 0) > 0 || now["state"] as? String == "done" { break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                server.kill()
                server = try Server(dataDirectory: directory.url.path, environment: environment)
            }
            let again = try await server.signIn()
            let deadline = Date().addingTimeInterval(300)
            var final: [String: Any] = [:]
            while Date() < deadline {
                final = try await status(server, again)
                if ["done", "failed"].contains(final["state"] as? String ?? "") { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            var stored = 0
            while true {
                let page = try await server.call("GET", "/api/strength/sessions?limit=100&offset=\(stored)", token: again)
                let count = ((try JSONSerialization.jsonObject(with: page.data) as? [String: Any])?["sessions"] as? [Any])?.count ?? 0
                stored += count
                if count < 100 { break }
            }
            final["sessionsStored"] = stored
            #expect(server.stop() == 0)
            return final
        }
        let clean = try await importAndRead(killing: false)
        let killed = try await importAndRead(killing: true)
        #expect(clean["state"] as? String == "done" && killed["state"] as? String == "done", "\(killed)")
        let cleanResult = clean["result"] as? [String: Any] ?? [:]
        let killedResult = killed["result"] as? [String: Any] ?? [:]
        #expect(cleanResult["imported"] as? Int == 600)
        #expect(killedResult["imported"] as? Int == 600 && killedResult["duplicates"] as? Int == 0, "\(killedResult)")
        #expect(killed["sessionsStored"] as? Int == 600 && clean["sessionsStored"] as? Int == 600, "\(killed["sessionsStored"] ?? "") after the kill")
    }

    /// The days' JSON with the workouts' ids left out (each server gives its own).
    static func withoutWorkoutIDs(_ data: Data) -> String {
        var object = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any]) ?? [:]
        object["days"] = (object["days"] as? [[String: Any]] ?? []).map { day -> [String: Any] in
            var day = day
            if var rise = day["rise"] as? [String: Any] {
                rise["workouts"] = (rise["workouts"] as? [[String: Any]] ?? []).map { $0.filter { $0.key != "id" } }
                day["rise"] = rise
            }
            return day
        }
        return String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }

    static func allDaysComputed(_ data: Data, count: Int) -> Bool {
        let days = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["days"] as? [[String: Any]] ?? []
        return days.count == count && days.allSatisfy { $0["hasData"] as? Bool == true }
    }

    /// `heartwork simulate gateway` speaks the protocol to a real server: its straps appear as
    /// sensors, every reading is acknowledged and stored, and it exits 0.
    @Test func theSimulatorStreamsAsAGateway() async throws {
        let directory = try TemporaryDirectory()
        let server = try Server(dataDirectory: directory.url.path)
        let (token, gatewayToken) = try await Self.coachWithGateway(on: server)
        let (simulator, output) = try Self.simulateGateway(port: server.port, token: gatewayToken, sensors: 3, minutes: 0.05, rate: 4)
        simulator.waitUntilExit()
        let summary = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(simulator.terminationStatus == 0, "\(summary)")
        #expect(summary.contains("3 straps") && summary.contains(" 0 not acknowledged"), "\(summary)")

        let listed = try await server.call("GET", "/api/sensors", token: token)
        let sensors = (try JSONSerialization.jsonObject(with: listed.data) as? [String: Any])?["sensors"] as? [[String: Any]] ?? []
        #expect(sensors.count == 3)
        #expect(sensors.allSatisfy { ($0["address"] as? String ?? "").hasPrefix("C0:DE:") && $0["lastSeenAt"] is String })
        let id = try #require(sensors.first?["id"] as? String)
        let heard = try await server.call("GET", "/api/sensors/\(id)/heart-rate", token: token)
        let readings = (try JSONSerialization.jsonObject(with: heard.data) as? [String: Any])?["readingCount"] as? Int ?? 0
        #expect(readings >= 8, "about 12 readings in 3 s at 4 Hz, less a short drop-out: \(readings)")
        // The user API refuses the gateway's token.
        #expect(try await server.call("GET", "/api/sensors", token: gatewayToken).status == 401)
        #expect(server.stop() == 0)
    }

    /// kill -9 of the server while a gateway streams: the simulator reconnects with backoff
    /// and resends what was not acknowledged, so in the end every reading it took is stored —
    /// which can only be if no acknowledged reading was lost (those are never resent).
    @Test func noAcknowledgedReadingIsLostToKill9() async throws {
        let directory = try TemporaryDirectory()
        let port = Self.freePort()
        let first = try Server(dataDirectory: directory.url.path, port: port)
        let (_, gatewayToken) = try await Self.coachWithGateway(on: first)
        let (simulator, output) = try Self.simulateGateway(port: port, token: gatewayToken, sensors: 4, minutes: 0.15, rate: 5)
        try await Task.sleep(for: .seconds(3))
        RawConnection.kill(first.process.processIdentifier)
        first.process.waitUntilExit()
        try await Task.sleep(for: .milliseconds(500))
        let second = try Server(dataDirectory: directory.url.path, port: port)
        simulator.waitUntilExit()
        let summary = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(simulator.terminationStatus == 0 && summary.contains(" 0 not acknowledged"), "\(summary)")
        let taken = Int(summary.split(separator: " ").dropFirst(2).first ?? "") ?? -1

        let again = try await second.signIn()
        let listed = try await second.call("GET", "/api/sensors", token: again)
        let sensors = (try JSONSerialization.jsonObject(with: listed.data) as? [String: Any])?["sensors"] as? [[String: Any]] ?? []
        var stored = 0
        for sensor in sensors {
            let heard = try await second.call("GET", "/api/sensors/\(sensor["id"] as? String ?? "")/heart-rate", token: again)
            stored += (try JSONSerialization.jsonObject(with: heard.data) as? [String: Any])?["readingCount"] as? Int ?? 0
        }
        #expect(sensors.count == 4)
        #expect(taken > 100 && stored == taken, "\(stored) stored of \(taken) taken: \(summary)")
        #expect(second.stop() == 0)
    }

    /// SIGTERM with live sockets open (issue 26): a gateway streaming (some frames still in
    /// flight) and a viewer watching. Both sockets are closed by the server (a close frame,
    /// 1000), the process exits 0 within a few seconds, and after a restart every reading that
    /// was acknowledged is stored.
    @Test func openLiveSocketsEndCleanlyOnSIGTERM() async throws {
        let directory = try TemporaryDirectory()
        let server = try Server(dataDirectory: directory.url.path)
        let (token, gatewayToken) = try await Self.coachWithGateway(on: server)
        let port = server.port
        let process = server.process
        let straps = ["F1:00:00:00:00:01", "F1:00:00:00:00:02", "F1:00:00:00:00:03"]
        let base = Int64(Date().timeIntervalSince1970 * 1000) - 120_000
        @Sendable func frame(_ strap: String, _ seq: Int) -> String {
            #"{"type":"readings","items":[{"sensor":"\#(strap)","seq":\#(seq),"at":\#(base + Int64(seq) * 1000),"hrm":"16480004","battery":80}]}"#
        }
        struct Outcome: Sendable {
            var acked: [String: Int] = [:]
            var viewerReadings = 0
            var gatewayClose: Int?
            var viewerClose: Int?
            var exitedWithin: Double?
        }
        let outcome = try await onThread { () throws -> Outcome in
            var outcome = Outcome()
            let viewer = try RawWebSocket(port: port, path: "/api/live/feed", headers: "Authorization: Bearer \(token)\r\n")
            guard case .text(let hello)? = viewer.next(within: 10), hello.contains("\"watching\"") else {
                throw HarnessFailure("the feed did not say what it watches")
            }
            let gateway = try RawWebSocket(port: port, path: "/api/live/gateway?token=\(gatewayToken)")
            func record(_ text: String) {
                guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any], object["type"] as? String == "ack",
                    let sensor = object["sensor"] as? String, let seq = object["seq"] as? Int
                else { return }
                outcome.acked[sensor] = max(outcome.acked[sensor] ?? 0, seq)
            }
            // Forty readings of each strap, one a frame, acknowledged; then twenty more sent
            // and SIGTERM at once, while they are on their way.
            for seq in 1...40 { for strap in straps { try gateway.sendText(frame(strap, seq)) } }
            let deadline = Date().addingTimeInterval(30)
            while straps.contains(where: { outcome.acked[$0] != 40 }), Date() < deadline {
                guard case .text(let text)? = gateway.next(within: deadline.timeIntervalSinceNow) else { break }
                record(text)
            }
            guard !straps.contains(where: { outcome.acked[$0] != 40 }) else { throw HarnessFailure("not acknowledged: \(outcome.acked)") }
            for seq in 41...60 { for strap in straps { try gateway.sendText(frame(strap, seq)) } }
            let signalled = Date()
            process.terminate()  // SIGTERM
            outcome.gatewayClose = gateway.readUntilClose(within: 20, text: record)
            outcome.viewerClose = viewer.readUntilClose(within: 20) { text in
                if text.contains("\"type\":\"reading\"") { outcome.viewerReadings += 1 }
            }
            while process.isRunning && Date().timeIntervalSince(signalled) < 20 { usleep(20_000) }
            if !process.isRunning { outcome.exitedWithin = Date().timeIntervalSince(signalled) }
            return outcome
        }
        if process.isRunning { server.kill() }
        #expect(
            outcome.gatewayClose == 1000 && outcome.viewerClose == 1000,
            "closes: gateway \(String(describing: outcome.gatewayClose)), viewer \(String(describing: outcome.viewerClose))")
        #expect((outcome.exitedWithin ?? 99) < 5, "exited after \(String(describing: outcome.exitedWithin)) s: \(server.logTail.withLock { $0 })")
        #expect(process.terminationStatus == 0)
        #expect(outcome.viewerReadings > 0, "the viewer saw the readings")

        let restarted = try Server(dataDirectory: directory.url.path)
        let again = try await restarted.signIn()
        let listed = try await restarted.call("GET", "/api/sensors", token: again)
        let sensors = (try JSONSerialization.jsonObject(with: listed.data) as? [String: Any])?["sensors"] as? [[String: Any]] ?? []
        #expect(sensors.count == 3)
        for sensor in sensors {
            let address = sensor["address"] as? String ?? ""
            let heard = try await restarted.call("GET", "/api/sensors/\(sensor["id"] as? String ?? "")/heart-rate", token: again)
            let stored = (try JSONSerialization.jsonObject(with: heard.data) as? [String: Any])?["readingCount"] as? Int ?? 0
            let acked = outcome.acked[address] ?? 0
            // Sent in order, acknowledged cumulatively: every reading up to the ack is there.
            #expect(acked >= 40 && stored >= acked && stored <= 60, "\(address): \(stored) stored, acknowledged up to \(acked)")
        }
        #expect(restarted.stop() == 0)
    }

    /// A registered user ("stopper") and a gateway of theirs: the user's and the gateway's tokens.
    static func coachWithGateway(on server: Server) async throws -> (user: String, gateway: String) {
        let registration = Data(#"{"username":"stopper","fullName":"Coach","email":"c@example.org","password":"12345678"}"#.utf8)
        #expect(try await server.call("POST", "/api/auth/register", body: registration).status == 201)
        let token = try await server.signIn()
        let created = try await server.call("POST", "/api/gateways", token: token, body: Data(#"{"name":"Simulator"}"#.utf8))
        return (token, try #require((try JSONSerialization.jsonObject(with: created.data) as? [String: Any])?["token"] as? String))
    }

    /// A gateway whose token is wrong or revoked stops at once with a clear message (PROTOCOL
    /// §5: never reconnect after 401); it retried for ever.
    @Test func theSimulatorStopsOnAWrongToken() async throws {
        let directory = try TemporaryDirectory()
        let server = try Server(dataDirectory: directory.url.path)
        defer { _ = server.stop() }
        let simulator = Process()
        simulator.executableURL = try ExecutableTests.executable()
        simulator.arguments = ["simulate", "gateway", "--server", "http://127.0.0.1:\(server.port)", "--token", "hwg_not-a-token", "--sensors", "1", "--minutes", "1"]
        let errors = Pipe()
        simulator.standardOutput = FileHandle.nullDevice
        simulator.standardError = errors
        try simulator.run()
        let deadline = Date().addingTimeInterval(30)
        while simulator.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        if simulator.isRunning { simulator.terminate() }
        simulator.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(simulator.terminationStatus != 0)
        #expect(message.contains("the token is wrong, or the gateway was revoked (401)"), "\(message)")
    }

    /// `heartwork simulate gateway` as a process; its summary goes to the pipe.
    static func simulateGateway(port: Int, token: String, sensors: Int, minutes: Double, rate: Double) throws -> (Process, Pipe) {
        let simulator = Process()
        simulator.executableURL = try ExecutableTests.executable()
        simulator.arguments = [
            "simulate", "gateway", "--server", "http://127.0.0.1:\(port)", "--token", token,
            "--sensors", String(sensors), "--minutes", String(minutes), "--rate", String(rate),
        ]
        let output = Pipe()
        simulator.standardOutput = output
        simulator.standardError = FileHandle.nullDevice
        try simulator.run()
        return (simulator, output)
    }

    static func freePort() -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The binary needs nothing beside itself: templates, styles, scripts and the API
    /// description are inside it. Copied alone into an empty directory and started from
    /// another one, it serves pages.
    @Test func aRelocatedBinaryServesPagesFromItsOwnFile() async throws {
        let home = try TemporaryDirectory()
        let bin = home.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let copy = bin.appendingPathComponent("heartwork")
        try FileManager.default.copyItem(at: try ExecutableTests.executable(), to: copy)
        #expect(try FileManager.default.contentsOfDirectory(atPath: bin.path) == ["heartwork"])
        // No SwiftPM resource bundle is looked up at all (a debug build would otherwise still
        // find one through its absolute build path, and hide the problem on this machine).
        let binary = try Data(contentsOf: copy)
        #expect(binary.range(of: Data(".resources".utf8)) == nil, "the binary refers to a resource bundle")
        let elsewhere = home.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let server = try Server(dataDirectory: home.url.appendingPathComponent("data").path, executable: copy, workingDirectory: elsewhere)
        let login = try await server.exchange("GET", "/login")
        #expect(login.status == 200 && login.contentType.hasPrefix("text/html"))
        #expect(String(decoding: login.data, as: UTF8.self).contains("name=\"password\""))
        let style = try await server.exchange("GET", "/static/app.css")
        #expect(style.status == 200 && style.contentType.hasPrefix("text/css") && style.data.count > 1000)
        let document = try await server.exchange("GET", "/openapi.json")
        let description = try JSONSerialization.jsonObject(with: document.data) as? [String: Any]
        #expect(document.status == 200 && description?["openapi"] as? String == "3.1.0")
        #expect(server.stop() == 0)
    }

    /// A connection that sends nothing, or trickles its request head, is closed; so is one that
    /// goes quiet between requests. The server keeps answering others meanwhile.
    @Test func idleAndSlowConnectionsAreClosed() async throws {
        let directory = try TemporaryDirectory()
        let server = try Server(dataDirectory: directory.url.path, options: ["--request-head-timeout", "1", "--idle-timeout", "2"])
        defer { _ = server.stop() }
        let silent = try RawConnection(port: server.port)
        let trickling = try RawConnection(port: server.port)
        try trickling.send("GET /healthz HTTP/1.1\r\nHo")
        let start = Date()
        for _ in 0..<6 {
            try? trickling.send("s")
            try await Task.sleep(for: .milliseconds(300))
        }
        #expect(silent.isClosed(within: 2))
        #expect(trickling.isClosed(within: 2))
        #expect(Date().timeIntervalSince(start) < 5)
        // A connection that made a request and then stays quiet is closed after the idle timeout.
        let quiet = try RawConnection(port: server.port)
        try quiet.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(quiet.receive(within: 2).contains("200 OK"))
        #expect(!quiet.isClosed(within: 0.5))
        #expect(quiet.isClosed(within: 4))
        #expect(try await server.call("GET", "/healthz").status == 200)
    }

    /// With the connection cap reached, a further client waits (it is not refused, and the
    /// server does not fall over) and is served as soon as a slot frees.
    @Test func theConnectionCapMakesFurtherClientsWait() async throws {
        let directory = try TemporaryDirectory()
        let server = try Server(dataDirectory: directory.url.path, options: ["--max-connections", "3", "--request-head-timeout", "3"])
        defer { _ = server.stop() }
        let held = try (0..<3).map { _ in try RawConnection(port: server.port) }
        try await Task.sleep(for: .milliseconds(200))
        let waiting = try RawConnection(port: server.port)
        try waiting.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(waiting.receive(within: 1).isEmpty, "served beyond the cap")
        // The held connections time out (they never send a head), and the waiting one is served.
        #expect(waiting.receive(within: 5).contains("200 OK"))
        _ = held
    }

    /// Killed outright while uploads stream in, the server loses no upload it acknowledged.
    @Test func nothingAcknowledgedIsLostToKill9() async throws {
        let directory = try TemporaryDirectory()
        let server = try Server(dataDirectory: directory.url.path)
        let registration = Data(#"{"username":"stopper","fullName":"Stop Per","email":"s@example.org","password":"12345678"}"#.utf8)
        #expect(try await server.call("POST", "/api/auth/register", body: registration).status == 201)
        let token = try await server.signIn()
        let acknowledged = Acknowledged()
        let uploads = Task {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<400 {
                    group.addTask {
                        let start = String(format: "2026-09-%02dT%02d:%02d:00Z", 1 + index / 24 / 2, index / 2 % 24, (index % 2) * 30)
                        if let reply = try? await server.call("POST", "/api/workouts", token: token, body: Self.shortWorkout(start: start)), reply.status == 201 {
                            acknowledged.list.withLock { $0.append(start) }
                        }
                    }
                    if index % 8 == 7 { await group.waitForAll() }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(1500))
        RawConnection.kill(server.process.processIdentifier)
        server.process.waitUntilExit()
        _ = await uploads.value
        let acked = acknowledged.list.withLock { $0 }
        #expect(!acked.isEmpty, "nothing was acknowledged before the kill")
        let restarted = try Server(dataDirectory: directory.url.path)
        let again = try await restarted.signIn()
        var stored = Set<String>()
        for offset in stride(from: 0, to: 500, by: 100) {
            stored.formUnion(Self.startTimes(try await restarted.call("GET", "/api/workouts?limit=100&offset=\(offset)", token: again).data))
        }
        let lost = Set(acked).subtracting(stored)
        #expect(lost.isEmpty, "\(lost.count) of \(acked.count) acknowledged uploads were lost")
        #expect(restarted.stop() == 0)
    }

    final class Acknowledged: Sendable {
        let list = Mutex<[String]>([])
    }

    static func shortWorkout(start: String) -> Data {
        let heartRate = (0..<600).map { String(120 + $0 % 40) }.joined(separator: ",")
        return Data("{\"sport\":\"running\",\"startTime\":\"\(start)\",\"heartRate\":[\(heartRate)]}".utf8)
    }
}

/// A WebSocket client over a plain socket, blocking (run it on a thread of its own,
/// `onThread`): the upgrade, masked text frames out, frames in, and the close handshake a
/// client owes the server.
final class RawWebSocket: @unchecked Sendable {
    enum Frame: Equatable {
        case text(String)
        case close(code: Int?, reason: String)
        case other(opcode: UInt8)
    }

    private let connection: RawConnection
    private var buffer: [UInt8] = []

    init(port: Int, path: String, headers: String = "") throws {
        connection = try RawConnection(port: port)
        try send(
            Array(
                ("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\(headers)\r\n").utf8))
        let deadline = Date().addingTimeInterval(10)
        var headEnd: Int?
        while headEnd == nil {
            headEnd = (0..<max(0, buffer.count - 3)).first { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }
            if headEnd == nil, !fill(until: deadline) { throw ServeTests.HarnessFailure("no answer to the upgrade") }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 101") else { throw ServeTests.HarnessFailure("upgrade refused: \(head)") }
        buffer.removeFirst(headEnd! + 4)
    }

    func sendText(_ text: String) throws { try sendFrame(opcode: 0x1, Array(text.utf8)) }

    func sendFrame(opcode: UInt8, _ payload: [UInt8]) throws {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65536 {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try send(frame)
    }

    /// The next frame within `seconds`; nil when none came or the connection ended.
    func next(within seconds: Double) -> Frame? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let frame = parse() { return frame }
            guard fill(until: deadline) else { return nil }
        }
    }

    /// Reads until the server's close frame, answering it with a close (as a client must) and
    /// passing text frames on: the close's code, or nil when none came within `seconds`.
    func readUntilClose(within seconds: Double, text: (String) -> Void) -> Int? {
        let deadline = Date().addingTimeInterval(seconds)
        while let frame = next(within: deadline.timeIntervalSinceNow) {
            switch frame {
            case .text(let received): text(received)
            case .close(let code, _):
                try? sendFrame(opcode: 0x8, code.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? [])
                return code
            case .other: continue
            }
        }
        return nil
    }

    private func send(_ bytes: [UInt8]) throws { try connection.send(bytes: bytes) }

    /// More bytes from the socket; false on timeout or when the connection ended.
    private func fill(until deadline: Date) -> Bool {
        guard let chunk = connection.receiveBytes(until: deadline) else { return false }
        buffer += chunk
        return true
    }

    /// One whole frame from the buffer (the server's frames are not masked).
    private func parse() -> Frame? {
        guard buffer.count >= 2 else { return nil }
        let opcode = buffer[0] & 0x0F
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard buffer.count >= offset + length else { return nil }
        let payload = Array(buffer[offset..<(offset + length)])
        buffer.removeFirst(offset + length)
        switch opcode {
        case 0x1: return .text(String(decoding: payload, as: UTF8.self))
        case 0x8:
            let code = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
            return .close(code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
        default: return .other(opcode: opcode)
        }
    }
}
