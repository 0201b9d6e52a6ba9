import HeartworkCore

/// Battery Level characteristic (0x2A19): exactly one byte, a percentage 0–100.
public enum BatteryLevelCodec {
    public static let characteristicUUID: UInt16 = 0x2A19

    public static func decode(_ bytes: [UInt8]) throws(SingleByteCharacteristicError) -> BatteryLevel {
        guard let value = bytes.first else { throw .empty(characteristic: "Battery Level") }
        guard bytes.count == 1 else { throw .tooLong(characteristic: "Battery Level", byteCount: bytes.count) }
        guard let level = BatteryLevel(percent: value) else { throw .batteryAbove100(value: value) }
        return level
    }

    public static func encode(_ level: BatteryLevel) -> [UInt8] { [level.percent] }
}

/// Body Sensor Location characteristic (0x2A38): one byte.
public enum BodySensorLocationCodec {
    public static let characteristicUUID: UInt16 = 0x2A38

    public static func decode(_ bytes: [UInt8]) throws(SingleByteCharacteristicError) -> BodySensorLocation {
        guard let value = bytes.first else { throw .empty(characteristic: "Body Sensor Location") }
        guard bytes.count == 1 else { throw .tooLong(characteristic: "Body Sensor Location", byteCount: bytes.count) }
        return BodySensorLocation(rawValue: value)
    }

    public static func encode(_ location: BodySensorLocation) -> [UInt8] { [location.rawValue] }
}

public enum SingleByteCharacteristicError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty(characteristic: String)
    case tooLong(characteristic: String, byteCount: Int)
    case batteryAbove100(value: UInt8)

    public var description: String {
        switch self {
        case .empty(let name):
            "empty payload: \(name) is one byte"
        case .tooLong(let name, let count):
            "\(name) is one byte; got \(count) (unexpected bytes from byte offset 1)"
        case .batteryAbove100(let value):
            "byte offset 0: battery level \(value) % is above 100 %"
        }
    }
}
