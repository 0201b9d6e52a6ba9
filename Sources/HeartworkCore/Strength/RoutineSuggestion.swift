/// Which routine to do today (beyond the seed, whose F10/F16 "suggest a workout" and "stop
/// excessive use of one routine" failed, seed-002 §3.3.8): among the routines of the user's
/// goal —
///
/// 1. not the one just done `overuseThreshold` times in a row (F16.1: "inform the user if they
///    have completed a workout a set number of times, and suggest that they carry out a
///    different workout"; the seed names no number, Heartwork's is 3 — docs/STRENGTH.md);
/// 2. one that trains none of the muscle groups trained on the previous day or already today,
///    or else the one with the fewest such groups;
/// 3. the one not done for longest: never done first (by name), then the one done longest ago
///    (a rotation, so no routine is worn out and new ones get their turn).
public enum RoutineSuggestion {
    /// How many times in a row one routine is done before another is suggested (F16).
    public static let overuseThreshold = 3

    public struct Candidate: Sendable, Hashable {
        public var id: String
        public var name: String
        public var goal: StrengthGoal
        public var groups: Set<MuscleGroup>
        /// Day number of the last time it was done (any monotonic day count), nil if never.
        public var lastDoneDay: Int?

        public init(id: String, name: String, goal: StrengthGoal, groups: Set<MuscleGroup>, lastDoneDay: Int?) {
            self.id = id
            self.name = name
            self.goal = goal
            self.groups = groups
            self.lastDoneDay = lastDoneDay
        }
    }

    /// A routine done `times` times in a row, up to the latest session.
    public struct Overuse: Sendable, Hashable {
        public var routineID: String
        public var times: Int

        public init(routineID: String, times: Int) {
            self.routineID = routineID
            self.times = times
        }
    }

    public struct Suggestion: Sendable, Hashable {
        public var routineID: String
        /// Groups it shares with yesterday's or today's training (empty when it rests them all).
        public var overlapping: Set<MuscleGroup>
        /// Why this routine: what it rests and how long ago it was done.
        public var reason: String
        /// When a routine was just done `overuseThreshold` times in a row: says so (F16.1).
        public var warning: String?

        /// The warning, if any, then the reason: one sentence for the API.
        public var fullReason: String { warning.map { "\($0); \(reason)" } ?? reason }
    }

    /// The routine of the latest finished sessions when the same one was done at least
    /// `threshold` times in a row. `recent` is the routine of each finished session, newest
    /// first (nil for one not from a routine, an import: it ends the run).
    public static func overuse(recent: [String?], threshold: Int = overuseThreshold) -> Overuse? {
        guard let first = recent.first, let routineID = first else { return nil }
        let times = recent.prefix { $0 == routineID }.count
        return times >= max(1, threshold) ? Overuse(routineID: routineID, times: times) : nil
    }

    public static func suggest(
        _ candidates: [Candidate], goal: StrengthGoal, recentlyTrained: Set<MuscleGroup>, overused: Overuse? = nil
    ) -> Suggestion? {
        let pool = candidates.filter { $0.goal == goal }
        let ranked = pool.sorted { a, b in
            let wa = a.id == overused?.routineID
            let wb = b.id == overused?.routineID
            if wa != wb { return !wa }
            let oa = a.groups.intersection(recentlyTrained).count
            let ob = b.groups.intersection(recentlyTrained).count
            if oa != ob { return oa < ob }
            if a.lastDoneDay != b.lastDoneDay { return (a.lastDoneDay ?? Int.min) < (b.lastDoneDay ?? Int.min) }
            return a.name < b.name
        }
        guard let best = ranked.first else { return nil }
        let overlap = best.groups.intersection(recentlyTrained)
        let rested =
            recentlyTrained.isEmpty
            ? "you have trained nothing since yesterday"
            : "it rests \(MuscleGroup.displayOrder.filter { recentlyTrained.contains($0) }.map { $0.rawValue.lowercased() }.joined(separator: ", "))"
        let recency = best.lastDoneDay == nil ? "it is new to you" : "of your routines it is the one you did longest ago"
        let reason =
            overlap.isEmpty
            ? "\(rested), and \(recency)"
            : "every \(goal.displayName.lowercased()) routine trains a group you trained yesterday or today; this one overlaps least (\(MuscleGroup.displayOrder.filter { overlap.contains($0) }.map { $0.rawValue.lowercased() }.joined(separator: ", ")))"
        var warning: String?
        if let overused, overused.routineID != best.id, let name = candidates.first(where: { $0.id == overused.routineID })?.name {
            warning = "you have done \(name) \(overused.times) times in a row — a different routine works your muscles in new ways"
        }
        return Suggestion(routineID: best.id, overlapping: overlap, reason: reason, warning: warning)
    }
}
