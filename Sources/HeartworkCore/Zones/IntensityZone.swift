/// RISE's four intensity zones on a percentage of maximum heart rate, plus rest below
/// them (PRODUCT.md, RISE: light [45, 64) %, moderate [64, 77) %, vigorous [77, 93) %,
/// extreme ≥ 93 %, worth 1, 2, 4 and 8 points a minute; seed-004 digest).
public enum IntensityZone: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case rest = 0
    case light, moderate, vigorous, extreme

    public init(percentOfMaximum percent: Double) {
        switch percent {
        case 93...: self = .extreme
        case 77..<93: self = .vigorous
        case 64..<77: self = .moderate
        case 45..<64: self = .light
        default: self = .rest
        }
    }

    public static func < (lhs: IntensityZone, rhs: IntensityZone) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Intensity points earned per minute in this zone.
    public var pointsPerMinute: Int {
        switch self {
        case .rest: 0
        case .light: 1
        case .moderate: 2
        case .vigorous: 4
        case .extreme: 8
        }
    }

    /// Lower bound in % of maximum heart rate (nil for rest).
    public var lowerPercentOfMaximum: Double? {
        switch self {
        case .rest: nil
        case .light: 45
        case .moderate: 64
        case .vigorous: 77
        case .extreme: 93
        }
    }

    public var identifier: String {
        switch self {
        case .rest: "rest"
        case .light: "light"
        case .moderate: "moderate"
        case .vigorous: "vigorous"
        case .extreme: "extreme"
        }
    }

    public var displayName: String { identifier.prefix(1).uppercased() + identifier.dropFirst() }
}
