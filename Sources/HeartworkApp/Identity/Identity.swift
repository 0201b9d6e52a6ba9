import HeartworkStore

/// Who is asking: the signed-in user and the session their credentials belong to. HTTP
/// requests and WebSocket connections carry the same value.
public struct Identity: Sendable, Hashable {
    public let user: UserRecord
    public let session: SessionRecord
    /// True when the credentials came in a cookie (then unsafe methods need the CSRF token).
    public let viaCookie: Bool

    public init(user: UserRecord, session: SessionRecord, viaCookie: Bool) {
        self.user = user
        self.session = session
        self.viaCookie = viaCookie
    }

    public var userID: String { user.id }
}
