/// A streaming scanner for machine-written XML such as Apple Health's `export.xml`: bytes in
/// any chunks, start and end tags out, with their attributes (entities decoded), line numbers
/// for errors, and bounded memory (a tag may not exceed `maximumTagBytes`).
///
/// Why not Foundation's `XMLParser`: it has no push interface (an export inflated from a zip
/// arrives in chunks), and on this toolchain it traps on some malformed input (four fuzzer
/// findings in `ActivityXMLReader`, each worked around); this scanner is plain Swift over
/// bytes, reads only what the export format uses (elements, attributes, comments,
/// processing instructions, a DOCTYPE with its internal subset, CDATA, text — the last three
/// skipped), and is fuzzed with the other decoders.
public struct ExportXMLScanner: Sendable {
    public enum Event: Sendable, Hashable {
        case start(name: String, attributes: [String: String], line: Int)
        case end(name: String, line: Int)
    }

    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }

        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }
    }

    public var maximumTagBytes = 1 << 20
    public private(set) var line = 1
    var pending: [UInt8] = []
    var failed: Failure?
    /// Open elements, to check that ends match starts.
    var open: [String] = []
    public private(set) var sawRoot = false

    public init() {}

    /// Scans the bytes; returns the events they complete, or throws at the first fault (the
    /// events before it have been returned by earlier calls or are in `partial`).
    public mutating func feed(_ bytes: some Collection<UInt8>, _ visit: (Event) throws(Failure) -> Void) throws(Failure) {
        if let failed { throw failed }
        pending.append(contentsOf: bytes)
        var position = 0
        defer {
            pending.removeFirst(min(position, pending.count))
        }
        let count = pending.count
        do throws(Failure) {
            while position < count {
                // Text up to the next '<' is skipped (counting lines).
                guard let lt = pending[position...].firstIndex(of: UInt8(ascii: "<")) else {
                    line += pending[position...].count { $0 == 10 }
                    position = count
                    break
                }
                line += pending[position..<lt].count { $0 == 10 }
                position = lt
                guard let (event, length, closes) = try scanMarkup(at: position) else { break }  // needs more bytes
                position += length
                if let event {
                    try visit(event)
                    if closes, case .start(let name, _, let at) = event { try visit(.end(name: name, line: at)) }
                }
            }
            if count - position > maximumTagBytes {
                throw Failure(line: line, message: "a tag longer than \(maximumTagBytes) bytes (not an export, or a damaged one)")
            }
        } catch {
            failed = error
            throw error
        }
    }

    /// Call at the end of the input.
    public mutating func finish() throws(Failure) {
        if let failed { throw failed }
        if pending.contains(where: { $0 == UInt8(ascii: "<") }) { throw fail("the file ends inside a tag (cut short?)") }
        if let unclosed = open.last { throw fail("the file ends before </\(unclosed)> (cut short?)") }
        if !sawRoot { throw fail("no XML element in the file") }
    }

    mutating func fail(_ message: String) -> Failure {
        let failure = Failure(line: line, message: message)
        failed = failure
        return failure
    }

    /// The markup at `start` ('<'): the event (nil for skipped markup) and its length; nil
    /// when the buffer ends before the markup does.
    mutating func scanMarkup(at start: Int) throws(Failure) -> (Event?, Int, Bool)? {
        let b = pending
        let count = b.count
        guard start + 1 < count else { return nil }
        let next = b[start + 1]
        if next == UInt8(ascii: "?") {  // processing instruction or declaration
            guard let end = find(b, [UInt8(ascii: "?"), UInt8(ascii: ">")], from: start + 2) else { return nil }
            countLines(b, start, end + 2)
            return (nil, end + 2 - start, false)
        }
        if next == UInt8(ascii: "!") {
            if hasPrefix(b, at: start, "<!--") {
                guard let end = find(b, Array("-->".utf8), from: start + 4) else { return nil }
                countLines(b, start, end + 3)
                return (nil, end + 3 - start, false)
            }
            if hasPrefix(b, at: start, "<![CDATA[") {
                guard let end = find(b, Array("]]>".utf8), from: start + 9) else { return nil }
                countLines(b, start, end + 3)
                return (nil, end + 3 - start, false)
            }
            if count - start < 9 { return nil }
            if hasPrefix(b, at: start, "<!DOCTYPE") {
                // To the '>' that closes it, past an internal subset in [ ] and quoted strings.
                var i = start + 9
                var depth = 0
                var quote: UInt8 = 0
                while i < count {
                    let c = b[i]
                    if quote != 0 {
                        if c == quote { quote = 0 }
                    } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                        quote = c
                    } else if c == UInt8(ascii: "[") {
                        depth += 1
                    } else if c == UInt8(ascii: "]") {
                        depth -= 1
                    } else if c == UInt8(ascii: ">") && depth <= 0 {
                        countLines(b, start, i + 1)
                        return (nil, i + 1 - start, false)
                    }
                    i += 1
                }
                return nil
            }
            throw Failure(line: line, message: "unexpected markup \"<!\"")
        }
        // A start or end tag: up to the '>' outside quotes.
        var i = start + 1
        var quote: UInt8 = 0
        var end = -1
        while i < count {
            let c = b[i]
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == UInt8(ascii: ">") {
                end = i
                break
            } else if c == UInt8(ascii: "<") {
                throw Failure(line: line, message: "'<' inside a tag")
            }
            i += 1
        }
        guard end >= 0 else { return nil }
        let tagLine = line
        countLines(b, start, end + 1)
        if next == UInt8(ascii: "/") {
            let name = try nameAt(b, start + 2, end, tagLine)
            guard let expected = open.popLast() else { throw Failure(line: tagLine, message: "</\(name)> closes nothing") }
            guard expected == name else { throw Failure(line: tagLine, message: "</\(name)> where </\(expected)> was expected") }
            return (.end(name: name, line: tagLine), end + 1 - start, false)
        }
        let selfClosing = b[end - 1] == UInt8(ascii: "/")
        let contentEnd = selfClosing ? end - 1 : end
        let (name, afterName) = try nameAndRest(b, start + 1, contentEnd, tagLine)
        if open.isEmpty && sawRoot { throw Failure(line: tagLine, message: "a second root element <\(name)>") }
        sawRoot = true
        let attributes = try parseAttributes(b, afterName, contentEnd, tagLine)
        // A self-closing tag is reported as a start and an end (by `feed`).
        if !selfClosing { open.append(name) }
        guard open.count <= 256 else { throw Failure(line: tagLine, message: "elements nested more than 256 deep") }
        return (.start(name: name, attributes: attributes, line: tagLine), end + 1 - start, selfClosing)
    }

    func hasPrefix(_ b: [UInt8], at start: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard start + count <= b.count else { return false }
        return text.withUTF8Buffer { prefix in (0..<count).allSatisfy { b[start + $0] == prefix[$0] } }
    }

    func find(_ b: [UInt8], _ needle: [UInt8], from: Int) -> Int? {
        guard needle.count > 0, from + needle.count <= b.count else { return nil }
        var i = from
        while i + needle.count <= b.count {
            if b[i] == needle[0] {
                var k = 1
                while k < needle.count && b[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    mutating func countLines(_ b: [UInt8], _ from: Int, _ to: Int) {
        var i = from
        while i < to {
            if b[i] == 10 { line += 1 }
            i += 1
        }
    }

    static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2D || c == 0x2E || c == 0x3A || c >= 0x80
    }

    /// An end tag's name: a name, then nothing but white space.
    func nameAt(_ b: [UInt8], _ from: Int, _ to: Int, _ line: Int) throws(Failure) -> String {
        let (name, end) = try nameAndRest(b, from, to, line)
        guard b[end..<to].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            throw Failure(line: line, message: "unexpected text in an end tag")
        }
        return name
    }

    func nameAndRest(_ b: [UInt8], _ from: Int, _ to: Int, _ line: Int) throws(Failure) -> (String, Int) {
        var i = from
        while i < to && Self.isNameByte(b[i]) { i += 1 }
        guard i > from, i - from <= 256 else { throw Failure(line: line, message: "a tag without a valid name") }
        return (String(decoding: b[from..<i], as: UTF8.self), i)
    }

    func parseAttributes(_ b: [UInt8], _ from: Int, _ to: Int, _ line: Int) throws(Failure) -> [String: String] {
        var attributes = [String: String]()
        var i = from
        func skipSpace() {
            while i < to && (b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D) { i += 1 }
        }
        while true {
            skipSpace()
            if i >= to { return attributes }
            let nameStart = i
            while i < to && Self.isNameByte(b[i]) { i += 1 }
            guard i > nameStart, i - nameStart <= 256 else { throw Failure(line: line, message: "an attribute without a valid name") }
            let name = String(decoding: b[nameStart..<i], as: UTF8.self)
            skipSpace()
            guard i < to, b[i] == UInt8(ascii: "=") else { throw Failure(line: line, message: "attribute \(name) has no value") }
            i += 1
            skipSpace()
            guard i < to, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                throw Failure(line: line, message: "attribute \(name)'s value is not quoted")
            }
            let quote = b[i]
            i += 1
            let valueStart = i
            while i < to && b[i] != quote { i += 1 }
            guard i < to else { throw Failure(line: line, message: "attribute \(name)'s value is not closed") }
            guard attributes[name] == nil else { throw Failure(line: line, message: "attribute \(name) appears twice") }
            attributes[name] = try Self.decodeEntities(b[valueStart..<i], line: line)
            i += 1
        }
    }

    /// The five predefined entities and numeric character references.
    static func decodeEntities(_ raw: ArraySlice<UInt8>, line: Int) throws(Failure) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var out = [UInt8]()
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            let c = raw[i]
            guard c == UInt8(ascii: "&") else {
                out.append(c)
                i += 1
                continue
            }
            guard let semicolon = raw[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                throw Failure(line: line, message: "an '&' that starts no entity")
            }
            let entity = String(decoding: raw[(i + 1)..<semicolon], as: UTF8.self)
            switch entity {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                let scalarValue: UInt32? =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst(), radix: 10) : nil
                guard let scalarValue, let scalar = Unicode.Scalar(scalarValue), scalarValue != 0 else {
                    throw Failure(line: line, message: "unknown entity &\(entity);")
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            i = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
