/// How the caller relates to another user.
public enum Relation: String, Sendable, Hashable {
    case friend
    /// The caller asked; the other has not answered.
    case requested
    /// The other asked the caller.
    case requestedYou = "requested-you"
    case none
}
