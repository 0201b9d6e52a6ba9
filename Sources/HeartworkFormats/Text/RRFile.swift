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
}

/// RR interval files as HRV tools exchange them:
///
/// - text: one interval per line, or `time interval` per line (whitespace or comma separated);
/// - CSV with a header: the interval column is chosen by name (`--column`, otherwise the first
///   of rr, rri, rr_ms, ibi, ibi_ms, nn, interval, rr_interval), a time column is optional
///   (time, timestamp, t, time_s: seconds or ISO 8601).
///
/// `#` starts a comment; blank lines are skipped. Units are detected by magnitude (a median
/// below 10 means seconds) unless given. Every error names its line.
public enum RRFile {
    static let intervalColumnNames = ["rr", "rri", "rr_ms", "rr (ms)", "ibi", "ibi_ms", "nn", "interval", "rr_interval", "rr_s"]
    static let timeColumnNames = ["time", "timestamp", "t", "time_s", "seconds"]

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
    }

    private static func read(_ reader: TextLineReader, unit requestedUnit: RRUnit?, column: String?) throws(TextInputError) -> RRRecording {
        var values = [Double](), lines = [Int](), times = [Double]()
        var layout: Layout?
        var hasTimes = false
        while true {
            let next: String?
            do { next = try reader.nextLine() } catch { throw .file(error) }
            guard let raw = next else { break }
            let number = reader.lineNumber
            let content = stripComment(raw)
            if content.isEmpty { continue }
            if layout == nil {
                if let header = try headerLayout(content, column: column, line: number) {
                    layout = header
                    hasTimes = header.timeField != nil
                    continue
                }
                if let column {
                    throw .format(TextFormatError(line: number, "--column \(column) needs a CSV header line naming the columns"))
                }
                let fieldCount = split(content, separator: nil).count
                guard fieldCount <= 2 else {
                    throw .format(TextFormatError(line: number, "expected one interval, or `time interval`, per line; found \(fieldCount) fields"))
                }
                layout = Layout(intervalField: fieldCount - 1, timeField: fieldCount == 2 ? 0 : nil, separator: nil)
                hasTimes = fieldCount == 2
            }
            guard let layout else { continue }
            let fields = split(content, separator: layout.separator)
            guard fields.count > max(layout.intervalField, layout.timeField ?? 0) else {
                throw .format(TextFormatError(line: number, "expected at least \(max(layout.intervalField, layout.timeField ?? 0) + 1) fields, found \(fields.count)"))
            }
            let field = fields[layout.intervalField]
            guard let value = Double(field), value.isFinite else {
                throw .format(TextFormatError(line: number, "'\(field)' is not an RR interval (a number in ms or s)"))
            }
            guard value > 0 else {
                throw .format(TextFormatError(line: number, "interval \(field) is not positive"))
            }
            if let timeField = layout.timeField {
                let text = fields[timeField]
                guard let time = parseTime(text) else {
                    throw .format(TextFormatError(line: number, "time '\(text)' is neither seconds nor an ISO 8601 date"))
                }
                if let previous = times.last, time < previous {
                    throw .format(TextFormatError(line: number, "time '\(text)' is earlier than the previous row's"))
                }
                times.append(time)
            }
            values.append(value)
            lines.append(number)
        }
        guard values.count >= 2 else {
            throw .format(TextFormatError(line: nil, "\(values.count) RR interval\(values.count == 1 ? "" : "s") found; at least 2 are needed"))
        }
        let unit = requestedUnit ?? (Statistics.median(values) < 10 ? .seconds : .milliseconds)
        let scale = unit == .seconds ? 1000.0 : 1.0
        var intervals = values
        for index in intervals.indices {
            intervals[index] *= scale
            if intervals[index] > RRValidation.maximumIntervalMilliseconds {
                throw .format(TextFormatError(
                    line: lines[index],
                    "\(formatted(intervals[index])) ms is not a heartbeat interval (at most \(Int(RRValidation.maximumIntervalMilliseconds)) ms, read as \(unit == .seconds ? "seconds" : "milliseconds")); split the recording at the gap or check --unit"))
            }
        }
        return RRRecording(
            intervalsMilliseconds: intervals, timestamps: hasTimes ? times : nil, unit: unit, column: layout?.columnName)
    }

    private static func headerLayout(_ line: Substring, column: String?, line number: Int) throws(TextInputError) -> Layout? {
        guard line.contains(where: { $0.isLetter }) else { return nil }
        let separator: Character? = [",", ";", "\t"].first { line.contains($0) }
        let names = split(line, separator: separator).map { $0.lowercased() }
        // A text line such as "0.8 s" is not a header: headers name columns, values are numbers.
        guard names.contains(where: { Double($0) == nil && parseTime($0) == nil }) else { return nil }
        let wanted = column.map { [$0.lowercased()] } ?? intervalColumnNames
        guard let intervalField = wanted.lazy.compactMap({ names.firstIndex(of: $0) }).first else {
            // A lone word is a bad value, not a header without the right column.
            if column == nil && names.count == 1 { return nil }
            let message = if let column {
                "no column '\(column)' in the header; it has \(names.joined(separator: ", "))"
            } else {
                "no RR interval column in the header; name it with --column (known names: \(intervalColumnNames.joined(separator: ", ")))"
            }
            throw .format(TextFormatError(line: number, message))
        }
        let timeField = timeColumnNames.lazy.compactMap { names.firstIndex(of: $0) }.first
        return Layout(intervalField: intervalField, timeField: timeField, separator: separator, columnName: names[intervalField])
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
        return (try? Date(text, strategy: Date.ISO8601FormatStyle()))?.timeIntervalSince1970
    }

    private static func formatted(_ value: Double) -> String {
        // Found by the fuzzer: Int64(2.2e31) traps; only whole values that fit are printed as integers.
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
