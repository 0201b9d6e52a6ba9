#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A parsed JSON document (RFC 8259). Heartwork reads every request body with this and
/// `JSONObjectReader` rather than JSONDecoder, which spends most of its time on containers and
/// dynamic casts: a 2-hour workout upload (half a megabyte of numbers) is read into a
/// `NewWorkout` 3.3× faster than JSONDecoder reads it into an equivalent Codable type
/// (Benchmarks/CodecBenchmark, release, same run), and the strict reader can tell absent from
/// null and name the path of every error.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order; a repeated name is an error at parse time.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public static func parse(_ bytes: [UInt8], maximumDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var parser = JSONParser(bytes: buffer, maximumDepth: maximumDepth)
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.offset == buffer.count else { throw JSONParseError(offset: parser.offset, reason: "unexpected text after the JSON value") }
            return value
        }
    }
}

/// Where and why a document is not JSON.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let offset: Int
    public let reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(reason) at byte \(offset)" }
}

struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var offset = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: offset, reason: reason) }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw fail("nested deeper than \(maximumDepth) levels") }
        guard offset < bytes.count else { throw fail("unexpected end of the document") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character '\(Character(Unicode.Scalar(bytes[offset])))'")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw fail("unexpected end of the document") }
        for index in 0..<count where bytes[offset + index] != word.utf8Start[index] {
            throw fail("expected \(word)")
        }
        offset += count
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        offset += 1
        var members = [(key: String, value: JSONValue)]()
        // Repeated names are found by a scan while the object is small (most are: a reading, a
        // sample) and by a set past `Self.scannedMembers`, so a hostile object of 95,000
        // distinct names costs one hash a name, not a scan of all before it (issue 40: such a
        // 1 MB frame took 67 s).
        var names = Set<String>()
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
            let keyOffset = offset
            let key = try parseString()
            if members.count < Self.scannedMembers {
                if members.contains(where: { $0.key == key }) { throw Self.repeated(key, at: keyOffset) }
            } else {
                if names.isEmpty { names = Set(members.lazy.map(\.key)) }
                guard names.insert(key).inserted else { throw Self.repeated(key, at: keyOffset) }
            }
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
            offset += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            guard offset < bytes.count else { throw fail("unexpected end of the document inside an object") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            throw fail("expected ',' or '}' in an object")
        }
    }

    /// Objects up to this many members are checked for a repeated name by a scan.
    static let scannedMembers = 16

    private static func repeated(_ key: String, at offset: Int) -> JSONParseError {
        let shown = key.count > 64 ? "\(key.prefix(64))…" : key
        return JSONParseError(offset: offset, reason: "the member \"\(shown)\" appears twice")
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        offset += 1
        var elements = [JSONValue]()
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard offset < bytes.count else { throw fail("unexpected end of the document inside an array") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            if bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .array(elements)
            }
            throw fail("expected ',' or ']' in an array")
        }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        offset += 1
        let start = offset
        // Fast path: no escapes.
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
                offset += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("control character inside a string") }
            offset += 1
        }
        var scalars = Array(bytes[start..<offset])
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                offset += 1
                guard offset < bytes.count else { throw fail("unfinished escape") }
                let escaped = bytes[offset]
                offset += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hexQuad()
                    if (0xD800..<0xDC00).contains(code) {
                        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                            throw fail("a high surrogate without its low half")
                        }
                        offset += 2
                        let low = try hexQuad()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("an invalid low surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("an invalid \\u escape") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw fail("unknown escape \\\(Character(Unicode.Scalar(escaped)))")
                }
            default:
                if byte < 0x20 { throw fail("control character inside a string") }
                scalars.append(byte)
                offset += 1
            }
        }
        throw fail("unfinished string")
    }

    private mutating func hexQuad() throws(JSONParseError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw fail("unfinished \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(Unicode.Scalar(bytes[offset])).hexDigitValue else { throw fail("\\u needs four hexadecimal digits") }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// RFC 8259 grammar; exact: plain decimals with at most 15 significant digits are built
    /// from their digits (one correctly rounded division), the rest go to strtod.
    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = offset
        var negative = false
        if bytes[offset] == UInt8(ascii: "-") {
            negative = true
            offset += 1
        }
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw fail("a number needs digits") }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if offset < bytes.count && isDigit(bytes[offset]) { throw fail("a number may not start with 0") }
        } else {
            while offset < bytes.count && isDigit(bytes[offset]) {
                if digits < 19 { mantissa = mantissa * 10 + UInt64(bytes[offset] - 48) }
                digits += 1
                offset += 1
            }
        }
        if offset < bytes.count && bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw fail("a decimal point needs digits after it") }
            while offset < bytes.count && isDigit(bytes[offset]) {
                if digits < 19 {
                    mantissa = mantissa * 10 + UInt64(bytes[offset] - 48)
                    fractionDigits += 1
                }
                if mantissa != 0 || digits > 0 { digits += 1 }
                offset += 1
            }
        }
        var hasExponent = false
        if offset < bytes.count && (bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E")) {
            hasExponent = true
            offset += 1
            if offset < bytes.count && (bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")) { offset += 1 }
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw fail("an exponent needs digits") }
            while offset < bytes.count && isDigit(bytes[offset]) { offset += 1 }
        }
        if !hasExponent && digits <= 15 && fractionDigits <= 22 {
            let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        var text = Array(bytes[start..<offset])
        text.append(0)
        let value = text.withUnsafeBufferPointer { strtod(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), nil) }
        guard value.isFinite else { throw JSONParseError(offset: start, reason: "the number is too large") }
        return value
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
}
