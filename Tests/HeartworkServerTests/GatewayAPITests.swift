import Foundation
import HTTPTypes
import HeartworkTestSupport
import Testing

/// Gateways (issue 9, the protocol's first part): a token shown once and stored hashed, good
/// for the gateway endpoint only; the owner lists, renames and revokes; nobody else sees them.
@Suite("Gateway API")
struct GatewayAPITests {
    @Test(arguments: TestDatabase.all)
    func createListRenameRevoke(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("coach")
            let created = try await server.request(.post, "/api/gateways", token: token, json: ["name": "Pitch-side Pi"])
            #expect(created.status == .created)
            let id = try #require(created.json["id"] as? String)
            let gatewayToken = try #require(created.json["token"] as? String)
            #expect(gatewayToken.hasPrefix("hwg_") && gatewayToken.count > 40)
            #expect(created.headers[.location] == "/api/gateways/\(id)")
            #expect(created.json["name"] as? String == "Pitch-side Pi")

            // Stored hashed: the token is nowhere in the database or in later answers.
            let stored = try #require(try await server.services.gateways.authenticate(token: gatewayToken))
            #expect(stored.id == id && stored.tokenHash != gatewayToken && stored.tokenHash.count == 64)
            let list = try await server.request(.get, "/api/gateways", token: token)
            let gateways = try #require(list.json["gateways"] as? [[String: Any]])
            #expect(gateways.count == 1 && gateways[0]["token"] == nil && !list.text.contains(gatewayToken))

            // The gateway token is not a user token.
            #expect(try await server.request(.get, "/api/me", token: gatewayToken).status == .unauthorized)
            #expect(try await server.request(.get, "/api/gateways", token: gatewayToken).status == .unauthorized)
            // A user token is not a gateway token.
            #expect(try await server.services.gateways.authenticate(token: token) == nil)
            #expect(try await server.services.gateways.authenticate(token: gatewayToken)?.id == id)

            let renamed = try await server.request(.patch, "/api/gateways/\(id)", token: token, json: ["name": "  Tablet  "])
            #expect(renamed.status == .ok && renamed.json["name"] as? String == "Tablet")
            #expect(try await server.request(.patch, "/api/gateways/\(id)", token: token, json: ["name": "a\u{0}b"]).status == .unprocessableContent)
            #expect(try await server.request(.patch, "/api/gateways/\(id)", token: token, json: ["name": ""]).status == .unprocessableContent)
            #expect(try await server.request(.post, "/api/gateways", token: token, json: ["name": "x", "token": "mine"]).status == .unprocessableContent)

            #expect(try await server.request(.delete, "/api/gateways/\(id)", token: token).status == .noContent)
            #expect(try await server.services.gateways.authenticate(token: gatewayToken) == nil, "a revoked token stops working at once")
            #expect(try await server.request(.get, "/api/gateways/\(id)", token: token).status == .notFound)
            #expect(try await server.request(.patch, "/api/gateways/\(id)", token: token, json: ["name": "Back"]).status == .notFound)
            #expect(try await server.request(.delete, "/api/gateways/\(id)", token: token).status == .notFound)
        }
    }

    @Test func anotherUsersGatewayIsNotFound() async throws {
        try await ServerHarness.run { server in
            let (_, owner) = try await server.signUp("owner")
            let (_, other) = try await server.signUp("other")
            let id = try #require(try await server.request(.post, "/api/gateways", token: owner, json: ["name": "Mine"]).json["id"] as? String)
            #expect(try await server.request(.get, "/api/gateways/\(id)", token: other).status == .notFound)
            #expect(try await server.request(.patch, "/api/gateways/\(id)", token: other, json: ["name": "Stolen"]).status == .notFound)
            #expect(try await server.request(.delete, "/api/gateways/\(id)", token: other).status == .notFound)
            #expect((try await server.request(.get, "/api/gateways", token: other).json["gateways"] as? [Any])?.isEmpty == true)
            #expect(try await server.request(.get, "/api/gateways/\(id)", token: owner).json["name"] as? String == "Mine")
        }
    }
}
