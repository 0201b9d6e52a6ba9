/// RFC 4180 rows, read as the bytes come: quoted fields may hold the separator, doubled quotes
/// and line breaks (CR, LF or CRLF). The separator is the header line's most frequent of `,`
/// `;` and tab.
///
/// Linear in its input and bounded in memory whatever the input (issue 40: a header and a line
/// of 20 million commas took the server from 227 to 720 MiB): a row keeps at most
/// `maximumFields` fields of at most `maximumFieldBytes` bytes each, and at most
/// `maximumRowBytes` in all; a longer row is read to its end without being kept and comes back
/// `overlong`, so its caller names it and reads on. Our own rather than a dependency's: none in
/// the mirror reads incrementally with such bounds, and the Character-based reader before it
/// took 4× as long per byte.
public enum DelimitedText {
    public static let maximumFields = 256
    public static let maximumFieldBytes = 4_096
    public static let maximumRowBytes = 65_536

    public struct Row: Sendable, Hashable {
        public var line: Int
        public var fields: [String]
        /// The line it ends on: later than `line` when a quoted field holds line breaks — or a
        /// quote a cut row left open swallowed the lines after it, which are then lost with it.
        public var lastLine: Int
        /// The row broke a bound (`maximumFields`, `maximumFieldBytes`, `maximumRowBytes`): its
        /// fields are not kept.
        public var overlong: Bool

        public init(line: Int, fields: [String], lastLine: Int? = nil, overlong: Bool = false) {
            self.line = line
            self.fields = fields
            self.lastLine = lastLine ?? line
            self.overlong = overlong
        }

        /// Why the row was left out, naming every line it took with it.
        public func reason(_ error: TextFormatError) -> String {
            guard lastLine > line else { return error.description }
            return "\(error.description) (the row runs on to line \(lastLine) inside quotes, so lines \(line)–\(lastLine) were left out)"
        }

        /// What is said of an overlong row.
        public var overlongReason: String {
            reason(
                TextFormatError(
                    line: line,
                    "the row is longer than a row of an export can be (more than \(DelimitedText.maximumFields) fields, a field over \(DelimitedText.maximumFieldBytes) bytes or \(DelimitedText.maximumRowBytes) bytes in all): left out"
                ))
        }
    }

    /// The separator a header line uses: the most frequent of `,` `;` and tab (`,` when none).
    public static func separator(ofHeader line: some Sequence<UInt8>) -> UInt8 {
        var counts = [0, 0, 0]
        for byte in line {
            switch byte {
            case UInt8(ascii: ","): counts[0] += 1
            case UInt8(ascii: ";"): counts[1] += 1
            case 0x09: counts[2] += 1
            default: break
            }
        }
        // Ties go to the first, as `max` of the candidates in this order did.
        let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09]
        var best = 0
        for index in 1..<3 where counts[index] > counts[best] { best = index }
        return candidates[best]
    }

    /// Every row of a whole text at once (small inputs, tests). Throws when the last quoted
    /// field is not closed or there are more than `maximumRows` rows.
    public static func rows(_ text: String, maximumRows: Int) throws(TextFormatError) -> [Row] {
        var reader = Reader()
        var rows = [Row]()
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var tooMany = false
        reader.feed(bytes) { row in
            if rows.count > maximumRows {
                tooMany = true
                return false
            }
            rows.append(row)
            return true
        }
        if tooMany || rows.count > maximumRows { throw TextFormatError(line: (rows.last?.lastLine ?? 0) + 1, "more than \(maximumRows) rows") }
        if let last = try reader.finish() { rows.append(last) }
        return rows
    }

    /// The incremental reader: `feed` bytes in any chunks, then `finish`.
    public struct Reader: Sendable {
        /// Chosen from the header line when not given (the first row is read whole first).
        public private(set) var separator: UInt8?
        private var fields: [String] = []
        private var field: [UInt8] = []
        private var quoted = false
        private var afterQuote = false
        /// A CR ended the last row (or was read inside quotes): an LF right after it belongs to it.
        private var afterCR = false
        private var line = 1
        private var rowLine = 1
        private var rowBytes = 0
        private var fieldCount = 0
        private var overlong = false
        /// The header line's bytes, kept until its separator is known.
        private var header: [UInt8]? = []
        public private(set) var stopped = false

        public init(separator: UInt8? = nil) {
            self.separator = separator
            if separator != nil { header = nil }
        }

        /// Reads `bytes`, handing each complete row to `row`, which returns false to stop
        /// reading (the rest of the input is then ignored).
        public mutating func feed(_ bytes: some Sequence<UInt8>, _ row: (Row) -> Bool) {
            guard !stopped else { return }
            var iterator = bytes.makeIterator()
            while header != nil, let byte = iterator.next() {
                header!.append(byte)
                if byte == 0x0A || byte == 0x0D || header!.count > DelimitedText.maximumRowBytes {
                    replayHeader(row)
                    if stopped { return }
                }
            }
            while let byte = iterator.next() {
                step(byte, row)
                if stopped { return }
            }
        }

        /// The header line is complete (or too long to be one): its separator is chosen, and its
        /// bytes read (without a byte-order mark).
        private mutating func replayHeader(_ row: (Row) -> Bool) {
            guard var kept = header else { return }
            header = nil
            if kept.starts(with: [0xEF, 0xBB, 0xBF]) { kept.removeFirst(3) }
            separator = DelimitedText.separator(ofHeader: kept.prefix(DelimitedText.maximumRowBytes))
            for byte in kept {
                step(byte, row)
                if stopped { return }
            }
        }

        /// The last row (one that ends without a line break), or nil; throws when a quoted
        /// field is still open.
        public mutating func finish() throws(TextFormatError) -> Row? {
            // A file of one line without a line break: its only row is the header.
            var early: Row?
            replayHeader { made in
                early = made
                return true
            }
            if let early { return early }
            if quoted { throw TextFormatError(line: rowLine, "a quoted field is not closed") }
            guard !field.isEmpty || !fields.isEmpty || fieldCount > 0 else { return nil }
            endField()
            return makeRow()
        }

        private mutating func step(_ byte: UInt8, _ row: (Row) -> Bool) {
            let separator = self.separator ?? UInt8(ascii: ",")
            rowBytes += 1
            if rowBytes > DelimitedText.maximumRowBytes { overlong = true }
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    quoted = false
                    afterQuote = true
                } else {
                    append(byte)
                    if byte == 0x0A {
                        if !afterCR { line += 1 }
                    } else if byte == 0x0D {
                        line += 1
                    }
                }
                afterCR = byte == 0x0D
                return
            }
            let wasAfterCR = afterCR
            afterCR = false
            switch byte {
            case UInt8(ascii: "\""):
                if afterQuote {
                    append(byte)
                    quoted = true
                    afterQuote = false
                } else if field.isEmpty {
                    quoted = true
                } else {
                    append(byte)
                }
            case separator:
                endField()
                afterQuote = false
            case 0x0A where wasAfterCR && fieldCount == 0 && field.isEmpty && rowBytes == 1:
                // The LF of a CRLF that ended the row before.
                rowBytes = 0
            case 0x0A, 0x0D:
                endField()
                afterQuote = false
                afterCR = byte == 0x0D
                let made = makeRow()
                line += 1
                rowLine = line
                if !row(made) { stopped = true }
            default:
                append(byte)
                afterQuote = false
            }
        }

        private mutating func append(_ byte: UInt8) {
            guard !overlong else { return }
            guard field.count < DelimitedText.maximumFieldBytes else {
                overlong = true
                return
            }
            field.append(byte)
        }

        private mutating func endField() {
            fieldCount += 1
            if fieldCount > DelimitedText.maximumFields { overlong = true }
            if !overlong { fields.append(String(decoding: field, as: UTF8.self)) }
            field.removeAll(keepingCapacity: true)
        }

        private mutating func makeRow() -> Row {
            let made = Row(line: rowLine, fields: overlong ? [] : fields, lastLine: line, overlong: overlong)
            fields.removeAll(keepingCapacity: true)
            fieldCount = 0
            rowBytes = 0
            overlong = false
            return made
        }
    }
}
