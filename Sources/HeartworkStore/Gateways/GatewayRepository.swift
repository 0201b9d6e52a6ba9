import Foundation

/// A user's gateways; a token is found by its hash.
public protocol GatewayRepository: Sendable {
    /// Stores a gateway unless the user has `limit` already (`StoreError.limitReached`),
    /// counted in the same transaction.
    func create(_ gateway: GatewayRecord, limit: Int) async throws
    /// The user's gateways, oldest first.
    func list(userID: String) async throws -> [GatewayRecord]
    func find(id: String, userID: String) async throws -> GatewayRecord?
    func find(tokenHash: String) async throws -> GatewayRecord?
    /// False when the user has no such gateway.
    func rename(id: String, userID: String, to name: String) async throws -> Bool
    /// Deletes the gateway (its token with it). False when the user has no such gateway.
    func delete(id: String, userID: String) async throws -> Bool
    func touch(id: String, at: Date) async throws
}

extension GatewayRepository {
    /// Stores a gateway whatever the user has (demo data, tools and tests).
    public func create(_ gateway: GatewayRecord) async throws { try await create(gateway, limit: .max) }
}
