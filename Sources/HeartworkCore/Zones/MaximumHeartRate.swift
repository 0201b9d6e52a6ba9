/// How a person's maximum heart rate is obtained.
public enum MaximumHeartRateMethod: Sendable, Hashable, Codable {
    /// 206.9 − 0.67·age (Gellish et al. 2007; seed-000 Eq. 2.2, HeartMate's choice and our default).
    case gellish
    /// 220 − age (Fox et al. 1971; seed-000 Eq. 2.1).
    case fox
    /// 208 − 0.7·age (Tanaka, Monahan & Seals 2001, J Am Coll Cardiol 37:153).
    case tanaka
    /// A value measured in a maximal test or taken from the athlete's own recordings.
    case measured(beatsPerMinute: Double)

    public static let `default` = MaximumHeartRateMethod.gellish

    /// Short name used in files and on the command line.
    public var name: String {
        switch self {
        case .gellish: "gellish"
        case .fox: "fox"
        case .tanaka: "tanaka"
        case .measured: "measured"
        }
    }

    /// Maximum heart rate in bpm for a person of `ageYears`.
    public func maximumHeartRate(ageYears: Double) -> Double {
        switch self {
        case .gellish: 206.9 - 0.67 * ageYears
        case .fox: 220 - ageYears
        case .tanaka: 208 - 0.7 * ageYears
        case .measured(let bpm): bpm
        }
    }
}

/// Ranges outside which physiological inputs are rejected as mistakes rather than
/// silently producing nonsense zones. Chosen wide enough for any athlete we serve.
public enum PhysiologicalLimits {
    public static let ageYears: ClosedRange<Double> = 10...100
    public static let restingHeartRate: ClosedRange<Double> = 25...150
    public static let maximumHeartRate: ClosedRange<Double> = 100...250
    /// Above this a reading is treated as a sensor error, not a heart rate.
    public static let plausibleHeartRate: ClosedRange<Double> = 20...250
}

/// Why a set of physiological inputs cannot describe a person.
public enum PhysiologyError: Error, Hashable, Sendable, CustomStringConvertible {
    case ageOutOfRange(Double)
    case restingHeartRateOutOfRange(Double)
    case maximumHeartRateOutOfRange(Double)
    case restingNotBelowMaximum(resting: Double, maximum: Double)

    public var description: String {
        let limits = PhysiologicalLimits.self
        switch self {
        case .ageOutOfRange(let age):
            return "age \(age.formattedForMessage) years is outside \(limits.ageYears.formattedForMessage) years"
        case .restingHeartRateOutOfRange(let bpm):
            return "resting heart rate \(bpm.formattedForMessage) bpm is outside \(limits.restingHeartRate.formattedForMessage) bpm"
        case .maximumHeartRateOutOfRange(let bpm):
            return "maximum heart rate \(bpm.formattedForMessage) bpm is outside \(limits.maximumHeartRate.formattedForMessage) bpm"
        case .restingNotBelowMaximum(let resting, let maximum):
            return "resting heart rate \(resting.formattedForMessage) bpm must be below the maximum heart rate \(maximum.formattedForMessage) bpm"
        }
    }
}

extension Double {
    /// Up to three decimals, without trailing zeros: 190.82, 65, 140.492 (messages and tables).
    public var formattedForMessage: String {
        guard isFinite else { return "\(self)" }
        let rounded = (self * 1000).rounded() / 1000
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}

extension ClosedRange<Double> {
    public var formattedForMessage: String { "\(lowerBound.formattedForMessage)–\(upperBound.formattedForMessage)" }
}
