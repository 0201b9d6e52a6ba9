import HeartworkStore

/// What came of asking someone to be friends.
public enum FriendRequestOutcome: Sendable {
    case requested(FriendRequestView)
    /// They had asked you already: you are friends now.
    case becameFriends(UserRecord)
}
