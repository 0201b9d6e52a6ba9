import Foundation

public enum FriendRequestStatus: String, Sendable, Hashable {
    case pending, accepted, denied
}

public struct FriendRequestRecord: Sendable, Hashable {
    public var id: String
    public var fromUserID: String
    public var toUserID: String
    public var status: FriendRequestStatus
    public var createdAt: Date

    public init(id: String, fromUserID: String, toUserID: String, status: FriendRequestStatus, createdAt: Date) {
        self.id = id
        self.fromUserID = fromUserID
        self.toUserID = toUserID
        self.status = status
        self.createdAt = createdAt
    }
}
