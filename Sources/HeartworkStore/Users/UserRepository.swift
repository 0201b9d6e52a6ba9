import Foundation

/// Accounts, profiles, settings and photos.
public protocol UserRepository: Sendable {
    /// Fails with `StoreError.conflict` when the username is taken, in any letter case.
    func create(_ user: UserRecord) async throws
    func find(id: String) async throws -> UserRecord?
    func find(username: String) async throws -> UserRecord?
    /// Accounts whose e-mail is `email` up to the case of A–Z (`EmailKey`), at most `limit`,
    /// oldest first.
    func find(email: String, limit: Int) async throws -> [UserRecord]
    /// Users whose username or full name contains `text`, case-insensitively, by username.
    func search(_ text: String, excluding userID: String, page: Page) async throws -> [UserRecord]
    /// In one transaction: reads the user, lets `check` refuse the changed record (rules that
    /// span fields), then writes only the changed columns. Nil when there is no such user.
    func update(userID: String, _ changes: UserChanges, check: @escaping @Sendable (UserRecord) throws -> Void) async throws -> UserRecord?
    func updatePasswordHash(userID: String, passwordHash: String) async throws
    func setPhoto(userID: String, contentType: String, data: Data) async throws
    func photo(userID: String) async throws -> (contentType: String, data: Data)?
}
