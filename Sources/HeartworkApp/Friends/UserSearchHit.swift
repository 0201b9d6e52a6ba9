import HeartworkStore

/// A user found by search, with how the caller relates to them.
public struct UserSearchHit: Sendable {
    public let user: UserRecord
    public let relation: Relation
}
