import Foundation
import Testing
@testable import HeartworkServer
import HeartworkTestSupport
import Hummingbird

@Suite("OpenAPI description")
struct OpenAPITests {
    static var document: [String: Any] { (try? JSONSerialization.jsonObject(with: OpenAPIDocument.data)) as? [String: Any] ?? [:] }

    /// Every route the router serves is described, and nothing described is missing.
    @Test func everyRouteIsDescribedAndEveryDescriptionIsARoute() async throws {
        try await ServerHarness.run { server in
            let paths = try #require(Self.document["paths"] as? [String: [String: Any]])
            let routes = HeartworkApplication.buildRouter(server.services).routes.map {
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
}
