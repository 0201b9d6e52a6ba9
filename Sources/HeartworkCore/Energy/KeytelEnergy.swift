/// Energy expenditure from heart rate, Keytel et al. 2005, "Prediction of energy
/// expenditure from heart rate monitoring during submaximal exercise", J Sports Sci
/// 23(3):289–297, as HeartMate uses it (seed-000 Eq. 2.4, 2.5):
///
///     male:   (−55.0969 + 0.6309·HR + 0.1988·W + 0.2017·A) / 4.184 × 60 × T
///     female: (−20.4022 + 0.4472·HR − 0.1263·W + 0.074·A) / 4.184 × 60 × T
///
/// HR in bpm, W in kg, A in years, T in hours; the bracket is kJ/min, result kcal.
public enum KeytelEnergy {
    public static let kilojoulesPerKilocalorie = 4.184

    /// Energy rate in kcal per minute; negative at low heart rates, as the equation is.
    public static func kilocaloriesPerMinute(
        sex: Sex, averageBPM: Double, weightKilograms: Double, ageYears: Double
    ) -> Double {
        let kilojoulesPerMinute =
            switch sex {
            case .male: -55.0969 + 0.6309 * averageBPM + 0.1988 * weightKilograms + 0.2017 * ageYears
            case .female: -20.4022 + 0.4472 * averageBPM - 0.1263 * weightKilograms + 0.074 * ageYears
            }
        return kilojoulesPerMinute / kilojoulesPerKilocalorie
    }

    /// Energy in kcal over `hours`, never below zero (PRODUCT.md: "never below zero").
    public static func kilocalories(
        sex: Sex, averageBPM: Double, weightKilograms: Double, ageYears: Double, hours: Double
    ) -> Double {
        let rate = kilocaloriesPerMinute(
            sex: sex, averageBPM: averageBPM, weightKilograms: weightKilograms, ageYears: ageYears)
        return max(0, rate * 60 * hours)
    }
}

/// Calories as a workout goes: HeartMate re-evaluates Keytel on every sample with the
/// running mean heart rate and the elapsed time (seed-000 §3.4, PRODUCT.md).
public struct KeytelAccumulator: Sendable, Hashable {
    public let sex: Sex
    public let weightKilograms: Double
    public let ageYears: Double
    public private(set) var sampleCount = 0
    public private(set) var runningMeanBPM = 0.0
    public private(set) var elapsedSeconds = 0.0

    public init(sex: Sex, weightKilograms: Double, ageYears: Double) {
        self.sex = sex
        self.weightKilograms = weightKilograms
        self.ageYears = ageYears
    }

    /// Adds one reading taken `elapsedSeconds` after the start; returns kcal so far.
    @discardableResult
    public mutating func add(beatsPerMinute bpm: Double, elapsedSeconds elapsed: Double) -> Double {
        sampleCount += 1
        runningMeanBPM += (bpm - runningMeanBPM) / Double(sampleCount)
        elapsedSeconds = max(elapsedSeconds, elapsed)
        return kilocalories
    }

    public var kilocalories: Double {
        guard sampleCount > 0 else { return 0 }
        return KeytelEnergy.kilocalories(
            sex: sex, averageBPM: runningMeanBPM, weightKilograms: weightKilograms,
            ageYears: ageYears, hours: elapsedSeconds / 3600)
    }
}
