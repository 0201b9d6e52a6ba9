import Foundation

/// Login sessions (API tokens and web cookies), stored by token hash.
public protocol SessionRepository: Sendable {
    func create(_ session: SessionRecord) async throws
    func find(tokenHash: String) async throws -> SessionRecord?
    /// The session with its user in one query: every authenticated request asks this.
    func findWithUser(tokenHash: String) async throws -> (session: SessionRecord, user: UserRecord)?
    func revoke(tokenHash: String, at: Date) async throws
    /// Revokes every session of the user except `keeping`.
    func revokeAll(userID: String, keeping tokenHash: String?, at: Date) async throws
    func deleteExpired(before: Date) async throws
}
