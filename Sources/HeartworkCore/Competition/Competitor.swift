/// The two sides of a one-to-one challenge. In a ghost challenge `b` is the recording.
public enum Competitor: String, Sendable, Hashable, Codable, CaseIterable {
    case a, b

    public var opponent: Competitor { self == .a ? .b : .a }
}

/// A confirmed zone switch of one competitor at one second of the match.
public struct ZoneChangeEvent: Sendable, Hashable {
    public let second: Int
    public let competitor: Competitor
    public let from: ReserveZone
    public let to: ReserveZone
    /// The other side's confirmed zone at the same second.
    public let opponentZone: ReserveZone

    public var direction: ZoneChangeDirection { to > from ? .up : .down }

    /// What a client speaks aloud to `listener` (seed-000 F17: the opponent's direction and
    /// new zone, then the listener's own zone; PRODUCT.md).
    public func announcement(for listener: Competitor) -> String {
        let movement = direction == .up ? "moved up to" : "moved down to"
        if listener == competitor {
            return "You \(movement) \(to.displayName)"
        }
        return "Your opponent \(movement) \(to.displayName); you are in \(opponentZone.displayName)"
    }
}

/// Who won a challenge.
public enum CompetitionOutcome: Sendable, Hashable {
    case winner(Competitor)
    case draw
}
