/// RISE's four intensity zones on a percentage of maximum heart rate, plus rest below
/// them: light [45, 60) %, moderate [60, 80) %, vigorous [80, 93) %, extreme ≥ 93 %, worth
/// 1, 2, 4 and 8 points a minute. The seed (004 §3.2) quotes the CDC's moderate 64–76 % and
/// vigorous 77–93 %, and says RISE altered them "to have larger ranges in the moderate
/// category as it is the targeted safe range"; its own numbers were in a figure the text
/// lost, so Heartwork widens moderate by 4 points on each side to round numbers (issue 25;
/// docs/DAILY-HEALTH.md, "RISE").
public enum IntensityZone: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case rest = 0
    case light, moderate, vigorous, extreme

    public init(percentOfMaximum percent: Double) {
        switch percent {
        case 93...: self = .extreme
        case 80..<93: self = .vigorous
        case 60..<80: self = .moderate
        case 45..<60: self = .light
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
        case .moderate: 60
        case .vigorous: 80
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
