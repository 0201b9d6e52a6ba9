import Foundation

/// A user's gateways; a token is found by its hash.
public protocol GatewayRepository: Sendable {
    func create(_ gateway: GatewayRecord) async throws
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
