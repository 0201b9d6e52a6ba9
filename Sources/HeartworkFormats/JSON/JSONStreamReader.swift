/// Reads a JSON document as it goes, without building a tree: the caller asks for the value
/// it expects at each place and gets typed errors naming the path. Large documents (a
/// 24-hour workout) then take little more memory than the typed arrays they fill, and a
/// value that breaks a limit is refused when it is met rather than after all is read.
/// The grammar is `JSONValue`'s (the same strict parser underneath).
struct JSONStreamReader: ~Copyable {
    private var parser: JSONParser

    init(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int = 0) {
        parser = JSONParser(bytes: bytes, maximumDepth: 64)
        parser.offset = min(max(0, offset), bytes.count)
        parser.skipWhitespace()
    }

    /// Where the next value begins (for `init(_:at:)`: reading a value again once what it
    /// depends on is known).
    var offset: Int {
        mutating get {
            parser.skipWhitespace()
            return parser.offset
        }
    }

    /// Passes over the next value without building it: strings, arrays and objects by their
    /// brackets (a value read again later is checked then). Throws when the document ends first.
    mutating func skipValue() throws {
        parser.skipWhitespace()
        let bytes = parser.bytes
        var i = parser.offset
        var depth = 0
        repeat {
            guard i < bytes.count else { throw notJSON(JSONParseError(offset: i, reason: "the document ends inside a value")) }
            switch bytes[i] {
            case UInt8(ascii: "\""):
                i += 1
                while i < bytes.count && bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
                i += 1
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                guard depth <= 64 else { throw notJSON(JSONParseError(offset: i, reason: "nested more than 64 deep")) }
                i += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                i += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x0A, 0x0D, 0x09:
                guard depth > 0 else { break }
                i += 1
            default:
                // A number or literal: up to the next delimiter.
                while i < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
            }
        } while depth > 0 && i <= bytes.count
        guard depth == 0, i <= bytes.count else { throw notJSON(JSONParseError(offset: bytes.count, reason: "the document ends inside a value")) }
        parser.offset = i
    }

    /// What kind of value comes next (nil at the end of the document).
    enum Next { case object, array, string, number, bool, null }

    mutating func next() -> Next? {
        parser.skipWhitespace()
        guard parser.offset < parser.bytes.count else { return nil }
        switch parser.bytes[parser.offset] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: return .number
        }
    }

    /// Reads an object, calling `member` once per member with its name; the closure must read
    /// the member's value. A repeated name is an error.
    mutating func readObject(path: String, _ member: (inout JSONStreamReader, String) throws -> Void) throws {
        guard next() == .object else { throw JSONFieldError(.wrongType, path: path, try describeUnexpected(expected: "an object")) }
        parser.offset += 1
        var seen = Set<String>()
        parser.skipWhitespace()
        if parser.offset < parser.bytes.count && parser.bytes[parser.offset] == UInt8(ascii: "}") {
            parser.offset += 1
            return
        }
        while true {
            parser.skipWhitespace()
            guard parser.offset < parser.bytes.count, parser.bytes[parser.offset] == UInt8(ascii: "\"") else {
                throw notJSON(parser.fail("expected a member name in quotes"))
            }
            let keyOffset = parser.offset
            let key = try syntax { (parser: inout JSONParser) throws(JSONParseError) in try parser.parseString() }
            guard seen.insert(key).inserted else {
                throw notJSON(JSONParseError(offset: keyOffset, reason: "the member \"\(key)\" appears twice"))
            }
            parser.skipWhitespace()
            guard parser.offset < parser.bytes.count, parser.bytes[parser.offset] == UInt8(ascii: ":") else {
                throw notJSON(parser.fail("expected ':' after a member name"))
            }
            parser.offset += 1
            try member(&self, key)
            parser.skipWhitespace()
            guard parser.offset < parser.bytes.count else { throw notJSON(parser.fail("unexpected end of the document inside an object")) }
            if parser.bytes[parser.offset] == UInt8(ascii: ",") {
                parser.offset += 1
                continue
            }
            if parser.bytes[parser.offset] == UInt8(ascii: "}") {
                parser.offset += 1
                return
            }
            throw notJSON(parser.fail("expected ',' or '}' in an object"))
        }
    }

    /// Reads an array, calling `element` once per element with its index.
    mutating func readArray(path: String, _ element: (inout JSONStreamReader, Int) throws -> Void) throws {
        guard next() == .array else { throw JSONFieldError(.wrongType, path: path, try describeUnexpected(expected: "an array")) }
        parser.offset += 1
        parser.skipWhitespace()
        if parser.offset < parser.bytes.count && parser.bytes[parser.offset] == UInt8(ascii: "]") {
            parser.offset += 1
            return
        }
        var index = 0
        while true {
            parser.skipWhitespace()
            try element(&self, index)
            index += 1
            parser.skipWhitespace()
            guard parser.offset < parser.bytes.count else { throw notJSON(parser.fail("unexpected end of the document inside an array")) }
            if parser.bytes[parser.offset] == UInt8(ascii: ",") {
                parser.offset += 1
                continue
            }
            if parser.bytes[parser.offset] == UInt8(ascii: "]") {
                parser.offset += 1
                return
            }
            throw notJSON(parser.fail("expected ',' or ']' in an array"))
        }
    }

    mutating func readString(path: String) throws -> String {
        guard next() == .string else { throw JSONFieldError(.wrongType, path: path, try describeUnexpected(expected: "a string")) }
        return try syntax { (parser: inout JSONParser) throws(JSONParseError) in try parser.parseString() }
    }

    mutating func readNumber(path: String, expected: String = "a number") throws -> Double {
        guard next() == .number else { throw JSONFieldError(.wrongType, path: path, try describeUnexpected(expected: expected)) }
        return try syntax { (parser: inout JSONParser) throws(JSONParseError) in try parser.parseNumber() }
    }

    mutating func readBool(path: String) throws -> Bool {
        guard next() == .bool else { throw JSONFieldError(.wrongType, path: path, try describeUnexpected(expected: "true or false")) }
        if parser.bytes[parser.offset] == UInt8(ascii: "t") {
            try syntax { (parser: inout JSONParser) throws(JSONParseError) in try parser.literal("true") }
            return true
        }
        try syntax { (parser: inout JSONParser) throws(JSONParseError) in try parser.literal("false") }
        return false
    }

    /// Consumes `null` when it comes next.
    mutating func readNull() throws -> Bool {
        guard next() == .null else { return false }
        try syntax { (parser: inout JSONParser) throws(JSONParseError) in try parser.literal("null") }
        return true
    }

    /// Reads whatever value comes next as a tree (small values: an entry, a workout).
    mutating func readValue() throws -> JSONValue {
        parser.skipWhitespace()
        return try syntax { (parser: inout JSONParser) throws(JSONParseError) in try parser.parseValue(depth: 4) }
    }

    /// The document must end here.
    mutating func finish() throws {
        parser.skipWhitespace()
        guard parser.offset == parser.bytes.count else { throw notJSON(parser.fail("unexpected text after the JSON value")) }
    }

    /// For a wrong type: a syntax error if what comes is not JSON at all, otherwise "expected …".
    private mutating func describeUnexpected(expected: String) throws -> String {
        let start = parser.offset
        do {
            _ = try parser.parseValue(depth: 1)
        } catch {
            throw notJSON(error)
        }
        parser.offset = start
        if next() == .null { return "\(expected) was expected, found null" }
        return "expected \(expected)"
    }

    private mutating func syntax<T>(_ body: (inout JSONParser) throws(JSONParseError) -> T) throws -> T {
        do {
            return try body(&parser)
        } catch {
            throw notJSON(error)
        }
    }

    private func notJSON(_ error: JSONParseError) -> JSONFieldError {
        JSONFieldError(.notJSON, path: nil, "the body is not valid JSON: \(error)")
    }
}
