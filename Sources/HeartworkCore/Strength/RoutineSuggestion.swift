/// Which routine to do today (beyond the seed, whose F10/F16 "suggest a workout" and "stop
/// excessive use of one routine" failed, seed-002 §3.3.8): among the routines of the user's
/// goal, one that trains none of the muscle groups trained on the previous day or already
/// today; of those, the routines the user has done come first, the one done longest ago
/// first (a rotation, so no routine is worn out), then the ones never done, by name. When
/// every routine overlaps, the one with the fewest overlapping groups.
public enum RoutineSuggestion {
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

    public struct Suggestion: Sendable, Hashable {
        public var routineID: String
        /// Groups it shares with yesterday's or today's training (empty when it rests them all).
        public var overlapping: Set<MuscleGroup>
        public var reason: String
    }

    public static func suggest(_ candidates: [Candidate], goal: StrengthGoal, recentlyTrained: Set<MuscleGroup>) -> Suggestion? {
        let pool = candidates.filter { $0.goal == goal }
        let ranked = pool.sorted { a, b in
            let oa = a.groups.intersection(recentlyTrained).count
            let ob = b.groups.intersection(recentlyTrained).count
            if oa != ob { return oa < ob }
            if (a.lastDoneDay == nil) != (b.lastDoneDay == nil) { return a.lastDoneDay != nil }
            if a.lastDoneDay != b.lastDoneDay { return (a.lastDoneDay ?? 0) < (b.lastDoneDay ?? 0) }
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
        return Suggestion(routineID: best.id, overlapping: overlap, reason: reason)
    }
}
