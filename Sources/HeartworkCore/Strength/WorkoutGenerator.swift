import Foundation

/// One exercise of a routine as the generator sees it.
public struct GeneratorExercise: Sendable, Hashable {
    public var id: String
    /// The top-level group; nil for one outside the six (no decay, as in the seed).
    public var group: MuscleGroup?
    /// False for bodyweight exercises: no external weight is prescribed (0 kg).
    public var loaded: Bool
    /// The least load its equipment allows (the empty bar); 0 for none.
    public var minimumKilograms: Double
    /// Seconds for a hold: the target is a time, never a weight.
    public var measure: ExerciseMeasure
    public var stats: ExerciseStats

    public init(
        id: String, group: MuscleGroup?, loaded: Bool = true, minimumKilograms: Double = 0, measure: ExerciseMeasure = .reps,
        stats: ExerciseStats
    ) {
        self.id = id
        self.group = group
        self.loaded = loaded
        self.minimumKilograms = minimumKilograms.isFinite && minimumKilograms > 0 ? minimumKilograms : 0
        self.measure = measure
        self.stats = stats
    }

    /// A catalogue exercise with the user's statistics and bar.
    public init(_ exercise: Exercise, stats: ExerciseStats, barKilograms: Double = WorkoutGenerator.defaultBarKilograms) {
        self.init(
            id: exercise.id, group: exercise.group, loaded: exercise.loaded, minimumKilograms: exercise.minimumKilograms(barKilograms: barKilograms),
            measure: exercise.measure, stats: stats)
    }
}

/// A prescribed set. `reps == nil` is the seed's 999 sentinel: "Maximum", as many as you can
/// (for a hold: as long as you can). For a hold `reps` is seconds.
public struct PrescribedSet: Sendable, Hashable {
    public var reps: Int?
    public var weightKilograms: Double

    public init(reps: Int?, weightKilograms: Double) {
        self.reps = reps
        self.weightKilograms = weightKilograms
    }
}

public struct ExercisePrescription: Sendable, Hashable {
    public var exerciseID: String
    public var sets: [PrescribedSet]
    /// How many earlier exercises of the same group this workout had (the decay exponent).
    public var decayExponent: Int
}

/// Pocket PT's set/rep/weight generator, exactly as the seed's code (seed-002 §3.3,
/// Appendix C `WorkoutGenerator`; PRODUCT.md "Pocket PT"):
///
/// - sets: 4, or 1 baseline set for a never-done exercise (`mostReps == 0`);
/// - reps: 15 / 12 / 8 by goal, or "Maximum" (the seed's 999) for a never-done exercise;
/// - weight: 1RM × (1.0278 − 0.0278 × reps), or the 5 kg cold start;
/// - decay: × 0.95ⁿ where n counts the earlier exercises of the same top-level muscle group
///   in this workout (the first of a group gets none; compounding, not 5 % per step);
/// - rounding: `ceil` to a whole kilogram, up, after the decay.
///
/// Beyond the seed, an option a user turns on: `plateStepKilograms` rounds up to the plates
/// they own (1.25 → multiples of 1.25 kg) instead of whole kilograms. A lifter who uses
/// pounds gets whole pounds (`kilogramsPerUnit` 0.45359237) unless a plate step is set: the
/// seed's `ceil` in the unit on the plates. Bodyweight exercises
/// (not in the seed, whose catalogue had no equipment) get the same sets and reps and no
/// external weight.
///
/// Also beyond the seed (whose 5 kg cold start is below an empty bar): a loaded exercise never
/// falls below its equipment's minimum (`GeneratorExercise.minimumKilograms`: the user's bar,
/// 20 kg by default, for a barbell; 10 kg for an EZ bar; none for the rest). The cold start is
/// max(5 kg, minimum); after the decay the weight is raised to the minimum if below, then
/// rounded as always (20 kg for a pounds user: 44.09 lb → 45 lb). Holds (`measure` seconds)
/// carry no weight: the cold start is one "Maximum" hold, then 4 holds of the longest logged
/// (at least 10 s).
public struct WorkoutGenerator: Sendable {
    public static let coldStartKilograms = 5.0
    public static let decay = 0.95
    public static let workingSets = 4
    public static let baselineSets = 1
    /// An empty Olympic bar; what a user's bar is until they set their own.
    public static let defaultBarKilograms = 20.0
    /// The bar weights a user may set (a technique bar to a heavy power bar).
    public static let barKilogramsRange: ClosedRange<Double> = 5...30
    public static let ezBarKilograms = 10.0
    /// The shortest hold prescribed after the first.
    public static let minimumHoldSeconds = 10

    public var goal: StrengthGoal
    public var plateStepKilograms: Double?
    /// 1 for kilograms; `BodyMass.kilogramsPerPound` for pounds.
    public var kilogramsPerUnit: Double

    public init(goal: StrengthGoal, plateStepKilograms: Double? = nil, kilogramsPerUnit: Double = 1) {
        self.goal = goal
        self.plateStepKilograms = plateStepKilograms.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        self.kilogramsPerUnit = kilogramsPerUnit.isFinite && kilogramsPerUnit > 0 ? kilogramsPerUnit : 1
    }

    public func prescribe(_ exercises: [GeneratorExercise]) -> [ExercisePrescription] {
        var counters = [MuscleGroup: Int]()
        return exercises.map { exercise in
            var completed = 0
            if let group = exercise.group {
                completed = (counters[group] ?? -1) + 1
                counters[group] = completed
            }
            let cold = Self.needsBaseline(exercise)
            var reps: Int? = cold ? nil : goal.targetReps
            var weight = 0.0
            if exercise.measure == .seconds {
                reps = cold ? nil : max(Self.minimumHoldSeconds, exercise.stats.mostReps)
            } else if exercise.loaded {
                let minimum = exercise.minimumKilograms
                let raw =
                    cold
                    ? max(Self.baselineKilograms(exercise.stats), minimum)
                    : Brzycki.weight(forReps: goal.targetReps, oneRepMax: exercise.stats.oneRepMaxKilograms)
                weight = round(max(minimum, completed <= 0 ? raw : raw * pow(Self.decay, Double(completed))))
            }
            let set = PrescribedSet(reps: reps, weightKilograms: weight)
            return ExercisePrescription(
                exerciseID: exercise.id, sets: Array(repeating: set, count: cold ? Self.baselineSets : Self.workingSets),
                decayExponent: max(0, completed))
        }
    }

    /// Whether the exercise gets a baseline set (1 set, "Maximum" reps) rather than working
    /// sets: never done (the seed's `mostReps == 0`), or — beyond the seed — a loaded exercise
    /// done only in sets Brzycki cannot read (37 or more reps, or at 0 kg), so it has no 1RM
    /// to work from. Without this, the seed's code would go on with a 1RM of 0 and prescribe
    /// 0 kg for ever (docs/STRENGTH.md "No 0-kg dead end").
    public static func needsBaseline(_ exercise: GeneratorExercise) -> Bool {
        if exercise.stats.isColdStart { return true }
        guard exercise.loaded, exercise.measure == .reps else { return false }
        return !(exercise.stats.oneRepMaxKilograms.isFinite && exercise.stats.oneRepMaxKilograms > 0)
    }

    /// The baseline set's weight before the equipment minimum, the decay and rounding: the
    /// seed's 5 kg the first time; after a baseline of 37 or more reps, 1.5 times the heaviest
    /// weight logged, never below 5 kg. Why 1.5: Brzycki says nothing past 36 reps, and by Epley
    /// (1RM = w (1 + r/30)) 37 reps at w mean a 1RM of about 2.23 w, so 1.5 w is about 67 % of
    /// it — some 15 reps, inside Brzycki's range, so the next set gives a 1RM — where twice
    /// the weight (review finding) would have been about 90 % of it, a near-maximal set
    /// prescribed as "Maximum reps".
    public static func baselineKilograms(_ stats: ExerciseStats) -> Double {
        guard !stats.isColdStart, stats.mostWeightKilograms.isFinite, stats.mostWeightKilograms > 0 else { return coldStartKilograms }
        return max(coldStartKilograms, stats.mostWeightKilograms * baselineStepFactor)
    }

    /// How much heavier the next baseline set is after one of 37 or more reps.
    public static let baselineStepFactor = 1.5

    /// `ceil` to a whole kilogram (the seed), or up to a multiple of the plate step. Never
    /// negative (a 1RM can only be zero or more, but a reset or bad data must not prescribe
    /// a negative load).
    public func round(_ weight: Double) -> Double {
        guard weight.isFinite, weight > 0 else { return 0 }
        guard let step = plateStepKilograms ?? (kilogramsPerUnit == 1 ? nil : kilogramsPerUnit) else { return weight.rounded(.up) }
        // A whisker below a multiple (69.999999 from floating point) is that multiple.
        let steps = (weight / step - 1e-9).rounded(.up)
        return (steps * step * 1_000_000).rounded() / 1_000_000
    }
}
