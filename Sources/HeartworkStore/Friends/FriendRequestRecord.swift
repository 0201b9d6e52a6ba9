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
}
