import Foundation
import HeartworkCore

/// A user's strength settings: goal and lifestyle (nutrition and the generator), the plate
/// step option, the empty bar they lift with, when they accepted the safety disclaimer, the
/// motivation webhook.
public struct StrengthSettingsRecord: Sendable, Hashable {
    public var userID: String
    public var goal: StrengthGoal
    public var lifestyle: Lifestyle
    /// Whether the user picked `lifestyle` (at sign-up or in settings); false while it is
    /// the default, which nutrition then says it assumed (issue 25).
    public var lifestyleChosen: Bool
    public var plateStepKilograms: Double?
    /// The empty bar's weight: the least load of a barbell exercise (20 kg, an Olympic bar,
    /// until the user sets their own; 5–30 kg).
    public var barKilograms: Double
    public var disclaimerAcceptedAt: Date?
    public var webhookURL: String?
    /// The key of the webhook's HMAC signature, per user, shown to them.
    public var webhookSecret: String
    public var updatedAt: Date

    public init(
        userID: String, goal: StrengthGoal = .muscleMaintenance, lifestyle: Lifestyle = .lowActive, lifestyleChosen: Bool = false,
        plateStepKilograms: Double? = nil,
        barKilograms: Double = WorkoutGenerator.defaultBarKilograms, disclaimerAcceptedAt: Date? = nil, webhookURL: String? = nil,
        webhookSecret: String, updatedAt: Date
    ) {
        self.userID = userID
        self.goal = goal
        self.lifestyle = lifestyle
        self.lifestyleChosen = lifestyleChosen
        self.plateStepKilograms = plateStepKilograms
        self.barKilograms = barKilograms
        self.disclaimerAcceptedAt = disclaimerAcceptedAt
        self.webhookURL = webhookURL
        self.webhookSecret = webhookSecret
        self.updatedAt = updatedAt
    }
}

/// A routine a user made (built-in ones are the catalogue's).
public struct UserRoutineRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var name: String
    public var goal: StrengthGoal
    public var description: String
    public var exerciseIDs: [String]
    public var position: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, name: String, goal: StrengthGoal, description: String,
        exerciseIDs: [String], position: Int, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.userID = userID
        self.name = name
        self.goal = goal
        self.description = description
        self.exerciseIDs = exerciseIDs
        self.position = position
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var template: RoutineTemplate { RoutineTemplate(id: id, name: name, goal: goal, description: description, exerciseIDs: exerciseIDs) }
}

public struct ExerciseStatsRecord: Sendable, Hashable {
    public var exerciseID: String
    public var stats: ExerciseStats
    public var resetAt: Date?
    public var updatedAt: Date

    public init(exerciseID: String, stats: ExerciseStats, resetAt: Date?, updatedAt: Date) {
        self.exerciseID = exerciseID
        self.stats = stats
        self.resetAt = resetAt
        self.updatedAt = updatedAt
    }
}

/// A strength session: started from a routine (or imported), its sets logged as it goes,
/// finished with a review.
public struct StrengthSessionRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var routineID: String?
    public var name: String
    public var goal: StrengthGoal
    /// "heartwork", "strong" or "hevy".
    public var source: String
    /// For imports: what makes the same session recognisable when imported again.
    public var importKey: String?
    /// The strap whose readings give the session's heart rate, when linked.
    public var sensorID: String?
    public var startedAt: Date
    public var finishedAt: Date?
    public var review: String?
    public var enjoyment: Int?
    public var difficulty: Int?
    public var sentiment: Int?
    public var message: String?
    public var volumeKilograms: Double?
    public var totalReps: Int?
    public var totalSets: Int?
    public var durationSeconds: Double?

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, routineID: String?, name: String, goal: StrengthGoal,
        source: String = "heartwork", importKey: String? = nil, sensorID: String? = nil, startedAt: Date
    ) {
        self.id = id
        self.userID = userID
        self.routineID = routineID
        self.name = name
        self.goal = goal
        self.source = source
        self.importKey = importKey
        self.sensorID = sensorID
        self.startedAt = startedAt
    }
}

/// One set of a session, numbered 1… across the session.
public struct StrengthSetRecord: Sendable, Hashable {
    public var position: Int
    public var exerciseID: String
    public var exerciseName: String
    /// Which exercise of the session (0…), so the same exercise twice stays two blocks.
    public var exerciseIndex: Int
    /// "normal", "warmup", "dropset", "failure".
    public var kind: String
    /// nil: "Maximum" (as many as possible).
    public var prescribedReps: Int?
    public var prescribedWeightKilograms: Double
    public var reps: Int?
    public var weightKilograms: Double
    public var done: Bool
    public var doneAt: Date?

    public init(
        position: Int, exerciseID: String, exerciseName: String, exerciseIndex: Int, kind: String = "normal", prescribedReps: Int?,
        prescribedWeightKilograms: Double, reps: Int?, weightKilograms: Double, done: Bool, doneAt: Date?
    ) {
        self.position = position
        self.exerciseID = exerciseID
        self.exerciseName = exerciseName
        self.exerciseIndex = exerciseIndex
        self.kind = kind
        self.prescribedReps = prescribedReps
        self.prescribedWeightKilograms = prescribedWeightKilograms
        self.reps = reps
        self.weightKilograms = weightKilograms
        self.done = done
        self.doneAt = doneAt
    }

    public var performed: PerformedSet { PerformedSet(reps: reps, weightKilograms: weightKilograms, done: done) }
}

public struct WebhookDeliveryRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var url: String
    public var body: String
    public var attempts: Int
    public var nextAttemptAt: Date
    public var deliveredAt: Date?
    public var givenUpAt: Date?
    public var lastError: String?
    public var createdAt: Date

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, url: String, body: String, attempts: Int = 0, nextAttemptAt: Date,
        deliveredAt: Date? = nil, givenUpAt: Date? = nil, lastError: String? = nil, createdAt: Date
    ) {
        self.id = id
        self.userID = userID
        self.url = url
        self.body = body
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.deliveredAt = deliveredAt
        self.givenUpAt = givenUpAt
        self.lastError = lastError
        self.createdAt = createdAt
    }
}

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
