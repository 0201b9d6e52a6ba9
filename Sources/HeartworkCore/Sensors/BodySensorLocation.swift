/// Body Sensor Location (characteristic 0x2A38), Bluetooth HRS 1.0 §3.2.
public enum BodySensorLocation: Sendable, Hashable {
    case other, chest, wrist, finger, hand, earLobe, foot
    /// Values 7–255 are reserved for future use; kept so nothing is lost.
    case reserved(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .other
        case 1: self = .chest
        case 2: self = .wrist
        case 3: self = .finger
        case 4: self = .hand
        case 5: self = .earLobe
        case 6: self = .foot
        default: self = .reserved(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .other: 0
        case .chest: 1
        case .wrist: 2
        case .finger: 3
        case .hand: 4
        case .earLobe: 5
        case .foot: 6
        case .reserved(let value): value
        }
    }

    public var name: String {
        switch self {
        case .other: "other"
        case .chest: "chest"
        case .wrist: "wrist"
        case .finger: "finger"
        case .hand: "hand"
        case .earLobe: "ear lobe"
        case .foot: "foot"
        case .reserved(let value): "reserved (\(value))"
        }
    }
}
