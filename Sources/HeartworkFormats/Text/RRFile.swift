import Foundation
import HeartworkCore

/// Units RR intervals are written in.
public enum RRUnit: String, Sendable, Hashable, CaseIterable {
    case milliseconds = "ms"
    case seconds = "s"
}

/// RR intervals read from a file, in milliseconds, with optional timestamps.
public struct RRRecording: Sendable, Hashable {
    public var intervalsMilliseconds: [Double]
    /// Seconds (on the file's clock, or since 1970 for ISO 8601 times) of each interval's row.
    public var timestamps: [Double]?
    /// The unit the file was read in (detected or as asked).
    public var unit: RRUnit
    /// The column the intervals came from, for CSV files.
    public var column: String?
    /// Rows left out (not a number, not positive, a time going back, a gap longer than 5 s),
    /// each kind counted with its first line.
    public var warnings: [FileWarning] = []
}

/// RR interval files as HRV tools exchange them:
///
/// - text: one interval per line, or `time interval` per line (whitespace or comma separated);
/// - CSV with a header: the interval column is chosen by name (`--column`, otherwise the first
///   of rr, rri, rr_ms, ibi, ibi_ms, nn, interval, rr_interval, also with a unit such as
///   "RR-interval [ms]", which then sets the unit), a time column is optional (time, timestamp,
///   t, time_s, "Phone timestamp": seconds or ISO 8601, with or without a zone);
/// - the exports of other tools: Kubios HRV's text report (the "RR INTERVAL DATA" section,
///   seconds), Polar Flow's `time interval` text (seconds), Elite HRV's one value per line (ms),
///   Polar Sensor Logger's `Phone timestamp;RR-interval [ms]` (`_RR.txt`) and its PP intervals
///   from an optical sensor (`_PPI.txt`: `Phone timestamp;PP-interval [ms];error estimate
///   [ms];blocker;contact;…`, whose flags mark artifacts, below), SelfLoops' export (a line with
///   the recording's date, then `Time (ms),HR (bpm),R-R (ms)`), Polar's HRM format (`[Params]`
///   … `[HRData]`: only an R-R recording, `Interval=238`, and only its `[HRData]` rows) (see
///   Tests/HeartworkFormatsTests/Resources/rr/README.md for the sources of each layout).
///
/// Artifacts the sensor itself marks are left out and counted (Polar's PPI sample, as its BLE
/// SDK documents `PolarPpiSample`: `blocker` 1 means the interval is invalid, by movement or
/// otherwise; `contact` 0 where contact is supported means no skin contact; `error estimate` is
/// the expected absolute error in ms: above 10 % of its interval, Heartwork's choice, the
/// interval is too uncertain for beat-to-beat HRV).
///
/// `#` starts a comment; blank lines are skipped. Units are detected by magnitude (a median
/// below 10 means seconds) unless given. Every error names its line.
public enum RRFile {
    static let intervalColumnNames = [
        "rr", "rri", "rr_ms", "rr (ms)", "ibi", "ibi_ms", "nn", "interval", "rr_interval", "rr_s", "rr-interval [ms]", "r-r (ms)", "pp-interval [ms]", "ppi",
    ]
    /// Above this share of its interval, a PP interval's error estimate marks it an artifact.
    static let largestErrorShare = 0.1
    static let timeColumnNames = ["time", "timestamp", "t", "time_s", "seconds", "phone timestamp"]

    /// A column name without its unit and punctuation: "RR-interval [ms]" → "rrinterval".
    static func normalized(_ name: String) -> String {
        var text = name.lowercased()
        for (open, close) in [("[", "]"), ("(", ")")] {
            while let a = text.firstIndex(of: Character(open)), let b = text[a...].firstIndex(of: Character(close)) { text.removeSubrange(a...b) }
        }
        for suffix in ["_ms", "_s"] where text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return String(text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// The unit a header names: "[ms]", "(ms)", "_ms" or "[s]", "(s)", "_s".
    static func headerUnit(_ name: String) -> RRUnit? {
        let text = name.lowercased().replacingOccurrences(of: " ", with: "")
        if text.hasSuffix("[ms]") || text.hasSuffix("(ms)") || text.hasSuffix("_ms") { return .milliseconds }
        if text.hasSuffix("[s]") || text.hasSuffix("(s)") || text.hasSuffix("_s") { return .seconds }
        return nil
    }

    public static func read(path: String, unit: RRUnit? = nil, column: String? = nil) throws(TextInputError) -> RRRecording {
        let reader: TextLineReader
        do { reader = try TextLineReader(path: path) } catch { throw .file(error) }
        return try read(reader, unit: unit, column: column)
    }

    public static func read(text: String, unit: RRUnit? = nil, column: String? = nil) throws(TextInputError) -> RRRecording {
        try read(TextLineReader(text: text), unit: unit, column: column)
    }

    private struct Layout {
        var intervalField: Int
        var timeField: Int?
        var separator: Character?
        var columnName: String?
        var unit: RRUnit?
        /// Units of the time column per second ("Time (ms)": 1000).
        var timeDivisor: Double = 1
        /// Polar Sensor Logger's PPI flags, where the header has them.
        var blockerField: Int?
        var errorField: Int?
        var contactField: Int?
        var contactSupportedField: Int?

        /// Why the sensor's own flags make this row an artifact, if they do.
        func artifact(_ fields: [String], interval: Double) -> String? {
            func flag(_ index: Int?) -> Double? { index.flatMap { fields.indices.contains($0) ? Double(fields[$0]) : nil } }
            if flag(blockerField) == 1 { return "an interval the sensor marked blocked (blocker 1: movement or a bad signal)" }
            if flag(contactField) == 0, flag(contactSupportedField) ?? 1 == 1 { return "an interval measured without skin contact (contact 0)" }
            if let error = flag(errorField), error > interval * RRFile.largestErrorShare {
                return "an interval whose error estimate is more than 10 % of it (the first: \(RRFile.formatted(error)) ms of \(RRFile.formatted(interval)) ms)"
            }
            return nil
        }
    }

    private enum KubiosState { case notKubios, report, data, done }

    /// Polar's HRM format: `[Params]` first, then sections; `[HRData]` holds the samples.
    private enum HRMState { case notHRM, params, otherSection, data, done }

    /// Rows left out, by kind: how many and the first one's line.
    private struct Skipped {
        private var kinds: [(what: String, line: Int, count: Int)] = []

        mutating func note(line: Int, _ what: String) {
            let key = what.components(separatedBy: " (").first ?? what
            if let index = kinds.firstIndex(where: { ($0.what.components(separatedBy: " (").first ?? $0.what) == key }) {
                kinds[index].count += 1
            } else {
                kinds.append((what, line, 1))
            }
        }

        var warnings: [FileWarning] {
            kinds.map { FileWarning(line: $0.line, message: $0.count == 1 ? "\($0.what) was left out" : "\($0.count) rows left out: \($0.what), and more like it") }
        }
    }

    private static func read(_ reader: TextLineReader, unit requestedUnit: RRUnit?, column: String?) throws(TextInputError) -> RRRecording {
        var values = [Double]()
        var lines = [Int]()
        var times = [Double]()
        var skipped = Skipped()
        var layout: Layout?
        var hasTimes = false
        var headerUnit: RRUnit?
        // Kubios HRV's text report: its results first, then "RR INTERVAL DATA and SPECTRUM
        // ESTIMATES" with the intervals in seconds in the third comma-separated column (the
        // second is the time), below four header rows, until the column runs out.
        var kubios: KubiosState = .notKubios
        var hrm: HRMState = .notHRM
        var hrmInterval: String?
        // A title or date line above the header (SelfLoops writes the recording's date first):
        // read past, with the error it would have been, in case no header follows.
        var preamble: (error: TextInputError, line: Int)?
        while true {
            let next: String?
            do { next = try reader.nextLine() } catch { throw .file(error) }
            guard let raw = next else { break }
            let number = reader.lineNumber
            let content = stripComment(raw)
            if content.isEmpty { continue }
            if kubios == .notKubios, values.isEmpty, layout == nil, content.hasPrefix("HRV ANALYSIS RESULTS") || content.hasPrefix("Kubios HRV") {
                kubios = .report
            }
            if hrm == .notHRM, kubios == .notKubios, values.isEmpty, layout == nil, content.lowercased() == "[params]" {
                hrm = .params
                continue
            }
            switch hrm {
            case .notHRM: break
            case .params, .otherSection:
                if content.hasPrefix("[") {
                    guard content.lowercased() == "[hrdata]" else {
                        hrm = .otherSection
                        continue
                    }
                    // Polar HRM: "Interval" is the sampling interval in seconds; 238 marks R-R data.
                    guard hrmInterval == "238" else {
                        throw .format(
                            TextFormatError(
                                line: number,
                                hrmInterval.map { "a Polar HRM file of heart rate every \($0) s, not RR intervals: only an R-R recording (Interval=238 in [Params]) has them" }
                                    ?? "a Polar HRM file whose [Params] has no Interval: only an R-R recording (Interval=238) has RR intervals"))
                    }
                    hrm = .data
                    layout = Layout(intervalField: 0, timeField: nil, separator: nil, columnName: "HRData", unit: .milliseconds)
                    headerUnit = .milliseconds
                } else if hrm == .params, content.lowercased().hasPrefix("interval=") {
                    hrmInterval = content.dropFirst("interval=".count).trimmingWhitespace.description
                }
                continue
            case .data:
                if content.hasPrefix("[") {
                    hrm = .done
                    continue
                }
            case .done: continue
            }
            switch kubios {
            case .notKubios: break
            case .report:
                if content.hasPrefix("RR INTERVAL DATA") {
                    kubios = .data
                    layout = Layout(intervalField: 2, timeField: 1, separator: ",", columnName: "RR interval")
                    hasTimes = true
                    headerUnit = .seconds
                }
                continue
            case .data:
                let fields = split(content, separator: ",")
                guard fields.count > 2 else { continue }
                if fields[2].isEmpty {
                    if values.isEmpty { continue }
                    kubios = .done
                    continue
                }
                if Double(fields[2]) == nil, values.isEmpty { continue }  // the section's header rows
            case .done: continue
            }
            if layout == nil {
                let found: Layout?
                do {
                    found = try headerLayout(content, column: column, line: number)
                } catch {
                    // Not a header of RR intervals: a title or date line above the header, if one
                    // follows; if a row of data follows, this was the header, and its error stands.
                    if preamble == nil { preamble = (error, number) }
                    continue
                }
                if let header = found {
                    layout = header
                    hasTimes = header.timeField != nil
                    headerUnit = header.unit
                    if let preamble { skipped.note(line: preamble.line, "a line above the header (a title or the recording's date)") }
                    continue
                }
                if let preamble { throw preamble.error }
                if let column {
                    throw .format(TextFormatError(line: number, "--column \(column) needs a CSV header line naming the columns"))
                }
                let fieldCount = split(content, separator: nil).count
                guard fieldCount > 0 else {
                    // Only separators (";", ","): nothing to read, and nothing to lay out by.
                    skipped.note(line: number, "a row with too few fields")
                    continue
                }
                guard fieldCount <= 2 else {
                    throw .format(TextFormatError(line: number, "expected one interval, or `time interval`, per line; found \(fieldCount) fields"))
                }
                layout = Layout(intervalField: fieldCount - 1, timeField: fieldCount == 2 ? 0 : nil, separator: nil)
                hasTimes = fieldCount == 2
            }
            guard let layout else { continue }
            let fields = split(content, separator: layout.separator)
            guard fields.count > max(layout.intervalField, layout.timeField ?? 0) else {
                skipped.note(line: number, "a row with too few fields")
                continue
            }
            let field = fields[layout.intervalField]
            guard let value = Double(field), value.isFinite else {
                skipped.note(line: number, "a row whose interval is not a number ('\(field.prefix(40))')")
                continue
            }
            guard value > 0 else {
                skipped.note(line: number, "a row whose interval is not positive")
                continue
            }
            if let why = layout.artifact(fields, interval: value) {
                skipped.note(line: number, why)
                continue
            }
            if let timeField = layout.timeField {
                let text = fields[timeField]
                guard let time = parseTime(text).map({ Double(text) != nil ? $0 / layout.timeDivisor : $0 }) else {
                    skipped.note(line: number, "a row whose time is neither seconds nor an ISO 8601 date")
                    continue
                }
                if let previous = times.last, time < previous {
                    skipped.note(line: number, "a row whose time goes back")
                    continue
                }
                times.append(time)
            }
            values.append(value)
            lines.append(number)
        }
        if layout == nil, let preamble { throw preamble.error }
        if hrm == .params || hrm == .otherSection {
            throw .format(TextFormatError(line: nil, "a Polar HRM file without its [HRData] section: nothing to read"))
        }
        if kubios == .report {
            throw .format(TextFormatError(line: nil, "a Kubios HRV report without its RR INTERVAL DATA section: export the report with the RR data"))
        }
        guard values.count >= 2 else {
            throw .format(TextFormatError(line: nil, "\(values.count) RR interval\(values.count == 1 ? "" : "s") found; at least 2 are needed"))
        }
        let unit = requestedUnit ?? headerUnit ?? (Statistics.median(values) < 10 ? .seconds : .milliseconds)
        let scale = unit == .seconds ? 1000.0 : 1.0
        let limit = RRValidation.maximumIntervalMilliseconds
        // Most intervals too long to be beats: the unit is wrong, not the recording.
        let tooLong = values.filter { $0 * scale > limit }.count
        if tooLong * 2 > values.count {
            throw .format(
                TextFormatError(
                    line: lines.first,
                    "\(tooLong) of \(values.count) intervals are longer than \(Int(limit)) ms read as \(unit == .seconds ? "seconds" : "milliseconds"): is the unit right? (--unit ms or s)"
                ))
        }
        // A few: gaps in the recording (a missed beat, the strap off), left out and counted.
        var intervals = [Double]()
        var keptTimes = [Double]()
        intervals.reserveCapacity(values.count)
        for index in values.indices {
            let milliseconds = values[index] * scale
            if milliseconds > limit {
                skipped.note(line: lines[index], "an interval longer than \(Int(limit)) ms (a gap in the recording, not a beat; the first was \(formatted(milliseconds)) ms)")
                continue
            }
            intervals.append(milliseconds)
            if hasTimes { keptTimes.append(times[index]) }
        }
        var recording = RRRecording(
            intervalsMilliseconds: intervals, timestamps: hasTimes ? keptTimes : nil, unit: unit, column: layout?.columnName)
        recording.warnings = skipped.warnings
        return recording
    }

    private static func headerLayout(_ line: Substring, column: String?, line number: Int) throws(TextInputError) -> Layout? {
        guard line.contains(where: { $0.isLetter }) else { return nil }
        let separator: Character? = [",", ";", "\t"].first { line.contains($0) }
        let original = split(line, separator: separator)
        let names = original.map { $0.lowercased() }
        let keys = original.map(normalized)
        // A text line such as "0.8 s" is not a header: headers name columns, values are numbers.
        guard names.contains(where: { Double($0) == nil && parseTime($0) == nil }) else { return nil }
        let wanted = column.map { [$0.lowercased()] } ?? intervalColumnNames
        // --column by its words alone also finds it: "PP-interval" names "PP-interval [ms]".
        let byName = wanted.lazy.compactMap({ names.firstIndex(of: $0) }).first ?? column.flatMap { keys.firstIndex(of: normalized($0)) }
        guard let intervalField = byName ?? (column == nil ? intervalColumnNames.map(normalized).lazy.compactMap({ keys.firstIndex(of: $0) }).first : nil) else {
            // A lone word is a bad value, not a header without the right column.
            if column == nil && names.count == 1 { return nil }
            let message =
                if let column {
                    "no column '\(column)' in the header; it has \(names.joined(separator: ", "))"
                } else {
                    "no RR interval column in the header; name it with --column (known names: \(intervalColumnNames.joined(separator: ", ")))"
                }
            throw .format(TextFormatError(line: number, message))
        }
        let timeField =
            timeColumnNames.lazy.compactMap { names.firstIndex(of: $0) }.first
            ?? timeColumnNames.map(normalized).lazy.compactMap { keys.firstIndex(of: $0) }.first
        // Polar Sensor Logger's PPI flags; "contact" twice is status, then supported.
        let contacts = keys.indices.filter { keys[$0] == "contact" || keys[$0] == "skincontact" || keys[$0] == "contactstatus" }
        let supported = keys.firstIndex { $0 == "contactsupported" || $0 == "skincontactsupported" } ?? (contacts.count > 1 ? contacts[1] : nil)
        return Layout(
            intervalField: intervalField, timeField: timeField, separator: separator, columnName: original[intervalField],
            unit: headerUnit(original[intervalField])
                // "RR-interval [ms]" without a separator splits at the space: the unit is the next word.
                ?? (separator == nil && original.indices.contains(intervalField + 1) && original[intervalField + 1].hasPrefix("[")
                    ? headerUnit(original[intervalField] + original[intervalField + 1]) : nil),
            timeDivisor: timeField.flatMap { headerUnit(original[$0]) } == .milliseconds ? 1000 : 1,
            blockerField: keys.firstIndex(of: "blocker") ?? keys.firstIndex(of: "blockerbit"),
            errorField: keys.firstIndex(of: "errorestimate"),
            contactField: contacts.first,
            contactSupportedField: supported)
    }

    /// The line without its comment and surrounding white space. ASCII lines (nearly all)
    /// are cut on their bytes: Character-by-Character trimming made reading the file cost
    /// more than the whole HRV analysis of it.
    private static func stripComment(_ line: String) -> Substring {
        let utf8 = line.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            let content = line.firstIndex(of: "#").map { line[..<$0] } ?? Substring(line)
            return content.trimmingWhitespace
        }
        var end = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        var start = utf8.startIndex
        while start < end, isASCIISpace(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isASCIISpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return line[start..<end]
    }

    private static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == 0x0B || byte == 0x0C
    }

    private static func split(_ line: Substring, separator: Character?) -> [String] {
        // The common case, one plain number on the line, needs no splitting at all.
        if line.utf8.allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") }) {
            return [String(line)]
        }
        let parts: [Substring]
        if let separator {
            parts = line.split(separator: separator, omittingEmptySubsequences: false)
        } else {
            parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == ";" })
        }
        return parts.map { part in
            var field = part.trimmingWhitespace
            if field.count >= 2 && field.first == "\"" && field.last == "\"" { field = field.dropFirst().dropLast() }
            return String(field)
        }
    }

    private static func parseTime(_ text: String) -> Double? {
        if let seconds = Double(text), seconds.isFinite { return seconds }
        guard text.contains("T") || text.contains("-") else { return nil }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date.timeIntervalSince1970
        }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date.timeIntervalSince1970 }
        // A local time without a zone (Polar Sensor Logger's "2026-06-04T06:58:03.256"): read on
        // the UTC clock, which keeps the differences between rows, all a recording needs.
        guard text.contains("T"), !text.hasSuffix("Z"), text.split(separator: "T").last.map({ !$0.contains("+") && !$0.contains("-") }) ?? false else { return nil }
        if let date = try? Date(text + "Z", strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date.timeIntervalSince1970
        }
        return (try? Date(text + "Z", strategy: Date.ISO8601FormatStyle()))?.timeIntervalSince1970
    }

    static func formatted(_ value: Double) -> String {
        // Found by the fuzzer: Int64(2.2e31) traps; only whole values that fit are printed as integers.
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
