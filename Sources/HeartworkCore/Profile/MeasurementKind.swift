/// The kinds of dated body measurements a profile keeps a history of. Each has one SI unit
/// and a plausible range; a value outside it is a typing or sensor mistake. Daily health
/// adds kinds here, not new copies of the history.
public enum MeasurementKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Body mass in kilograms.
    case weight
    /// Resting heart rate in beats per minute.
    case restingHeartRate = "resting-heart-rate"
    /// Body height in metres (a history of what a phone or scale recorded; the profile keeps
    /// its own `heightMeters`, filled from it only while empty).
    case height

    /// The stored unit.
    public var unit: String {
        switch self {
        case .weight: "kg"
        case .restingHeartRate: "bpm"
        case .height: "m"
        }
    }

    public var plausibleRange: ClosedRange<Double> {
        switch self {
        case .weight: BodyMass.plausibleKilograms
        case .restingHeartRate: PhysiologicalLimits.restingHeartRate
        case .height: 0.5...2.6
        }
    }

    /// For messages: "a body mass", "a resting heart rate".
    public var displayName: String {
        switch self {
        case .weight: "body mass"
        case .restingHeartRate: "resting heart rate"
        case .height: "height"
        }
    }
}
