import Foundation
import HeartworkStore
import Logging

/// Registration, sign-in with throttling, sign-out and password changes, shared by the API
/// and the web pages.
struct AccountService: Sendable {
    let store: HeartworkStore
    let hasher: PasswordHasher
    let sessionLifetime: TimeInterval
    let metrics: ServerMetrics
    /// A hash of a random secret at the same cost as real ones, checked for unknown users.
    let decoyHash: String
    let sessionCache: SessionCache

    /// Failed sign-ins allowed per window, per account and per address.
    static let accountFailureLimit = 5
    static let addressFailureLimit = 20
    static let throttleWindow: TimeInterval = 15 * 60

    func register(_ request: RegisterRequest, now: Date = Date()) async throws -> UserRecord {
        try request.validate()
        if try await store.users.find(username: request.username) != nil {
            throw APIError.conflict("the username '\(request.username)' is taken", field: "username")
        }
        let user = UserRecord(
            username: request.username, fullName: request.fullName, email: request.email,
            passwordHash: try await hasher.hash(request.password), createdAt: now)
        do {
            try await store.users.create(user)
        } catch StoreError.conflict {
            throw APIError.conflict("the username '\(request.username)' is taken", field: "username")
        }
        return user
    }

    /// Checks the password (throttled) and opens a session; returns the raw token once.
    func signIn(username: String, password: String, address: String, kind: SessionKind, now: Date = Date()) async throws -> (token: String, session: SessionRecord, user: UserRecord) {
        let accountScope = "account:\(username.lowercased())", addressScope = "address:\(address)"
        let since = now.addingTimeInterval(-Self.throttleWindow)
        if try await store.loginThrottle.failures(scope: accountScope, since: since) >= Self.accountFailureLimit {
            throw APIError.tooManyRequests("too many failed sign-ins for this account", retryAfterSeconds: Int(Self.throttleWindow))
        }
        if try await store.loginThrottle.failures(scope: addressScope, since: since) >= Self.addressFailureLimit {
            throw APIError.tooManyRequests("too many failed sign-ins from this address", retryAfterSeconds: Int(Self.throttleWindow))
        }
        let user = try await store.users.find(username: username)
        // Unknown users cost a bcrypt check too, so timing does not tell which names exist.
        let matches = try await hasher.verify(password, hash: user?.passwordHash ?? decoyHash)
        guard let user, matches else {
            try await store.loginThrottle.recordFailure(scope: accountScope, at: now)
            try await store.loginThrottle.recordFailure(scope: addressScope, at: now)
            metrics.loginFailures.increment()
            throw APIError(.unauthorized, "Sign-in failed", detail: "wrong username or password")
        }
        try await store.loginThrottle.clear(scope: accountScope)
        let (token, session) = try await openSession(for: user, kind: kind, now: now)
        return (token, session, user)
    }

    func openSession(for user: UserRecord, kind: SessionKind, now: Date = Date()) async throws -> (String, SessionRecord) {
        let token = SessionToken.generate()
        let session = SessionRecord(
            tokenHash: SessionToken.hash(token), userID: user.id, kind: kind,
            csrfToken: kind == .web ? SessionToken.generate() : nil,
            createdAt: now, expiresAt: now.addingTimeInterval(sessionLifetime))
        try await store.sessions.create(session)
        return (token, session)
    }

    func signOut(_ identity: Identity, now: Date = Date()) async throws {
        try await store.sessions.revoke(tokenHash: identity.session.tokenHash, at: now)
        sessionCache.forget(tokenHash: identity.session.tokenHash)
    }

    /// Changes the password and ends every other session of the user.
    func changePassword(_ identity: Identity, current: String, new: String, now: Date = Date()) async throws {
        try PasswordPolicy.check(new, field: "newPassword")
        guard try await hasher.verify(current, hash: identity.user.passwordHash) else {
            throw APIError.invalid("the current password is wrong", field: "currentPassword")
        }
        try await store.users.updatePasswordHash(userID: identity.user.id, passwordHash: try await hasher.hash(new))
        try await store.sessions.revokeAll(userID: identity.user.id, keeping: identity.session.tokenHash, at: now)
        sessionCache.forget(userID: identity.user.id)
    }
}
