import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import Testing

@testable import HeartworkServer

/// Every route, called without credentials, with a bad token, with an expired token and
/// with another user's token on a victim's resources: always 401 or 404, never the victim's data.
@Suite("Authorization")
struct AuthorizationTests {
    /// Routes anyone may call; they hold no personal data.
    static let publicRoutes: Set<String> = [
        "GET /", "GET /signup", "POST /signup", "GET /login", "POST /login", "POST /logout",
        "GET /healthz", "GET /metrics", "GET /openapi.json", "GET /static/{file}", "GET /static/exercises/{file}",
        "GET /manifest.webmanifest", "GET /sw.js",
        "POST /api/auth/register", "POST /api/auth/login",
        "GET /strength/goals",  // issue 25: what the goals mean, linked from sign-up
    ]

    struct Victim {
        let id: String
        let token: String
        let privateWorkout: String
        let sharedWorkout: String
        let requestToVictim: String
        let weight: String
        let gateway: String
        let sensor: String
        let team: String
        let player: String
        let session: String
        let match: String
        let notification: String
        let healthImport: String
        let recording: String
        /// Strings that must never reach anyone else.
        let secrets: [String]
    }

    func prepareVictim(_ server: ServerHarness) async throws -> Victim {
        let (victimID, victim) = try await server.signUp("victim")
        try await server.completeProfile(victim)
        try await server.request(.patch, "/api/me", token: victim, json: ["status": "victim-private-status", "heightMeters": 1.93])
        let weight = try await server.request(.post, "/api/me/weights", token: victim, json: ["kilograms": 77.7])
        let png = TestImages.png(text: "victim-photo-bytes-0123456789")
        try await server.request(.put, "/api/me/photo", token: victim, raw: png, contentType: "image/png")
        let privateWorkout = try await server.upload(victim)
        let sharedWorkout = try await server.upload(victim)
        try await server.request(.put, "/api/workouts/\(sharedWorkout)/share", token: victim)
        let (_, suitor) = try await server.signUp("suitor")
        let request = try await server.request(.post, "/api/friend-requests", token: suitor, json: ["userID": victimID])
        let (friendID, friend) = try await server.signUp("victimsfriend")
        let befriend = try await server.request(.post, "/api/friend-requests", token: friend, json: ["userID": victimID])
        try await server.request(.post, "/api/friend-requests/\(befriend.json["id"] as? String ?? "")/accept", token: victim)
        _ = friendID
        // A friend challenges the victim: a match and a notification of the victim's.
        try await server.completeProfile(friend)
        let match = try #require(try await server.request(.post, "/api/matches", token: friend, json: ["opponent": victimID, "minutes": 5]).json["id"] as? String)
        let notification = try #require((try await server.request(.get, "/api/notifications", token: victim).json["notifications"] as? [[String: Any]])?.first?["id"] as? String)
        let gateway = try await server.request(.post, "/api/gateways", token: victim, json: ["name": "victim-gateway-name"])
        // A strap the victim's gateway heard, a team, a player wearing it and a session.
        let gatewayToken = try #require(gateway.json["token"] as? String)
        let gatewayRecord = try #require(try await server.services.gateways.authenticate(token: gatewayToken))
        _ = try await server.services.live.ingest(
            [
                GatewayReading(
                    sensor: "victim-strap-address", sequence: 1, atMilliseconds: Int(Date().timeIntervalSince1970 * 1000),
                    measurement: HeartRateMeasurement(beatsPerMinute: 77, sensorContact: .detected))
            ], from: gatewayRecord)
        let sensor = try #require((try await server.request(.get, "/api/sensors", token: victim).json["sensors"] as? [[String: Any]])?.first?["id"] as? String)
        let team = try #require(try await server.request(.post, "/api/teams", token: victim, json: ["name": "victim-team-name"]).json["id"] as? String)
        let player = try #require(
            try await server.request(
                .post, "/api/players", token: victim,
                json: [
                    "name": "victim-player-name", "teamID": team, "sensorID": sensor, "restingHeartRate": 50, "maximumHeartRate": 190,
                ]
            ).json["id"] as? String)
        let session = try #require(try await server.request(.post, "/api/teams/\(team)/sessions", token: victim, json: [:]).json["id"] as? String)
        // A day of watch data, imported.
        let export = Data(HealthExportFixture.xml(days: [CalendarDay(Date()).description]).utf8)
        let healthImport = try #require(
            try await server.request(.post, "/api/imports/apple-health", token: victim, raw: export, contentType: "application/xml").json["id"] as? String)
        await server.services.jobs.runUntilIdle()
        // A live recording under way, with a chunk.
        let recording = UUID().uuidString.lowercased()
        let recordingStart = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 600).rounded(.down))
        let startBody: [String: Any] = ["sport": "running", "startedAt": recordingStart.formatted(.iso8601)]
        try await server.request(.put, "/api/recordings/\(recording)", token: victim, json: startBody)
        let sample: [String: Any] = ["at": Int64(recordingStart.timeIntervalSince1970 * 1000), "bpm": 101]
        let chunkBody: [String: Any] = ["samples": [sample]]
        try await server.request(.put, "/api/recordings/\(recording)/chunks/0", token: victim, json: chunkBody)
        return Victim(
            id: victimID, token: victim, privateWorkout: privateWorkout, sharedWorkout: sharedWorkout,
            requestToVictim: try #require(request.json["id"] as? String), weight: try #require(weight.json["id"] as? String),
            gateway: try #require(gateway.json["id"] as? String), sensor: sensor, team: team, player: player, session: session,
            match: match, notification: notification, healthImport: healthImport, recording: recording,
            secrets: [
                "victim-strap-address", "victim-team-name", "victim-player-name", "victim@example.org", "victim-private-status", "77.7", "1.93", "victim-photo-bytes",
                privateWorkout, sharedWorkout,
                "victim-gateway-name", try #require(gateway.json["token"] as? String),
            ])
    }

    /// The route's path with each parameter pointing at the victim's things.
    private func concrete(_ path: String, _ victim: Victim, workout: String) -> String {
        let path = path.replacingOccurrences(of: "{recordingID}", with: victim.recording).replacingOccurrences(of: "{n}", with: "0")
        return path.replacingOccurrences(of: "{userID}", with: victim.id)
            .replacingOccurrences(of: "{workoutID}", with: workout)
            .replacingOccurrences(of: "{requestID}", with: victim.requestToVictim)
            .replacingOccurrences(of: "{measurementID}", with: victim.weight)
            .replacingOccurrences(of: "{gatewayID}", with: victim.gateway)
            .replacingOccurrences(of: "{sensorID}", with: victim.sensor)
            .replacingOccurrences(of: "{teamID}", with: victim.team)
            .replacingOccurrences(of: "{playerID}", with: victim.player)
            .replacingOccurrences(of: "{sessionID}", with: victim.session)
            .replacingOccurrences(of: "{matchID}", with: victim.match)
            .replacingOccurrences(of: "{notificationID}", with: victim.notification)
            .replacingOccurrences(of: "{importID}", with: victim.healthImport)
            .replacingOccurrences(of: "{date}", with: CalendarDay(Date()).description)
            .replacingOccurrences(of: "{answer}", with: "accept")
            .replacingOccurrences(of: "{action}", with: "share")
            .replacingOccurrences(of: "{file}", with: "app.css")
    }

    @Test(arguments: TestDatabase.all)
    func everyRouteRefusesStrangers(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let victim = try await prepareVictim(server)
            let (_, attacker) = try await server.signUp("attacker")
            let attackerWeb = try await server.webSession("attacker")
            // An expired session of the victim's, stored as the server would have stored it.
            let expired = SessionToken.generate()
            try await server.store.sessions.create(
                SessionRecord(
                    tokenHash: SessionToken.hash(expired), userID: victim.id, kind: .api, csrfToken: nil,
                    createdAt: Date().addingTimeInterval(-40 * 86_400), expiresAt: Date().addingTimeInterval(-10 * 86_400)))

            let routes = server.router().routes
                .map { (method: $0.method, path: OpenAPIPaths.template(for: $0.path.description)) }
            #expect(routes.count > 40)
            var checked = 0
            for route in routes where !Self.publicRoutes.contains("\(route.method.rawValue) \(route.path)") {
                for workout in [victim.privateWorkout, victim.sharedWorkout] {
                    let uri = concrete(route.path, victim, workout: workout)
                    let isAPI = uri.hasPrefix("/api/")
                    let body: [String: Any]? = [.post, .put, .patch].contains(route.method) && isAPI ? [:] : nil
                    for token in [nil, "hw_not-a-real-token", expired] as [String?] {
                        let reply = try await server.request(route.method, uri, token: token, json: body)
                        #expect(reply.status == .unauthorized, "\(route.method) \(uri) with \(token == nil ? "no" : "a bad or expired") token answered \(reply.status)")
                        assertNoLeak(reply, victim, uri: uri, "\(route.method) \(uri)")
                    }
                    // Another user's credentials: the API with a bearer token, pages with a cookie and CSRF token.
                    let reply: ServerHarness.Reply
                    if isAPI {
                        reply = try await server.request(route.method, uri, token: attacker, json: body)
                    } else {
                        var headers = HTTPFields()
                        headers[.cookie] = attackerWeb.cookie
                        headers[SessionCookie.csrfHeader] = attackerWeb.csrf
                        reply = try await server.request(route.method, uri, headers: headers)
                    }
                    let touchesVictim = [
                        "{userID}", "{workoutID}", "{requestID}", "{measurementID}", "{gatewayID}", "{sensorID}", "{teamID}", "{playerID}", "{sessionID}", "{matchID}",
                        "{notificationID}", "{importID}", "{recordingID}",
                    ].contains { route.path.contains($0) }
                    if touchesVictim {
                        #expect(
                            reply.status == .notFound || reply.status == .unauthorized,
                            "\(route.method) \(uri) with another user's credentials answered \(reply.status)")
                    }
                    assertNoLeak(reply, victim, uri: uri, "\(route.method) \(uri) as another user")
                    checked += 1
                }
            }
            #expect(checked >= 80)
            // Nothing the stranger did changed the victim's things.
            let mine = try await server.request(.get, "/api/workouts", token: victim.token)
            #expect((mine.json["workouts"] as? [Any])?.count == 3, "two uploaded, one imported from Apple Health")
            #expect((try await server.request(.get, "/api/friend-requests/incoming", token: victim.token).json["requests"] as? [Any])?.count == 1)
            #expect((try await server.request(.get, "/api/me/weights", token: victim.token).json["entries"] as? [Any])?.count == 2)
            let gateway = try await server.request(.get, "/api/gateways/\(victim.gateway)", token: victim.token).json
            #expect(gateway["name"] as? String == "victim-gateway-name")
            let team = try await server.request(.get, "/api/teams/\(victim.team)", token: victim.token).json
            #expect(team["name"] as? String == "victim-team-name" && (team["players"] as? [[String: Any]])?.first?["sensorID"] as? String == victim.sensor)
            let session = try await server.request(.get, "/api/team-sessions/\(victim.session)", token: victim.token).json
            #expect(session["state"] as? String == "recording" && session["reviewed"] as? Bool == false)
            let match = try await server.request(.get, "/api/matches/\(victim.match)", token: victim.token).json
            #expect(match["state"] as? String == "invited", "nobody else answered the victim's invitation")
            #expect(
                (try await server.request(.get, "/api/notifications", token: victim.token).json["notifications"] as? [[String: Any]])?
                    .first { $0["id"] as? String == victim.notification }?["read"] as? Bool == false)
            let day = try await server.request(.get, "/api/days/\(CalendarDay(Date()))", token: victim.token).json
            #expect(day["hasData"] as? Bool == true && day["steps"] as? Int == 3000 && day["mark"] == nil, "nobody else marked or changed the victim's day")
            #expect((day["sleep"] as? [String: Any])?["qualitySource"] as? String == "estimated", "nobody else rated the victim's night")
            let sensor = try await server.request(.get, "/api/sensors/\(victim.sensor)", token: victim.token).json
            #expect(sensor["name"] == nil, "the sensor keeps no name a stranger gave it")
            #expect(
                try await server.request(.get, "/api/workouts/\(victim.privateWorkout)", token: victim.token).json["summary"].map { ($0 as? [String: Any])?["shared"] as? Bool }
                    == false)
        }
    }

    @Test func cookieSessionsNeedTheCSRFTokenToChangeAnything() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("cookie")
            let id = try await server.upload(token)
            let web = try await server.webSession("cookie")
            var withoutToken = HTTPFields()
            withoutToken[.cookie] = web.cookie
            #expect(try await server.request(.delete, "/api/workouts/\(id)", headers: withoutToken).status == .forbidden)
            var form = withoutToken
            form[.contentType] = "application/x-www-form-urlencoded"
            #expect(try await server.request(.post, "/workouts/\(id)/delete", raw: Data("_csrf=wrong".utf8), headers: form).status == .forbidden)
            #expect(try await server.request(.get, "/api/workouts/\(id)", headers: withoutToken).status == .ok)
            #expect(try await server.request(.post, "/workouts/\(id)/delete", raw: Data("_csrf=\(web.csrf)".utf8), headers: form).status == .seeOther)
            #expect(try await server.request(.get, "/api/workouts/\(id)", token: token).status == .notFound)
            // An API token is not a cookie, and a cookie is not a bearer token.
            var tokenAsCookie = HTTPFields()
            tokenAsCookie[.cookie] = "hw_session=\(token)"
            #expect(try await server.request(.get, "/profile", headers: tokenAsCookie).status == .unauthorized)
            let cookieValue = String(web.cookie.dropFirst("hw_session=".count))
            #expect(try await server.request(.get, "/api/me", token: cookieValue).status == .unauthorized)
        }
    }

    private func assertNoLeak(_ reply: ServerHarness.Reply, _ victim: Victim, uri: String, _ what: String) {
        let text = reply.text
        // An id the caller put in the URL may come back (the sign-in form keeps where to go next);
        // anything else of the victim's may not.
        for secret in victim.secrets where text.contains(secret) && !uri.contains(secret) {
            Issue.record("\(what) leaked '\(secret)' (status \(reply.status))")
        }
    }
}
