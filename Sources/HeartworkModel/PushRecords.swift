import Foundation

/// One browser's Web Push subscription (a device a user turned notifications on for): the
/// push service's endpoint and the browser's keys (RFC 8291: `p256dh`, the browser's P-256
/// public key, and `auth`, its 16-byte secret), both base64url as the browser gives them.
public struct PushSubscriptionRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var endpoint: String
    public var p256dh: String
    public var auth: String
    public var createdAt: Date
    /// The session that turned it on (its token's hash); pushes stop when it ends. Nil: bound
    /// to no session.
    public var sessionHash: String?

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, endpoint: String, p256dh: String, auth: String, createdAt: Date, sessionHash: String? = nil
    ) {
        self.sessionHash = sessionHash
        self.id = id
        self.userID = userID
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.createdAt = createdAt
    }
}

/// The server's VAPID key pair (RFC 8292), base64url: the 32-byte private scalar and the
/// 65-byte uncompressed public key.
public struct VAPIDKeyRecord: Sendable, Hashable {
    public var privateKey: String
    public var publicKey: String
    public var createdAt: Date

    public init(privateKey: String, publicKey: String, createdAt: Date) {
        self.privateKey = privateKey
        self.publicKey = publicKey
        self.createdAt = createdAt
    }
}
