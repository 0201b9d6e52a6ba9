import Foundation
import HeartworkCore

/// One of a user's own exercises (issue 25): made by them, or by an import for a name the
/// catalogue lacks. Only its owner sees it.
public struct CustomExerciseRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var name: String
    public var group: MuscleGroup
    public var equipment: String
    public var loaded: Bool
    public var measure: ExerciseMeasure
    /// "user" (the exercises page or the API), or the app whose import named it ("strong",
    /// "hevy").
    public var source: String
    public var createdAt: Date

    public init(
        id: String = StrengthCatalogue.customPrefix + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16),
        userID: String, name: String, group: MuscleGroup, equipment: String, loaded: Bool, measure: ExerciseMeasure = .reps, source: String,
        createdAt: Date
    ) {
        self.id = id
        self.userID = userID
        self.name = name
        self.group = group
        self.equipment = equipment
        self.loaded = loaded
        self.measure = measure
        self.source = source
        self.createdAt = createdAt
    }

    /// As an exercise of the catalogue's kind: the group's name stands for the muscle, and it
    /// has no instructions (the user knows their own movement).
    public var exercise: Exercise {
        Exercise(
            id: id, name: name, group: group, primaryMuscle: group.rawValue, secondaryMuscles: [], equipment: equipment, loaded: loaded, measure: measure,
            instructions: "", licence: "", attribution: "")
    }
}
