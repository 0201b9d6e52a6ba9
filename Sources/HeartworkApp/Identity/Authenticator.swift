import Foundation
import HeartworkStore

/// How credentials arrived: API clients send a bearer token, the web app a cookie. A token
/// works only the way it was issued (an API token is not a cookie, and the reverse).
public enum CredentialTransport: Sendable, Hashable {
    case bearer
    case cookie
}

/// Resolves credentials to an `Identity`, for HTTP requests and WebSocket connections alike.
/// Most requests need no database read: resolved sessions are cached for 10 seconds (see
/// `SessionCache`).
public struct Authenticator: Sendable {
    let store: HeartworkStore
    let cache: SessionCache

    /// The identity for a token, or nil when it is unknown, expired, revoked, malformed or
    /// presented the wrong way.
    public func identity(token: String, via transport: CredentialTransport, now: Date = Date()) async throws -> Identity? {
        let trimmed = token.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("hw_"), trimmed.utf8.count < 100 else { return nil }
        let hash = SessionToken.hash(trimmed)
        let found: (session: SessionRecord, user: UserRecord)?
        if let cached = cache.lookup(tokenHash: hash, now: now) {
            found = cached
        } else {
            found = try await store.sessions.findWithUser(tokenHash: hash)
            if let found, found.session.isValid(at: now) { cache.store(found.session, found.user, now: now) }
        }
        guard let (session, user) = found, session.isValid(at: now) else { return nil }
        guard (session.kind == .web) == (transport == .cookie) else { return nil }
        return Identity(user: user, session: session, viaCookie: transport == .cookie)
    }
}
