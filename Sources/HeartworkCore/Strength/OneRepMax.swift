/// One-repetition maximum by Brzycki, the formula Pocket PT chose (seed-002 §3.3.1):
///
///     1RM = weight × 36 / (37 − reps)
///
/// and its inverse as the seed's code writes it, with rounded constants (§3.3.5):
///
///     weight = 1RM × (1.0278 − 0.0278 × reps)
public enum Brzycki {
    /// Sets of this many reps or more never enter the formula (it divides by zero at 37 and
    /// turns negative after); they are kept in the log (PRODUCT.md, Pocket PT).
    public static let repsLimit = 37

    /// The estimate from one completed set; nil where the formula does not apply: no reps,
    /// 37 or more, or no positive finite weight.
    public static func oneRepMax(weightKilograms weight: Double, reps: Int) -> Double? {
        guard reps >= 1, reps < repsLimit, weight.isFinite, weight > 0 else { return nil }
        return weight * 36 / Double(37 - reps)
    }

    /// The weight to lift for `reps` reps given a 1RM, with the seed's code's constants.
    public static func weight(forReps reps: Int, oneRepMax: Double) -> Double {
        oneRepMax * (1.0278 - 0.0278 * Double(reps))
    }
}

/// What Heartwork knows of one user's strength in one exercise (seed-002 §2.5: most reps,
/// highest weight, 1RM). All zero means never done: the cold start (`mostReps == 0`).
public struct ExerciseStats: Sendable, Hashable, Codable {
    public var mostReps: Int
    public var mostWeightKilograms: Double
    public var oneRepMaxKilograms: Double

    public init(mostReps: Int = 0, mostWeightKilograms: Double = 0, oneRepMaxKilograms: Double = 0) {
        self.mostReps = mostReps
        self.mostWeightKilograms = mostWeightKilograms
        self.oneRepMaxKilograms = oneRepMaxKilograms
    }

    public static let coldStart = ExerciseStats()

    /// The seed's cold-start test (§3.3.2, §8 item 9).
    public var isColdStart: Bool { mostReps == 0 }
}

/// A set as it was done: what enters the end-of-session update.
public struct PerformedSet: Sendable, Hashable {
    /// nil: the "Maximum" placeholder was never replaced by a count.
    public var reps: Int?
    public var weightKilograms: Double
    /// Whether the lifter marked it done. Undone sets are kept and ignored.
    public var done: Bool

    public init(reps: Int?, weightKilograms: Double, done: Bool = true) {
        self.reps = reps
        self.weightKilograms = weightKilograms
        self.done = done
    }

    /// Whether it counts at all: done, with a real count above zero.
    public var counts: Bool { done && (reps ?? 0) > 0 }
}

public enum StrengthProgression {
    /// The end-of-session update (seed-002 §3.3.6): "every set completed is used to make a new
    /// 1-RM estimation … If any of these produce a 1-RM higher than the currently stored 1-RM,
    /// this becomes the new value." So the 1RM only ever rises; most reps and highest weight
    /// follow every counted set (the seed's cold start ends on `mostReps`, §8 item 11).
    /// Sets of 0 reps, untouched placeholders and undone sets change nothing; sets of 37 or
    /// more reps count for most reps and weight but never for the 1RM. For a hold (`timed`)
    /// `reps` is seconds: most reps is the longest hold, and there is no 1RM.
    public static func update(_ stats: ExerciseStats, with sets: [PerformedSet], timed: Bool = false) -> ExerciseStats {
        var next = stats
        for set in sets where set.counts {
            let reps = set.reps ?? 0
            next.mostReps = max(next.mostReps, reps)
            if set.weightKilograms.isFinite { next.mostWeightKilograms = max(next.mostWeightKilograms, set.weightKilograms) }
            if !timed, let estimate = Brzycki.oneRepMax(weightKilograms: set.weightKilograms, reps: reps) {
                next.oneRepMaxKilograms = max(next.oneRepMaxKilograms, estimate)
            }
        }
        return next
    }

    /// The best Brzycki estimate among a session's sets of one exercise, for progress charts.
    public static func bestEstimate(_ sets: [PerformedSet], timed: Bool = false) -> Double? {
        guard !timed else { return nil }
        return sets.filter(\.counts).compactMap { Brzycki.oneRepMax(weightKilograms: $0.weightKilograms, reps: $0.reps ?? 0) }.max()
    }
}
