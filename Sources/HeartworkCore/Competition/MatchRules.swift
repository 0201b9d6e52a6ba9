/// The rules of a live match or ghost race that are not scoring (PRODUCT.md "A live match
/// has its own room…", seed-000 F33, §3.7, §3.10; issue 10).
public enum MatchRules {
    /// A live match lasts 1 to 120 minutes (the challenger's choice).
    public static let minutes = 1...120
    /// From "both are present" to second 0.
    public static let countdownSeconds = 5
    /// A side that sends nothing for this long forfeits.
    public static let silenceSeconds = 10
    /// A player whose connection dropped has this long to come back before forfeiting
    /// (issue 23: a dropped socket is not an instant loss; the seconds meanwhile are lost
    /// contact).
    public static let reconnectSeconds = 15
    /// A reading may arrive this long after its second ended and still be placed; later it
    /// counts as lost contact.
    public static let lateSeconds = 3
    /// An invitation not answered in this time lapses; so does an accepted match nobody
    /// starts in this time after the acceptance.
    public static let invitationSeconds = 600
    /// Invitations one player may have waiting for an answer at once (issue 40: 30 at once
    /// flooded a friend with notifications and pushes).
    public static let openInvitationsBySender = 5
    /// Invitations one player may have waiting for them at once, from all their friends.
    public static let openInvitationsToReceiver = 10
    /// Readings are heart rates in bpm; 0 means the strap lost contact.
    public static let beatsPerMinute = 0.0...250.0

    /// The progress meter: 20 % per zone above none (seed-000 §3.7; none 0 %, red line 80 %,
    /// the digest's first reading).
    public static func progressPercent(_ zone: ReserveZone) -> Int { zone.rawValue * 20 }
}

/// Why a match ended.
public enum MatchEndReason: String, Sendable, Hashable, CaseIterable {
    /// The time was up.
    case time
    /// A side left the room after the countdown began: ended it with End, or its connection
    /// stayed away for `MatchRules.reconnectSeconds`.
    case left
    /// A side sent nothing for `MatchRules.silenceSeconds`.
    case silence
}

extension HeartRateSeries {
    /// A stored workout's per-second heart rate as a ghost: gaps hold the last value up to
    /// 5 s, then are missing (zone none), and the series is exactly as long as the recording
    /// (PRODUCT.md: "the duration is locked to the recorded one").
    public static func ghost(perSecond heartRate: [Int?]) -> HeartRateSeries {
        var values = [Double?](repeating: nil, count: heartRate.count)
        var held: Double?
        var since = Int.max
        for (second, bpm) in heartRate.enumerated() {
            if let bpm {
                held = bpm > 0 ? Double(bpm) : nil
                since = 0
            } else if since != Int.max {
                since += 1
            }
            values[second] = since <= 5 ? held : nil
        }
        return HeartRateSeries(originSeconds: 0, beatsPerMinute: values)
    }
}
