/// The exercises one user can name: the catalogue's and their own (issue 25). The one place
/// the strength rules look an exercise up — whether it is a hold, its group, whether it is
/// loaded — so a user's own exercise counts exactly like a catalogue one: a timed one of theirs
/// adds nothing to a session's reps or volume, its sets update its 1RM, and routines may name it.
public struct ExerciseLookup: Sendable {
    public let catalogue: StrengthCatalogue
    /// The user's own exercises by id.
    public let own: [String: Exercise]

    public init(catalogue: StrengthCatalogue, own: [Exercise] = []) {
        self.catalogue = catalogue
        var byID = [String: Exercise]()
        for exercise in own where exercise.isCustom { byID[exercise.id] = exercise }
        self.own = byID
    }

    /// The catalogue's exercise, or one of the user's own; nil for anything else (another
    /// user's exercise, an import's `other:` id, an exercise no longer there).
    public func exercise(_ id: String) -> Exercise? {
        if let exercise = catalogue.exercise(id) { return exercise }
        return id.hasPrefix(StrengthCatalogue.customPrefix) ? own[id] : nil
    }

    /// Whether the exercise is a hold, logged in seconds (unknown ones are not).
    public func isTimed(_ id: String) -> Bool { exercise(id)?.timed ?? false }

    /// A routine of only bodyweight exercises (the seed's "Bodyweight" category).
    public func isBodyweight(_ routine: RoutineTemplate) -> Bool {
        !routine.exerciseIDs.isEmpty && routine.exerciseIDs.allSatisfy { exercise($0)?.loaded == false }
    }

    public func groups(of routine: RoutineTemplate) -> Set<MuscleGroup> {
        Set(routine.exerciseIDs.compactMap { exercise($0)?.group })
    }
}
