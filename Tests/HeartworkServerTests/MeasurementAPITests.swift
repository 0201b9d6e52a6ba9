import Foundation
import HeartworkTestSupport
import Hummingbird
import Testing

/// Weight and resting heart rate are kinds of one measurement history: the same rules, the
/// same routes for every kind, the first API's names kept.
@Suite("Measurements API")
struct MeasurementAPITests {
    @Test func everyKindAddsListsAndDeletesTheSameWay() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("meas")
            let added = try await server.request(.post, "/api/me/measurements/weight", token: token, json: ["value": 71.5, "measuredAt": "2026-01-02T07:00:00Z"])
            #expect(added.status == .created)
            let id = try #require(added.json["id"] as? String)
            let pounds = try await server.request(.post, "/api/me/weights", token: token, json: ["pounds": 160])
            #expect(abs((pounds.json["value"] as? Double ?? 0) - 72.574_779_2) < 1e-6)
            let list = try await server.request(.get, "/api/me/weights", token: token)
            #expect(list.json["kind"] as? String == "weight" && list.json["unit"] as? String == "kg")
            #expect((list.json["entries"] as? [[String: Any]])?.map { $0["id"] as? String }.first == id)  // oldest first
            #expect(try await server.request(.get, "/api/me", token: token).json["weightKilograms"] as? Double == pounds.json["value"] as? Double)
            // A weight's id is not a resting heart rate's.
            #expect(try await server.request(.delete, "/api/me/resting-heart-rates/\(id)", token: token).status == .notFound)
            #expect(try await server.request(.delete, "/api/me/measurements/weight/\(id)", token: token).status == .noContent)
            #expect(try await server.request(.delete, "/api/me/weights/\(id)", token: token).status == .notFound)
            #expect((try await server.request(.get, "/api/me/measurements/weight", token: token).json["entries"] as? [Any])?.count == 1)
            let resting = try await server.request(.post, "/api/me/measurements/resting-heart-rate", token: token, json: ["value": 52])
            #expect(resting.status == .created)
            #expect(try await server.request(.get, "/api/me/resting-heart-rates", token: token).json["unit"] as? String == "bpm")
        }
    }

    /// A date in the future would become "the latest value" forever; a value out of range is a typo.
    @Test func datesAreBoundedToThePastAndValuesToTheirRange() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("future")
            for (path, body, field) in [
                ("/api/me/weights", ["kilograms": 70, "measuredAt": "9999-12-31T00:00:00Z"], "measuredAt"),
                ("/api/me/measurements/resting-heart-rate", ["value": 50, "measuredAt": "2999-01-01T00:00:00Z"], "measuredAt"),
                ("/api/me/measurements/weight", ["value": 70, "measuredAt": "1850-01-01T00:00:00Z"], "measuredAt"),
                ("/api/me/measurements/weight", ["value": 7000], "value"),
                ("/api/me/resting-heart-rates", ["bpm": 10], "bpm"),
                ("/api/me/weights", ["kilograms": 70, "measuredAt": "2026-02-31T10:00:00Z"], "measuredAt"),
            ] as [(String, [String: Any], String)] {
                let reply = try await server.request(.post, path, token: token, json: body)
                #expect(reply.status == .unprocessableContent, "\(path) \(body)")
                #expect(reply.problemField == field, "\(path) \(body)")
            }
            #expect((try await server.request(.get, "/api/me/weights", token: token).json["entries"] as? [Any])?.isEmpty == true)
            let soon = Date().addingTimeInterval(120).formatted(.iso8601)
            #expect(try await server.request(.post, "/api/me/weights", token: token, json: ["kilograms": 70, "measuredAt": soon]).status == .created)
        }
    }

    @Test func nobodyElseCanDeleteYourMeasurements() async throws {
        try await ServerHarness.run { server in
            let (_, owner) = try await server.signUp("owner")
            let (_, other) = try await server.signUp("other")
            let id = try #require(try await server.request(.post, "/api/me/weights", token: owner, json: ["kilograms": 60]).json["id"] as? String)
            #expect(try await server.request(.delete, "/api/me/weights/\(id)", token: other).status == .notFound)
            #expect((try await server.request(.get, "/api/me/weights", token: owner).json["entries"] as? [Any])?.count == 1)
        }
    }
}
