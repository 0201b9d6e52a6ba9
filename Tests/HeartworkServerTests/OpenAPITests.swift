import Foundation
import HeartworkTestSupport
import Hummingbird
import Testing

@testable import HeartworkServer

@Suite("OpenAPI description")
struct OpenAPITests {
    static var document: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(EmbeddedResources.openAPIDocument))) as? [String: Any] ?? [:] }

    /// Every route the router serves is described, and nothing described is missing.
    @Test func everyRouteIsDescribedAndEveryDescriptionIsARoute() async throws {
        try await ServerHarness.run { server in
            let paths = try #require(Self.document["paths"] as? [String: [String: Any]])
            let routes = server.router().routes.map {
                "\($0.method.rawValue.lowercased()) \(OpenAPIPaths.template(for: $0.path.description))"
            }
            let described = paths.flatMap { path, operations in
                operations.keys.filter { ["get", "post", "put", "patch", "delete"].contains($0) }.map { "\($0) \(path)" }
            }
            let undocumented = Set(routes).subtracting(described)
            let phantom = Set(described).subtracting(routes)
            #expect(undocumented.isEmpty, "routes missing from openapi.json: \(undocumented.sorted())")
            #expect(phantom.isEmpty, "openapi.json describes routes that do not exist: \(phantom.sorted())")
        }
    }

    @Test func documentIsOpenAPI31WithOperationIDsAndResponses() throws {
        #expect(Self.document["openapi"] as? String == "3.1.0")
        let paths = try #require(Self.document["paths"] as? [String: [String: Any]])
        var operationIDs = Set<String>()
        for (path, operations) in paths {
            for (method, value) in operations {
                guard let operation = value as? [String: Any] else { continue }
                let id = try #require(operation["operationId"] as? String, "\(method) \(path) has no operationId")
                #expect(operationIDs.insert(id).inserted, "duplicate operationId \(id)")
                #expect((operation["responses"] as? [String: Any])?.isEmpty == false, "\(method) \(path) has no responses")
            }
        }
    }

    /// OpenAPIKit reads the document, finds it valid, and resolves every reference.
    @Test func documentIsValidAndFullyResolvable() throws {
        let contract = try OpenAPIContract(Data(EmbeddedResources.openAPIDocument))
        #expect(contract.operations.count > 60)
        #expect(contract.operation(method: "GET", path: "/api/workouts/abc")?.template == "/api/workouts/{workoutID}")
    }

    /// The schema walk itself fails where it should (so a passing contract means something).
    @Test func theSchemaWalkCatchesWhatIsWrong() throws {
        let contract = OpenAPIContract.shared
        func violations(_ json: String, status: Int = 200, uri: String = "/api/me/settings") -> [String] {
            contract.violations(method: "GET", uri: uri, status: status, contentType: "application/json", body: Data(json.utf8))
        }
        #expect(violations(#"{"autoShareWorkouts": true, "maxSharedWorkouts": 3}"#).isEmpty)
        #expect(violations(#"{"autoShareWorkouts": "yes", "maxSharedWorkouts": 3}"#).count == 1)
        #expect(violations(#"{"autoShareWorkouts": true}"#).first?.contains("maxSharedWorkouts: required") == true)
        #expect(violations(#"{"autoShareWorkouts": true, "maxSharedWorkouts": 3.5}"#).count == 1)
        #expect(violations(#"{"autoShareWorkouts": true, "maxSharedWorkouts": 3, "extra": 1}"#).first?.contains("not documented") == true)
        #expect(violations("{}", status: 418).first?.contains("status not documented") == true)
        let problem = contract.violations(
            method: "GET", uri: "/api/me", status: 401, contentType: "application/problem+json",
            body: Data(#"{"type":"about:blank","title":"t","status":401}"#.utf8))
        #expect(problem.contains { $0.contains("detail: required") } && problem.contains { $0.contains("message: required") })
        #expect(
            violations(#"{"id":"1","measuredAt":"2026-02-31T25:61:61Z","value":1}"#, status: 201, uri: "/api/me/weights").isEmpty == false
                || contract.violations(
                    method: "POST", uri: "/api/me/weights", status: 201, contentType: "application/json",
                    body: Data(#"{"id":"1","measuredAt":"2026-02-31T25:61:61Z","value":1}"#.utf8)
                ).count == 1)
    }

    /// `null` is accepted only where a field may be cleared; elsewhere it is refused and nothing changes.
    @Test func explicitNullForANonNullableFieldIsRefused() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("nully")
            for (body, field) in [
                (["fullName": NSNull()], "fullName"), (["units": NSNull()], "units"), (["maxHeartRateMethod": NSNull()], "maxHeartRateMethod"),
            ] as [([String: Any], String)] {
                let reply = try await server.request(.patch, "/api/me", token: token, json: body)
                #expect(reply.status == .badRequest, "\(body)")
                #expect(reply.problemField == field)
            }
            #expect(try await server.request(.put, "/api/me/settings", token: token, json: ["maxSharedWorkouts": NSNull()]).status == .badRequest)
            #expect(try await server.request(.post, "/api/auth/login", json: ["username": "nully", "password": NSNull()]).status == .badRequest)
            let cleared = try await server.request(.patch, "/api/me", token: token, json: ["heightMeters": 1.8, "sex": "female"])
            #expect(cleared.json["heightMeters"] as? Double == 1.8)
            let after = try await server.request(.patch, "/api/me", token: token, json: ["heightMeters": NSNull(), "sex": NSNull()])
            #expect(after.status == .ok && after.json["heightMeters"] == nil && after.json["sex"] == nil)
            #expect(after.json["fullName"] as? String == "Nully Tester")
        }
    }
}
