import Foundation

/// A gateway of a user: a phone, PC or Raspberry Pi that forwards its straps' readings.
public struct GatewayRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var name: String
    public var tokenHash: String
    public var createdAt: Date
    public var lastSeenAt: Date?

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, name: String, tokenHash: String, createdAt: Date,
        lastSeenAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.name = name
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }
}
