import Foundation
import HeartworkFormats

/// Typed access to a parsed JSON object with the same errors as the Codable path: a
/// missing field is 422 "required", a wrong type 400 "expected …", an unknown field 422;
/// every error names the field's path.
struct JSONFields {
    let members: [(key: String, value: JSONValue)]
    let path: String

    init(_ value: JSONValue, path: String, allowed: [String]) throws {
        guard case .object(let members) = value else { throw APIError.badRequest("expected an object", field: path.isEmpty ? nil : path) }
        for member in members where !allowed.contains(member.key) {
            throw APIError.invalid("unknown field; accepted: \(allowed.sorted().joined(separator: ", "))", field: Self.join(path, member.key))
        }
        self.members = members
        self.path = path
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func field(_ key: String) -> String { Self.join(path, key) }

    /// The value, nil when absent or null.
    func optional(_ key: String) -> JSONValue? {
        guard let value = members.first(where: { $0.key == key })?.value, value != .null else { return nil }
        return value
    }

    func required(_ key: String) throws -> JSONValue {
        guard let value = optional(key) else { throw APIError.invalid("this field is required", field: field(key)) }
        return value
    }

    func string(_ key: String) throws -> String { try Self.string(try required(key), field(key)) }
    func double(_ key: String) throws -> Double { try Self.double(try required(key), field(key)) }
    func optionalDouble(_ key: String) throws -> Double? { try optional(key).map { try Self.double($0, field(key)) } }
    func optionalBool(_ key: String) throws -> Bool? {
        guard let value = optional(key) else { return nil }
        guard case .bool(let flag) = value else { throw APIError.badRequest("expected true or false", field: field(key)) }
        return flag
    }

    func array(_ key: String) throws -> [JSONValue] { try Self.array(try required(key), field(key)) }
    func optionalArray(_ key: String) throws -> [JSONValue]? { try optional(key).map { try Self.array($0, field(key)) } }

    static func string(_ value: JSONValue, _ field: String) throws -> String {
        guard case .string(let text) = value else { throw APIError.badRequest("expected a string", field: field) }
        return text
    }

    static func double(_ value: JSONValue, _ field: String) throws -> Double {
        guard case .number(let number) = value else { throw APIError.badRequest("expected a number", field: field) }
        return number
    }

    static func array(_ value: JSONValue, _ field: String) throws -> [JSONValue] {
        guard case .array(let elements) = value else { throw APIError.badRequest("expected an array", field: field) }
        return elements
    }

    /// Parses a request body, reporting where it stops being JSON.
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw APIError.badRequest("the body is not valid JSON: \(error)", field: nil)
        }
    }
}
