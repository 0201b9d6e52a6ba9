import Foundation
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import Testing

@Suite("Accounts and profile API")
struct AccountAPITests {
    @Test func registrationRules() async throws {
        try await ServerHarness.run { server in
            let valid: [String: Any] = ["username": "Ada", "fullName": "Ada Lovelace", "email": "ada@example.org", "password": "12345678"]
            let created = try await server.request(.post, "/api/auth/register", json: valid)
            #expect(created.status == .created)
            #expect(created.json["username"] as? String == "Ada")
            #expect(created.json["passwordHash"] == nil && !created.text.contains("$2b$"))
            var duplicate = valid
            duplicate["username"] = "aDA"
            let conflict = try await server.request(.post, "/api/auth/register", json: duplicate)
            #expect(conflict.status == .conflict && conflict.problemField == "username")
            #expect(conflict.headers[.contentType] == "application/problem+json")
            for (field, value, expected) in [("email", "not-an-email", "email"), ("password", "short", "password"), ("username", "a b", "username")] {
                var body = valid
                body["username"] = "new\(field)"
                body[field] = value
                let reply = try await server.request(.post, "/api/auth/register", json: body)
                #expect(reply.status == .unprocessableContent, "\(field)")
                #expect(reply.problemField == expected)
            }
        }
    }

    @Test func signInSignOutAndThrottling() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("bob")
            #expect(try await server.request(.get, "/api/me", token: token).status == .ok)
            #expect(try await server.request(.post, "/api/auth/login", json: ["username": "BOB", "password": "correct horse 1"]).status == .ok)
            let wrong = try await server.request(.post, "/api/auth/login", json: ["username": "bob", "password": "nope nope"])
            #expect(wrong.status == .unauthorized)
            for _ in 0..<4 { try await server.request(.post, "/api/auth/login", json: ["username": "bob", "password": "nope nope"]) }
            let throttled = try await server.request(.post, "/api/auth/login", json: ["username": "bob", "password": "correct horse 1"])
            #expect(throttled.status == .tooManyRequests)
            #expect(try await server.request(.post, "/api/auth/logout", token: token).status == .noContent)
            #expect(try await server.request(.get, "/api/me", token: token).status == .unauthorized)
        }
    }

    @Test func changingThePasswordEndsOtherSessions() async throws {
        try await ServerHarness.run { server in
            let (_, first) = try await server.signUp("carol")
            let second = try await server.logIn("carol")
            // Used once, so the server has it cached: the change must still end it at once.
            #expect(try await server.request(.get, "/api/me", token: second).status == .ok)
            let wrongCurrent = try await server.request(.post, "/api/me/password", token: first, json: ["currentPassword": "bad", "newPassword": "another good one"])
            #expect(wrongCurrent.status == .unprocessableContent && wrongCurrent.problemField == "currentPassword")
            #expect(
                try await server.request(.post, "/api/me/password", token: first, json: ["currentPassword": "correct horse 1", "newPassword": "another good one"]).status
                    == .noContent)
            #expect(try await server.request(.get, "/api/me", token: first).status == .ok)
            #expect(try await server.request(.get, "/api/me", token: second).status == .unauthorized)
            _ = try await server.logIn("carol", password: "another good one")
        }
    }

    @Test func profileUpdatesValidateEachField() async throws {
        try await ServerHarness.run { server in
            let (id, token) = try await server.signUp("dave")
            let updated = try await server.request(
                .patch, "/api/me", token: token,
                json: [
                    "status": "Ready to challenge everyone", "dateOfBirth": "2002-03-04", "sex": "male", "heightMeters": 1.8,
                    "maxHeartRateMethod": "tanaka", "units": "imperial",
                ])
            #expect(updated.status == .ok)
            #expect(updated.json["status"] as? String == "Ready to challenge everyone")
            #expect((updated.json["maxHeartRate"] as? [String: Any])?["method"] as? String == "tanaka")
            #expect(updated.json["id"] as? String == id)
            // The cached session sees the change immediately.
            #expect(try await server.request(.get, "/api/me", token: token).json["status"] as? String == "Ready to challenge everyone")
            for (body, field) in [
                (["dateOfBirth": "2002-13-40"], "dateOfBirth"), (["sex": "robot"], "sex"), (["heightMeters": 7], "heightMeters"),
                (["maxHeartRateMethod": "measured"], "measuredMaxHeartRate"), (["nickname": "x"], "nickname"), (["units": "furlongs"], "units"),
            ] as [([String: Any], String)] {
                let reply = try await server.request(.patch, "/api/me", token: token, json: body)
                #expect(reply.status == .unprocessableContent, "\(body)")
                #expect(reply.problemField == field)
            }
            let typed = try await server.request(.patch, "/api/me", token: token, json: ["heightMeters": "tall"])
            #expect(typed.status == .badRequest && typed.problemField == "heightMeters")
            #expect(try await server.request(.get, "/api/me", token: token).json["sex"] as? String == "male")
        }
    }

    @Test func measurementsAndSettings() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("erin")
            #expect(try await server.request(.post, "/api/me/weights", token: token, json: ["kilograms": 61.5]).status == .created)
            let pounds = try await server.request(.post, "/api/me/weights", token: token, json: ["pounds": 145])
            #expect(abs((pounds.json["value"] as? Double ?? 0) - 65.77089365) < 1e-6)
            #expect(try await server.request(.post, "/api/me/weights", token: token, json: ["kilograms": 900]).problemField == "kilograms")
            #expect(try await server.request(.get, "/api/me/weights", token: token).json["entries"].map { ($0 as? [Any])?.count } == 2)
            #expect(try await server.request(.post, "/api/me/resting-heart-rates", token: token, json: ["bpm": 300]).status == .unprocessableContent)
            let settings = try await server.request(.put, "/api/me/settings", token: token, json: ["autoShareWorkouts": true, "maxSharedWorkouts": 3])
            #expect(settings.json["maxSharedWorkouts"] as? Int == 3 && settings.json["autoShareWorkouts"] as? Bool == true)
            #expect(try await server.request(.get, "/api/me/settings", token: token).json["maxSharedWorkouts"] as? Int == 3)
            #expect(try await server.request(.put, "/api/me/settings", token: token, json: ["maxSharedWorkouts": -1]).problemField == "maxSharedWorkouts")
        }
    }

    @Test func photosAreCheckedByContent() async throws {
        try await ServerHarness.run { server in
            let (id, token) = try await server.signUp("fay")
            let png = TestImages.png(text: "fay's photo")
            #expect(try await server.request(.put, "/api/me/photo", token: token, raw: png, contentType: "image/png").status == .noContent)
            let photo = try await server.request(.get, "/api/users/\(id)/photo", token: token)
            #expect(photo.status == .ok && photo.headers[.contentType] == "image/png" && photo.body == png)
            let disguised = try await server.request(.put, "/api/me/photo", token: token, raw: Data("<?php echo 1; ?>".utf8), contentType: "image/png")
            #expect(disguised.status == .unsupportedMediaType)
            let huge = Data([0xFF, 0xD8, 0xFF]) + Data(repeating: 0, count: 5 * 1024 * 1024 + 10)
            #expect(try await server.request(.put, "/api/me/photo", token: token, raw: huge, contentType: "image/jpeg").status == .contentTooLarge)
            #expect(try await server.request(.get, "/api/me", token: token).json["photoURL"] as? String == "/api/users/\(id)/photo")
        }
    }

    @Test func systemEndpoints() async throws {
        try await ServerHarness.run { server in
            let health = try await server.request(.get, "/healthz")
            #expect(health.status == .ok && health.json["status"] as? String == "ok")
            _ = try await server.signUp("gus")
            let metrics = try await server.request(.get, "/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.text.contains("heartwork_http_requests_total{method=\"POST\",route=\"/api/auth/register\",status=\"201\"} 1"))
            let openapi = try await server.request(.get, "/openapi.json")
            #expect(openapi.json["openapi"] as? String == "3.1.0")
            let missing = try await server.request(.get, "/api/nothing-here")
            #expect(missing.status == .notFound && missing.headers[.contentType] == "application/problem+json")
        }
    }
}
