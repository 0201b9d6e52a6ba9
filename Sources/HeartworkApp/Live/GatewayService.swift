import Foundation
import HeartworkStore

/// A user's gateways and their tokens. A token is shown once, when the gateway is created,
/// and stored only as its SHA-256; it starts with `hwg_` and is good for the gateway endpoint
/// alone (the user API knows only session tokens, so it refuses it), as a session token is
/// refused by the gateway endpoint.
public struct GatewayService: Sendable {
    let store: HeartworkStore
    /// Closes a revoked gateway's socket (the live bus).
    var revoker: (any CredentialRevoker)? = nil
    public static let tokenPrefix = "hwg_"
    public static let nameLength = 1...60
    /// Gateways per user (a club with a phone per squad fits).
    public static let maximumPerUser = 50

    public struct Created: Sendable {
        public let gateway: GatewayRecord
        /// The only time the token is seen.
        public let token: String
    }

    public func create(name: String, for user: UserRecord, now: Date = Date()) async throws -> Created {
        let name = try TextRules.line(name, field: "name", what: "a gateway's name", length: Self.nameLength)
        let token = SessionToken.generate(prefix: Self.tokenPrefix)
        let gateway = GatewayRecord(userID: user.id, name: name, tokenHash: SessionToken.hash(token), createdAt: now)
        do {
            try await store.gateways.create(gateway, limit: Self.maximumPerUser)
        } catch StoreError.limitReached {
            throw AppError.conflict("you have \(Self.maximumPerUser) gateways, the most one account may have: revoke one you no longer use")
        } catch StoreError.notFound {
            throw AppError.notSignedIn
        }
        return Created(gateway: gateway, token: token)
    }

    public func list(for user: UserRecord) async throws -> [GatewayRecord] {
        try await store.gateways.list(userID: user.id)
    }

    public func gateway(_ id: String, of user: UserRecord) async throws -> GatewayRecord {
        guard let gateway = try await store.gateways.find(id: id, userID: user.id) else { throw AppError.notFound("gateway") }
        return gateway
    }

    public func rename(_ id: String, of user: UserRecord, to name: String) async throws -> GatewayRecord {
        let name = try TextRules.line(name, field: "name", what: "a gateway's name", length: Self.nameLength)
        guard try await store.gateways.rename(id: id, userID: user.id, to: name) else { throw AppError.notFound("gateway") }
        return try await gateway(id, of: user)
    }

    /// Revokes for good: the gateway and its token go at once. The sensors it heard and
    /// their readings stay (they are the user's, not the gateway's).
    public func revoke(_ id: String, of user: UserRecord) async throws {
        guard try await store.gateways.delete(id: id, userID: user.id) else { throw AppError.notFound("gateway") }
        revoker?.revoke(.gateway(id: id))
    }

    public func touch(_ gateway: GatewayRecord, now: Date = Date()) async throws {
        try await store.gateways.touch(id: gateway.id, at: now)
    }

    /// The gateway a token belongs to, or nil (unknown, revoked, or not a gateway token).
    public func authenticate(token: String) async throws -> GatewayRecord? {
        guard token.hasPrefix(Self.tokenPrefix), token.utf8.count <= 128 else { return nil }
        return try await store.gateways.find(tokenHash: SessionToken.hash(token))
    }
}
