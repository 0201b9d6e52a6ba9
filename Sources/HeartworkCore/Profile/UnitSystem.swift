/// How a person wants values shown; storage and computation are always SI.
public enum UnitSystem: String, Sendable, Hashable, Codable, CaseIterable {
    /// Kilograms, kilometres, centimetres.
    case metric
    /// Pounds, miles, feet and inches.
    case imperial
}
