/// Which way a profile gets its maximum heart rate: one of the age formulas, or the value
/// the athlete measured. The measured value is kept apart so switching back and forth
/// does not lose it.
public enum MaximumHeartRateSource: String, Sendable, Hashable, Codable, CaseIterable {
    case gellish, fox, tanaka, measured

    public static let `default` = MaximumHeartRateSource.gellish

    /// The method, when it can be applied: `measured` needs a measured value.
    public func method(measured: Double?) -> MaximumHeartRateMethod? {
        switch self {
        case .gellish: .gellish
        case .fox: .fox
        case .tanaka: .tanaka
        case .measured: measured.map { .measured(beatsPerMinute: $0) }
        }
    }

    /// The maximum in bpm, when the inputs it needs are known.
    public func maximumHeartRate(ageYears: Int?, measured: Double?) -> Double? {
        guard let method = method(measured: measured) else { return nil }
        if case .measured(let bpm) = method { return bpm }
        return ageYears.map { method.maximumHeartRate(ageYears: Double($0)) }
    }
}
