/// A D-Bus value of the types BlueZ uses (D-Bus Specification 0.41, "Type System"): the basic
/// types y b n q i u x t d s o g, variants, arrays (dictionaries are arrays of dict entries)
/// and structs. Unix file descriptors (h) are not taken: the gateway never negotiates them.
///
/// Heartwork speaks the D-Bus wire protocol itself rather than through libdbus or sd-bus, so
/// `heartwork serve` and every other command still run on machines without those libraries;
/// the codec here is pure (no I/O), the socket lives in HeartworkBlueZ.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case variant(DBusValue)
    /// An array of values of one complete type `element` (kept for empty arrays).
    case array(element: String, [DBusValue])
    case structure([DBusValue])
    /// Only inside an array: `a{kv}`.
    case dictEntry(DBusValue, DBusValue)

    /// The value's complete type.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .variant: "v"
        case .array(let element, _): "a" + element
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        }
    }

    // MARK: Building

    /// `ay`.
    public static func bytes(_ bytes: [UInt8]) -> DBusValue { .array(element: "y", bytes.map { .byte($0) }) }

    /// `as`.
    public static func strings(_ strings: [String]) -> DBusValue { .array(element: "s", strings.map { .string($0) }) }

    /// `a{sv}` in the given order.
    public static func properties(_ entries: KeyValuePairs<String, DBusValue>) -> DBusValue {
        .array(element: "{sv}", entries.map { .dictEntry(.string($0.key), .variant($0.value)) })
    }

    /// `a{sv}` in the given order.
    public static func properties(_ entries: [(String, DBusValue)]) -> DBusValue {
        .array(element: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    // MARK: Reading

    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        switch unwrapped {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    public var bool: Bool? {
        if case .boolean(let value) = unwrapped { return value }
        return nil
    }

    /// Any integer type as an `Int` (a `t` beyond `Int.max` gives nil).
    public var integer: Int? {
        switch unwrapped {
        case .byte(let value): Int(value)
        case .int16(let value): Int(value)
        case .uint16(let value): Int(value)
        case .int32(let value): Int(value)
        case .uint32(let value): Int(value)
        case .int64(let value): Int(value)
        case .uint64(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The elements of an array.
    public var elements: [DBusValue]? {
        if case .array(_, let elements) = unwrapped { return elements }
        return nil
    }

    /// `ay` as bytes.
    public var byteArray: [UInt8]? {
        guard case .array(let element, let elements) = unwrapped, element == "y" else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(elements.count)
        for element in elements {
            guard case .byte(let byte) = element else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    /// `as` (or `ao`) as strings.
    public var stringArray: [String]? { elements?.compactMap(\.string) }

    /// A dictionary (`a{…}`) with string-like keys, as key → value; later keys win.
    public var dictionary: [String: DBusValue]? {
        guard let elements else { return nil }
        var result: [String: DBusValue] = [:]
        for element in elements {
            guard case .dictEntry(let key, let value) = element, let name = key.string else { return nil }
            result[name] = value
        }
        return result
    }
}
