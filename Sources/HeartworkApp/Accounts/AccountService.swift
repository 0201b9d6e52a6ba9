import Foundation
import HeartworkStore
import Logging

/// Registration, throttled sign-in, sign-out and password changes, shared by the API, the
/// web pages and the demo.
public struct AccountService: Sendable {
    let store: HeartworkStore
    let hasher: PasswordHasher
    let sessionLifetime: TimeInterval
    /// A hash of a random secret at the same cost as real ones, checked for unknown users.
    let decoyHash: String
    let sessionCache: SessionCache
    /// Closes the open sockets of what is signed out (the live bus).
    var revoker: (any CredentialRevoker)? = nil
    /// Tells the people an account's deletion takes something from (its matches with them).
    var inbox: InboxService? = nil
    /// Called once per failed sign-in (the server counts them for /metrics).
    let onFailedSignIn: @Sendable () -> Void

    /// Sign-in throttling (see `SignInThrottle`).
    static let throttle = SignInThrottle()

    public func register(_ registration: Registration, now: Date = Date()) async throws -> UserRecord {
        var validation = Validation()
        let username = validation.check { () throws(AppError) in try Registration.checkedUsername(registration.username) }
        let fullName = validation.check { () throws(AppError) in
            try TextRules.line(registration.fullName, field: "fullName", what: "the full name", length: 1...100)
        }
        let email = validation.check { () throws(AppError) in try EmailAddress.checked(registration.email, field: "email") }
        validation.check { () throws(AppError) in try PasswordPolicy.check(registration.password, field: "password") }
        var timeZone: String?
        if let zone = registration.timeZone, !zone.isEmpty {
            timeZone = validation.check { () throws(AppError) in try TimeZones.checked(zone, field: "timeZone") }
        }
        try validation.finish()
        guard let username, let fullName, let email else { throw AppError.invalid("the registration is incomplete", field: nil) }
        if try await store.users.find(username: username) != nil {
            throw AppError.conflict("the username '\(username)' is taken", field: "username")
        }
        let user = UserRecord(
            username: username, fullName: fullName, email: email,
            passwordHash: try await hasher.hash(registration.password), timeZone: timeZone, createdAt: now)
        do {
            try await store.users.create(user)
        } catch StoreError.conflict {
            throw AppError.conflict("the username '\(username)' is taken", field: "username")
        }
        return user
    }

    /// Checks the password and opens a session; returns the raw token once. `username` is the
    /// account's username or its e-mail (`SignInName`: an "@" makes it an e-mail, which no
    /// username has). The attempt is counted before the password is hashed (see
    /// `SignInThrottle` for the rules), an unknown name costs the same bcrypt check as a known
    /// one, and every failure gives the same answer.
    public func signIn(username: String, password: String, address: String, kind: SessionKind, now: Date = Date()) async throws -> SignIn {
        let name = SignInName(username)
        let scopes = Self.throttle.scopes(account: name.throttleKey, address: address)
        let attemptID = UUID().uuidString.lowercased()
        try await store.loginThrottle.begin(
            attemptID: attemptID, scopes: [scopes.pair, scopes.address], since: now.addingTimeInterval(-Self.throttle.window), at: now
        ) { histories in
            if let wait = Self.throttle.wait(histories, scopes: scopes, now: now) {
                throw AppError(.throttled, wait.reason, retryAfterSeconds: wait.seconds)
            }
        }
        // A username names one account or none; an e-mail (neither verified nor unique) up to
        // two, and the password decides which. Always as many bcrypt checks as the form allows
        // (one for a username, two for an e-mail), the decoy standing in for missing accounts,
        // so neither timing nor the answer tells whether, or how many, accounts have a name or
        // an address: someone who gives their own account a stranger's address learns nothing
        // and takes nothing from them.
        let candidates = try await accounts(named: name)
        var matched = [UserRecord]()
        for index in 0..<name.candidatesChecked {
            let candidate = index < candidates.count ? candidates[index] : nil
            if try await hasher.verify(password, hash: candidate?.passwordHash ?? decoyHash), let candidate { matched.append(candidate) }
        }
        guard matched.count == 1, let user = matched.first else {
            onFailedSignIn()
            throw AppError(.unauthenticated, SignInName.failure)
        }
        try await store.loginThrottle.forgive(attemptID: attemptID, clearing: scopes.pair)
        let (token, session) = try await openSession(for: user, kind: kind, now: now)
        return SignIn(token: token, session: session, user: user)
    }

    /// The accounts a sign-in may mean: the one with the username, or those with the e-mail
    /// (the first `candidatesChecked`, oldest first).
    func accounts(named name: SignInName) async throws -> [UserRecord] {
        switch name {
        case .username(let username): return try await store.users.find(username: username).map { [$0] } ?? []
        case .email(let email): return try await store.users.find(email: email, limit: name.candidatesChecked)
        }
    }

    public func openSession(for user: UserRecord, kind: SessionKind, now: Date = Date()) async throws -> (token: String, session: SessionRecord) {
        let token = SessionToken.generate()
        let session = SessionRecord(
            tokenHash: SessionToken.hash(token), userID: user.id, kind: kind,
            csrfToken: kind == .web ? SessionToken.generate() : nil,
            createdAt: now, expiresAt: now.addingTimeInterval(sessionLifetime))
        try await store.sessions.create(session)
        return (token, session)
    }

    public func signOut(_ identity: Identity, now: Date = Date()) async throws {
        try await store.sessions.revoke(tokenHash: identity.session.tokenHash, at: now)
        sessionCache.forget(tokenHash: identity.session.tokenHash)
        revoker?.revoke(.session(tokenHash: identity.session.tokenHash))
    }

    /// Ends every session of the user, this one included, on every device (and closes their
    /// open sockets); gateways keep their own tokens.
    public func signOutEverywhere(_ identity: Identity, now: Date = Date()) async throws {
        try await store.sessions.revokeAll(userID: identity.user.id, keeping: nil, at: now)
        sessionCache.forget(userID: identity.user.id)
        revoker?.revoke(.sessions(userID: identity.user.id, except: nil))
    }

    /// Changes the password and ends every other session of the user.
    public func changePassword(_ identity: Identity, current: String, new: String, now: Date = Date()) async throws {
        try PasswordPolicy.check(new, field: "newPassword")
        // The stored hash, not the cached identity's: another instance may have changed it.
        guard let user = try await store.users.find(id: identity.user.id) else { throw AppError.notSignedIn }
        guard try await hasher.verify(current, hash: user.passwordHash) else {
            throw AppError.invalid("the current password is wrong", field: "currentPassword")
        }
        try await store.users.updatePasswordHash(userID: identity.user.id, passwordHash: try await hasher.hash(new))
        try await store.sessions.revokeAll(userID: identity.user.id, keeping: identity.session.tokenHash, at: now)
        sessionCache.forget(userID: identity.user.id)
        revoker?.revoke(.sessions(userID: identity.user.id, except: identity.session.tokenHash))
    }

    /// Sets a password without the old one: for operators and the demo account.
    public func resetPassword(userID: String, to password: String) async throws {
        try PasswordPolicy.check(password, field: "password")
        try await store.users.updatePasswordHash(userID: userID, passwordHash: try await hasher.hash(password))
        try await store.sessions.revokeAll(userID: userID, keeping: nil, at: Date())
        sessionCache.forget(userID: userID)
        revoker?.revoke(.sessions(userID: userID, except: nil))
    }
}
