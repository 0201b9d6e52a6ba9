import Foundation

public enum SessionKind: String, Sendable, Hashable {
    /// Bearer token for the API.
    case api
    /// Cookie session for the web app, with a CSRF token.
    case web
}

/// A login. The token itself is never stored, only its SHA-256.
public struct SessionRecord: Sendable, Hashable {
    public var tokenHash: String
    public var userID: String
    public var kind: SessionKind
    public var csrfToken: String?
    public var createdAt: Date
    public var expiresAt: Date
    public var revokedAt: Date?

    public init(tokenHash: String, userID: String, kind: SessionKind, csrfToken: String?, createdAt: Date, expiresAt: Date, revokedAt: Date? = nil) {
        self.tokenHash = tokenHash
        self.userID = userID
        self.kind = kind
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    public func isValid(at now: Date) -> Bool { revokedAt == nil && expiresAt > now }
}
