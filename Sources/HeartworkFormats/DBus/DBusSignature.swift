/// D-Bus type signatures: splitting a signature into complete types and checking it
/// (D-Bus Specification, "Valid Signatures": at most 255 bytes, arrays and structs each nested
/// at most 32 deep, dict entries only as array elements with a basic key).
public enum DBusSignature {
    public static let maximumLength = 255
    public static let maximumNesting = 32

    static let basic: Set<UInt8> = Set("ybnqiuxtdsog".utf8)

    /// The complete types of a signature, in order; throws on an invalid one.
    public static func split(_ signature: String) throws(DBusError) -> [String] {
        let bytes = Array(signature.utf8)
        guard bytes.count <= maximumLength else { throw DBusError("signature longer than 255 bytes") }
        var types: [String] = []
        var index = 0
        while index < bytes.count {
            let end = try completeType(bytes, from: index, arrays: 0, structs: 0)
            types.append(String(decoding: bytes[index..<end], as: UTF8.self))
            index = end
        }
        return types
    }

    /// The end (exclusive) of the complete type starting at `start`.
    static func completeType(_ bytes: [UInt8], from start: Int, arrays: Int, structs: Int) throws(DBusError) -> Int {
        guard start < bytes.count else { throw DBusError("signature ends inside a type") }
        let code = bytes[start]
        if basic.contains(code) || code == UInt8(ascii: "v") { return start + 1 }
        switch code {
        case UInt8(ascii: "a"):
            guard arrays < maximumNesting else { throw DBusError("arrays nested deeper than 32") }
            let next = start + 1
            if next < bytes.count && bytes[next] == UInt8(ascii: "{") {
                guard next + 1 < bytes.count, basic.contains(bytes[next + 1]) else { throw DBusError("a dict entry's key is a basic type") }
                let valueEnd = try completeType(bytes, from: next + 2, arrays: arrays + 1, structs: structs)
                guard valueEnd < bytes.count, bytes[valueEnd] == UInt8(ascii: "}") else { throw DBusError("a dict entry has one key and one value") }
                return valueEnd + 1
            }
            return try completeType(bytes, from: next, arrays: arrays + 1, structs: structs)
        case UInt8(ascii: "("):
            guard structs < maximumNesting else { throw DBusError("structs nested deeper than 32") }
            var index = start + 1
            guard index < bytes.count, bytes[index] != UInt8(ascii: ")") else { throw DBusError("an empty struct") }
            while index < bytes.count && bytes[index] != UInt8(ascii: ")") {
                index = try completeType(bytes, from: index, arrays: arrays, structs: structs + 1)
            }
            guard index < bytes.count else { throw DBusError("a struct without its )") }
            return index + 1
        default:
            throw DBusError("unknown type code \(Character(Unicode.Scalar(code))) in a signature")
        }
    }

    /// The alignment of a value of the type whose signature starts with `code`.
    static func alignment(_ code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 4
        }
    }
}

/// A message or value that breaks the D-Bus wire format; `description` says what and, when
/// reading, at which byte.
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
