import Foundation
import HeartworkApp
import HeartworkServer
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing

/// Starts the real application in process (Hummingbird's router test client, no sockets)
/// on a fresh database, and offers the calls tests make again and again.
struct ServerHarness {
    let client: any TestClientProtocol
    let services: HeartworkServices
    let configuration: ServerConfiguration
    let edge: HeartworkApplication.Edge
    var store: HeartworkStore { services.store }

    static func run(
        _ engine: TestDatabase = .sqlite, setup: TestingSetup = .router, adjusting adjust: @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (ServerHarness) async throws -> Void
    ) async throws {
        try await engine.withStore { store in
            var adjusted = ServerConfiguration(port: 0, dataDirectory: NSTemporaryDirectory(), passwordHashCost: 4)
            // See LiveGatewayTests.run: a saturated test machine may not schedule a client for 30 s.
            adjusted.webSocketPingPeriod = .seconds(300)
            adjust(&adjusted)
            let configuration = adjusted
            let services = try await HeartworkServices(store: store, settings: configuration.serviceSettings, logger: TestDatabase.logger)
            let edge = try HeartworkApplication.Edge(metrics: ServerMetrics())
            let application = HeartworkApplication.build(configuration: configuration, services: services, edge: edge, logger: TestDatabase.logger)
            try await application.test(setup) { client in
                try await body(ServerHarness(client: client, services: services, configuration: configuration, edge: edge))
            }
        }
    }

    /// The HTTP router as the application builds it (for walking its routes).
    func router() -> Router<AppRequestContext> {
        HeartworkApplication.buildRouter(configuration: configuration, services: services, edge: edge)
    }

    // MARK: Requests

    struct Reply {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var problemField: String? { json["field"] as? String }
    }

    @discardableResult
    func request(
        _ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json: Any? = nil, raw: Data? = nil,
        headers extra: HTTPFields = [:], contentType: String? = nil
    ) async throws -> Reply {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(data: try JSONSerialization.data(withJSONObject: json))
            headers[.contentType] = "application/json"
        } else if let raw {
            body = ByteBuffer(data: raw)
            if let contentType { headers[.contentType] = contentType }
        }
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
        let reply = Reply(status: response.status, headers: response.headers, body: Data(buffer: response.body))
        // Every answer is held to the API description: a documented status, a body that fits the schema.
        for violation in OpenAPIContract.shared.violations(
            method: method.rawValue, uri: uri, status: Int(reply.status.code), contentType: reply.headers[.contentType], body: reply.body)
        {
            Issue.record("OpenAPI contract: \(violation)")
        }
        return reply
    }

    /// Imports a Strong or Hevy export as a client would: posts it, and when the import is
    /// queued (202: no job runner works in the test process) runs the queue and reads the
    /// import's status — answering what `POST /api/strength/import` answers when the import is
    /// done within its wait: 200 with the summary, or 422 with why it failed.
    func importStrength(_ token: String, _ text: String, contentType: String = "text/csv") async throws -> Reply {
        let posted = try await request(.post, "/api/strength/import", token: token, raw: Data(text.utf8), contentType: contentType)
        guard posted.status == .accepted, let id = posted.json["id"] as? String else { return posted }
        #expect(posted.headers[.location] == "/api/strength/imports/\(id)")
        await services.jobs.runUntilIdle()
        let status = try await request(.get, "/api/strength/imports/\(id)", token: token)
        switch status.json["state"] as? String {
        case "done":
            let result = try JSONSerialization.data(withJSONObject: status.json["result"] ?? [:])
            return Reply(status: .ok, headers: status.headers, body: result)
        case "failed":
            let problem = try JSONSerialization.data(withJSONObject: ["detail": status.json["error"] ?? "", "status": 422])
            return Reply(status: .unprocessableContent, headers: status.headers, body: problem)
        default:
            throw HarnessError("the import is still \(status.json["state"] ?? "?") after the queue ran: \(status.text)")
        }
    }

    /// Registers and signs in; returns the user id and an API token.
    func signUp(_ username: String, password: String = "correct horse 1") async throws -> (id: String, token: String) {
        let registered = try await request(
            .post, "/api/auth/register",
            json: [
                "username": username, "fullName": "\(username.capitalized) Tester", "email": "\(username)@example.org", "password": password,
            ])
        guard registered.status == .created, let id = registered.json["id"] as? String else {
            throw HarnessError("registration of \(username) failed: \(registered.status) \(registered.text)")
        }
        return (id, try await logIn(username, password: password))
    }

    func logIn(_ username: String, password: String = "correct horse 1") async throws -> String {
        let reply = try await request(.post, "/api/auth/login", json: ["username": username, "password": password])
        guard reply.status == .ok, let token = reply.json["token"] as? String else {
            throw HarnessError("login of \(username) failed: \(reply.status) \(reply.text)")
        }
        return token
    }

    /// Signs in through the web form; returns the session cookie and its CSRF token.
    func webSession(_ username: String, password: String = "correct horse 1") async throws -> (cookie: String, csrf: String) {
        var headers = HTTPFields()
        headers[.contentType] = "application/x-www-form-urlencoded"
        let reply = try await request(.post, "/login", raw: Data("username=\(username)&password=\(password.replacingOccurrences(of: " ", with: "+"))".utf8), headers: headers)
        guard reply.status == .seeOther, let setCookie = reply.headers[.setCookie],
            let cookie = setCookie.split(separator: ";").first.map(String.init)
        else {
            throw HarnessError("web sign-in of \(username) failed: \(reply.status)")
        }
        var cookieHeaders = HTTPFields()
        cookieHeaders[.cookie] = cookie
        let page = try await request(.get, "/settings", headers: cookieHeaders)
        guard let range = page.text.range(of: "name=\"csrf-token\" content=\""),
            let end = page.text[range.upperBound...].firstIndex(of: "\"")
        else { throw HarnessError("no CSRF token on the page") }
        return (cookie, String(page.text[range.upperBound..<end]))
    }

    /// Sets what zones and calories need.
    func completeProfile(_ token: String) async throws {
        try await request(.patch, "/api/me", token: token, json: ["dateOfBirth": "1992-02-22", "sex": "male"])
        try await request(.post, "/api/me/resting-heart-rates", token: token, json: ["bpm": 65, "measuredAt": "2026-01-01T00:00:00Z"])
        try await request(.post, "/api/me/weights", token: token, json: ["kilograms": 70, "measuredAt": "2026-01-01T00:00:00Z"])
    }

    static func workoutJSON(seconds: Int = 600, bpm: Int = 150, start: String = "2026-11-20T07:00:00Z", track: Bool = true, rr: Bool = true) -> [String: Any] {
        var body: [String: Any] = [
            "sport": "running", "startTime": start, "indoor": !track,
            "heartRate": (0..<seconds).map { $0 == 5 ? NSNull() : (bpm + ($0 % 10)) as Any },
        ]
        if rr { body["rrIntervals"] = (0..<(seconds * 2)).map { _ in 400.0 } }
        if track {
            body["track"] = (0..<(seconds / 2)).map { index in
                ["lat": 48.2 + Double(index) * 0.00003, "lon": 16.37, "ele": 180.0, "t": Double(index * 2)]
            }
        }
        return body
    }

    /// Uploads per token so far: the default workouts of one user start a minute apart (the
    /// first at 07:00:00Z), as the server takes the same start twice for the same activity.
    static let uploadsByToken = Mutex<[String: Int]>([:])

    func upload(_ token: String, _ body: [String: Any]? = nil) async throws -> String {
        let count = Self.uploadsByToken.withLock { uploads in
            defer { uploads[token, default: 0] += 1 }
            return uploads[token, default: 0]
        }
        let body = body ?? ServerHarness.workoutJSON(start: String(format: "2026-11-20T%02d:%02d:00Z", 7 + count / 60, count % 60))
        let reply = try await request(.post, "/api/workouts", token: token, json: body)
        guard reply.status == .created, let summary = reply.json["summary"] as? [String: Any], let id = summary["id"] as? String else {
            throw HarnessError("upload failed: \(reply.status) \(reply.text)")
        }
        return id
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
