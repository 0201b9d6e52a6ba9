import HeartworkStore

/// A friend request with both people.
public struct FriendRequestView: Sendable {
    public let request: FriendRequestRecord
    public let from: UserRecord
    public let to: UserRecord
}
