import HeartworkCore

/// Why a JSON document does not have the shape a reader expects, with the path of the
/// value at fault (`track[3].lat`). Servers answer `wrongType` and `notJSON` with 400, the
/// other kinds with 422.
public struct JSONFieldError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// Not JSON at all (the message names the byte offset).
        case notJSON
        /// A value of the wrong JSON type, or null where a value is required.
        case wrongType
        /// A required member is absent.
        case missing
        /// A member the reader does not know: a typo must not lose data silently.
        case unknownField
        /// The right type, but not an accepted value (an unknown sport, a malformed date).
        case invalidValue
    }

    public let kind: Kind
    public let path: String?
    public let message: String

    public init(_ kind: Kind, path: String?, _ message: String) {
        self.kind = kind
        self.path = path.flatMap { $0.isEmpty ? nil : $0 }
        self.message = message
    }

    public var description: String { path.map { "\($0): \(message)" } ?? message }
}

/// Typed, strict access to a JSON object's members. Absent and `null` are different: an
/// optional member may be left out, but `null` is accepted only where a reader asks for a
/// clearable value. Unknown members are refused; every error names the member's path.
public struct JSONObjectReader: Sendable {
    public let members: [(key: String, value: JSONValue)]
    public let path: String

    public init(_ value: JSONValue, path: String = "", allowed: [String]) throws(JSONFieldError) {
        guard case .object(let members) = value else { throw JSONFieldError(.wrongType, path: path, "expected an object") }
        for member in members where !allowed.contains(member.key) {
            throw JSONFieldError(.unknownField, path: Self.join(path, member.key), "unknown field; accepted: \(allowed.sorted().joined(separator: ", "))")
        }
        self.members = members
        self.path = path
    }

    /// Reads an object whose unknown members are ignored (a protocol that later versions may
    /// add to): nothing is checked beyond the shape, so it costs nothing per member.
    public init(tolerating value: JSONValue, path: String = "") throws(JSONFieldError) {
        guard case .object(let members) = value else { throw JSONFieldError(.wrongType, path: path, "expected an object") }
        self.members = members
        self.path = path
    }

    /// Parses a whole body and reads it as an object.
    public init(parsing bytes: [UInt8], allowed: [String]) throws(JSONFieldError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw JSONFieldError(.notJSON, path: nil, "the body is not valid JSON: \(error)")
        }
        try self.init(value, allowed: allowed)
    }

    public static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    public func path(_ key: String) -> String { Self.join(path, key) }

    public func contains(_ key: String) -> Bool { members.contains { $0.key == key } }

    /// The member's value as sent (`.null` included), nil when absent.
    public func raw(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    /// Absent → nil; `null` → an error: this member may be left out but not set to null.
    public func optional(_ key: String) throws(JSONFieldError) -> JSONValue? {
        guard let value = raw(key) else { return nil }
        if value == .null { throw JSONFieldError(.wrongType, path: path(key), "may be left out, but not null") }
        return value
    }

    public func required(_ key: String) throws(JSONFieldError) -> JSONValue {
        guard let value = raw(key) else { throw JSONFieldError(.missing, path: path(key), "this field is required") }
        if value == .null { throw JSONFieldError(.wrongType, path: path(key), "this field is required and cannot be null") }
        return value
    }

    /// Absent → nil (leave as is); `null` → `.clear`; a value → `.set`.
    public func clearable<T>(_ key: String, _ read: (JSONValue, String) throws(JSONFieldError) -> T) throws(JSONFieldError) -> FieldUpdate<T>? {
        guard let value = raw(key) else { return nil }
        if value == .null { return .clear }
        return .set(try read(value, path(key)))
    }

    public func string(_ key: String) throws(JSONFieldError) -> String { try Self.string(try required(key), path(key)) }
    public func optionalString(_ key: String) throws(JSONFieldError) -> String? { try optional(key).map { v throws(JSONFieldError) in try Self.string(v, path(key)) } }
    public func double(_ key: String) throws(JSONFieldError) -> Double { try Self.double(try required(key), path(key)) }
    public func optionalDouble(_ key: String) throws(JSONFieldError) -> Double? { try optional(key).map { v throws(JSONFieldError) in try Self.double(v, path(key)) } }
    public func integer(_ key: String) throws(JSONFieldError) -> Int { try Self.integer(try required(key), path(key)) }
    public func optionalInteger(_ key: String) throws(JSONFieldError) -> Int? { try optional(key).map { v throws(JSONFieldError) in try Self.integer(v, path(key)) } }
    public func optionalBool(_ key: String) throws(JSONFieldError) -> Bool? { try optional(key).map { v throws(JSONFieldError) in try Self.bool(v, path(key)) } }
    public func array(_ key: String) throws(JSONFieldError) -> [JSONValue] { try Self.array(try required(key), path(key)) }
    public func optionalArray(_ key: String) throws(JSONFieldError) -> [JSONValue]? { try optional(key).map { v throws(JSONFieldError) in try Self.array(v, path(key)) } }

    public static func string(_ value: JSONValue, _ path: String) throws(JSONFieldError) -> String {
        guard case .string(let text) = value else { throw JSONFieldError(.wrongType, path: path, "expected a string") }
        return text
    }

    public static func double(_ value: JSONValue, _ path: String) throws(JSONFieldError) -> Double {
        guard case .number(let number) = value else { throw JSONFieldError(.wrongType, path: path, "expected a number") }
        return number
    }

    /// A whole number that fits comfortably in any integer type (|n| < 2⁵³, exact in a double).
    public static func integer(_ value: JSONValue, _ path: String) throws(JSONFieldError) -> Int {
        guard case .number(let number) = value, number == number.rounded(), abs(number) < 9_007_199_254_740_992 else {
            throw JSONFieldError(.wrongType, path: path, "expected a whole number")
        }
        return Int(number)
    }

    public static func bool(_ value: JSONValue, _ path: String) throws(JSONFieldError) -> Bool {
        guard case .bool(let flag) = value else { throw JSONFieldError(.wrongType, path: path, "expected true or false") }
        return flag
    }

    public static func array(_ value: JSONValue, _ path: String) throws(JSONFieldError) -> [JSONValue] {
        guard case .array(let elements) = value else { throw JSONFieldError(.wrongType, path: path, "expected an array") }
        return elements
    }
}
