import Foundation
import HeartworkCore

/// A past strength session read from another app's export.
public struct ImportedLiftingSession: Sendable, Hashable {
    public struct Set: Sendable, Hashable {
        public var reps: Int?
        public var weightKilograms: Double
        /// "warmup", "dropset", "failure" or "normal" (Hevy's set types; Strong's W/D/F orders).
        public var kind: String
        /// A timed set's seconds (Strong's `Seconds`, Hevy's `duration_seconds`), when above 0.
        public var seconds: Double? = nil
        /// Strong's `Distance` (in the file's unit, converted to metres), Hevy's `distance_km`.
        public var distanceMeters: Double? = nil
        /// Rate of perceived exertion, 1–10, when logged.
        public var rpe: Double? = nil
    }

    public struct Exercise: Sendable, Hashable {
        public var name: String
        public var sets: [Set]
    }

    public var name: String
    public var startedAt: Date
    public var durationSeconds: Double?
    public var notes: String?
    public var exercises: [Exercise]
}

public struct LiftingLogImport: Sendable {
    /// "strong" or "hevy".
    public var source: String
    public var sessions: [ImportedLiftingSession]
    /// Rows left out and why ("line 12: a rest timer row").
    public var skipped: [String]
}

/// Reads a Strong or a Hevy CSV export (the two logs lifters keep on their phones). The
/// format is recognised by its header row:
///
/// - Strong: `Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,
///   Notes,Workout Notes,RPE` (comma or semicolon separated; older exports add `Weight Unit`
///   and call the duration `Workout Duration`; newer ones name the unit in the header:
///   `Weight (kg)` or `Weight (lbs)`, `Distance (meters)`, `(km)` or `(miles)`); dates
///   `yyyy-MM-dd HH:mm:ss` in the phone's local time; the weight in the header's unit, else
///   `Weight Unit`'s, else the `unit` the importer is told; set orders `W` (warm-up), `D`
///   (drop set), `F` (failure); "Rest Timer" rows skipped.
/// - Hevy: `title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,
///   set_index,set_type,weight_kg (or weight_lbs),reps,distance_km (or distance_miles),
///   duration_seconds,rpe`; times `d MMM yyyy, HH:mm` local.
///
/// Local times are placed in `timeZone` (the user's). A row that cannot be read (a date, an
/// exercise, reps or a weight that make no sense) is left out and listed in `skipped` with its
/// line; only a file that is not an export at all (its header) is refused.
public enum LiftingLogCSV {
    /// Rows read at most (a lifter's ten years in Strong are some 50,000); later rows are not
    /// read, and the import says so.
    public static let maximumRows = 200_000
    /// What the sessions read may hold in memory (names, notes, sets), a running budget:
    /// past it the rest of the file is not read, and the import says so.
    public static let maximumRetainedBytes = 64 << 20

    /// Reads a whole export at once (see `LiftingLogReader` for one read as it arrives).
    public static func read(_ text: String, timeZone: TimeZone, poundsByDefault: Bool = false) throws(TextFormatError) -> LiftingLogImport {
        var reader = LiftingLogReader(timeZone: timeZone, poundsByDefault: poundsByDefault)
        try reader.feed(Array(text.utf8))
        return try reader.finish()
    }

    /// A positive number of an optional column (seconds, distance, RPE); nil when empty, zero
    /// or not a number (these add to a set; they never cost it).
    static func extra(_ text: String, scale: Double = 1, range: ClosedRange<Double> = 0...1_000_000) -> Double? {
        guard let value = number(text), value > 0, range.contains(value) else { return nil }
        return value * scale
    }

    static func column(_ names: [String], _ candidates: [String]) -> Int? {
        for candidate in candidates { if let i = names.firstIndex(of: candidate) { return i } }
        return nil
    }

    /// A row that ends before the columns holding its set's weight and reps (a file cut
    /// mid-row, a damaged line) is named and left out, not read as an empty set.
    static func requireSetFields(_ row: DelimitedText.Row, through last: Int, of columns: Int) throws(TextFormatError) {
        guard row.fields.count > last else {
            throw TextFormatError(line: row.line, "the row ends after \(row.fields.count) of \(columns) columns, before its weight and reps: cut short, left out")
        }
    }

    static func formatter(_ format: String, _ timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = format
        return formatter
    }

    static func number(_ text: String) -> Double? {
        let trimmed = text.strengthTrimmed.replacingOccurrences(of: ",", with: ".")
        guard !trimmed.isEmpty else { return 0 }
        guard let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    static func reps(_ text: String, line: Int) throws(TextFormatError) -> Int? {
        let trimmed = text.strengthTrimmed.replacingOccurrences(of: ",", with: ".")  // "5,0" in a semicolon export
        guard !trimmed.isEmpty else { return nil }
        guard let value = Double(trimmed), value.isFinite, value >= 0, value <= 1000, value == value.rounded() else {
            throw TextFormatError(line: line, "reps \"\(trimmed.prefix(20))\" is not a whole number from 0 to 1000")
        }
        return Int(value)
    }

    static func weight(_ text: String, pounds: Bool, line: Int) throws(TextFormatError) -> Double {
        guard let value = number(text), value >= 0, value <= (pounds ? 2204 : 1000) else {
            throw TextFormatError(line: line, "weight \"\(text.strengthTrimmed.prefix(20))\" is not a number from 0 to \(pounds ? "2204 lb" : "1000 kg")")
        }
        return pounds ? BodyMass.kilograms(fromPounds: value) : value
    }

    /// "1h 5m", "45m", "3600" (seconds), "01:05:00".
    static func duration(_ text: String) -> Double? {
        let t = text.strengthTrimmed.lowercased()
        if t.isEmpty { return nil }
        if let seconds = Double(t), seconds.isFinite, seconds >= 0 { return seconds }
        if t.contains(":") {
            let parts = t.split(separator: ":").compactMap { Double($0) }
            guard parts.count == 3 else { return nil }
            return parts[0] * 3600 + parts[1] * 60 + parts[2]
        }
        var total = 0.0
        var digits = ""
        var found = false
        for c in t {
            if c.isNumber {
                digits.append(c)
                continue
            }
            guard let value = Double(digits) else {
                digits = ""
                continue
            }
            switch c {
            case "h":
                total += value * 3600
                found = true
            case "m":
                total += value * 60
                found = true
            case "s":
                total += value
                found = true
            default: break
            }
            digits = ""
        }
        return found ? total : nil
    }

}
