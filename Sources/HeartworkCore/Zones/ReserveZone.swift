/// HeartMate's five heart-rate-reserve zones (seed-000 Table 2.1 and §3.5; PRODUCT.md).
/// Ordered so that "higher zone" comparisons are the competition rule.
public enum ReserveZone: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case none = 0
    case low, moderate, high, redLine

    /// Lower bounds of low … red line, and the 100 % top, as fractions of HRR.
    public static let thresholdFractions: [Double] = [0.60, 0.70, 0.80, 0.90, 1.00]

    public static func < (lhs: ReserveZone, rhs: ReserveZone) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Name used in JSON and on the command line.
    public var identifier: String {
        switch self {
        case .none: "none"
        case .low: "low"
        case .moderate: "moderate"
        case .high: "high"
        case .redLine: "red-line"
        }
    }

    /// Name used in sentences and tables.
    public var displayName: String {
        switch self {
        case .none: "None"
        case .low: "Low"
        case .moderate: "Moderate"
        case .high: "High"
        case .redLine: "Red Line"
        }
    }

    /// The zone's number as Garmin and Polar users know it: Z1 (below 60 % of the heart-rate
    /// reserve) to Z5 (90 % and above).
    public var shortName: String { "Z\(rawValue + 1)" }

    /// What pages and charts show: the number with HeartMate's name ("Z3 · Moderate").
    public var label: String { "\(shortName) · \(displayName)" }

    /// Range of %HRR the zone covers; red line is open-ended above 90 %.
    public var percentOfReserve: Range<Double> {
        switch self {
        case .none: -Double.infinity..<60
        case .low: 60..<70
        case .moderate: 70..<80
        case .high: 80..<90
        case .redLine: 90..<Double.infinity
        }
    }
}
