import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HeartworkTestSupport

/// `heartwork serve` as a process: it starts, answers, and on SIGTERM stops cleanly without
/// losing anything it acknowledged.
@Suite("heartwork serve", .serialized)
struct ServeTests {
    final class Server: @unchecked Sendable {
        let process = Process()
        let errors = Pipe()
        private(set) var port = 0

        init(dataDirectory: String, executable: URL? = nil, workingDirectory: URL? = nil) throws {
            process.executableURL = try executable ?? ExecutableTests.executable()
            process.arguments = ["serve", "--port", "0", "--data-dir", dataDirectory]
            if let workingDirectory { process.currentDirectoryURL = workingDirectory }
            var environment = ProcessInfo.processInfo.environment
            environment["HEARTWORK_BCRYPT_COST"] = "4"
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
        }

        func stop() -> Int32 {
            process.terminate()  // SIGTERM
            process.waitUntilExit()
            return process.terminationStatus
        }

        func call(_ method: String, _ path: String, token: String? = nil, body: Data? = nil) async throws -> (status: Int, data: Data) {
            let (status, data, _) = try await exchange(method, path, token: token, body: body)
            return (status, data)
        }

        func exchange(_ method: String, _ path: String, token: String? = nil, body: Data? = nil) async throws -> (status: Int, data: Data, contentType: String) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = method
            request.timeoutInterval = 60
            if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
            if let body {
                request.httpBody = body
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
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
            let lat = 48.2 + Double(index) * 1e-5, lon = 16.37 + Double(index % 100) * 1e-5
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
}
