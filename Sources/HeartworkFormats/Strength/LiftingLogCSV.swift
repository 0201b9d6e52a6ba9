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
    public static let maximumRows = 200_000

    public static func read(_ text: String, timeZone: TimeZone, poundsByDefault: Bool = false) throws(TextFormatError) -> LiftingLogImport {
        let rows = try DelimitedText.rows(text, maximumRows: maximumRows)
        guard let header = rows.first else { throw TextFormatError(line: 1, "the file is empty") }
        let names = header.fields.map { $0.strengthTrimmed.lowercased() }
        if names.contains("exercise name"), names.contains("set order") {
            return try strong(rows, names: names, timeZone: timeZone, poundsByDefault: poundsByDefault)
        }
        if names.contains("exercise_title"), names.contains("start_time") {
            return try hevy(rows, names: names, timeZone: timeZone)
        }
        throw TextFormatError(line: 1, "not a Strong or Hevy export: the header has neither \"Exercise Name\" and \"Set Order\" nor \"exercise_title\" and \"start_time\"")
    }

    /// A positive number of an optional column (seconds, distance, RPE); nil when empty, zero
    /// or not a number (these add to a set; they never cost it).
    static func extra(_ text: String, scale: Double = 1, range: ClosedRange<Double> = 0...1_000_000) -> Double? {
        guard let value = number(text), value > 0, range.contains(value) else { return nil }
        return value * scale
    }

    static func column(_ names: [String], _ candidates: String...) -> Int? {
        for candidate in candidates { if let i = names.firstIndex(of: candidate) { return i } }
        return nil
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

    struct Builder {
        var order = [String]()
        var sessions = [String: ImportedLiftingSession]()

        mutating func add(key: String, make: () -> ImportedLiftingSession, exercise: String, set: ImportedLiftingSession.Set) {
            if sessions[key] == nil {
                sessions[key] = make()
                order.append(key)
            }
            if let i = sessions[key]?.exercises.lastIndex(where: { $0.name == exercise }), i == (sessions[key]?.exercises.count ?? 0) - 1 {
                sessions[key]?.exercises[i].sets.append(set)
            } else {
                sessions[key]?.exercises.append(.init(name: exercise, sets: [set]))
            }
        }

        var result: [ImportedLiftingSession] { order.compactMap { sessions[$0] }.sorted { $0.startedAt < $1.startedAt } }
    }

    static func strong(_ rows: [DelimitedText.Row], names: [String], timeZone: TimeZone, poundsByDefault: Bool) throws(TextFormatError) -> LiftingLogImport {
        guard let date = column(names, "date"), let exercise = column(names, "exercise name"), let order = column(names, "set order"),
            let weightColumn = column(names, "weight", "weight (kg)", "weight (lbs)", "weight (lb)"), let repsColumn = column(names, "reps")
        else {
            throw TextFormatError(line: 1, "a Strong export needs the columns Date, Exercise Name, Set Order, Weight (or Weight (kg), Weight (lbs)) and Reps")
        }
        // The header's unit wins: "Weight (lbs)" is pounds whatever the profile says.
        let headerPounds: Bool? =
            switch names[weightColumn] {
            case "weight (kg)": false
            case "weight (lbs)", "weight (lb)": true
            default: nil
            }
        let secondsColumn = column(names, "seconds")
        let rpeColumn = column(names, "rpe")
        let distanceColumn = column(names, "distance", "distance (meters)", "distance (m)", "distance (km)", "distance (miles)", "distance (mi)")
        let metresPerDistance: Double =
            switch distanceColumn.map({ names[$0] }) {
            case "distance (km)": 1000
            case "distance (miles)", "distance (mi)": 1609.344
            default: 1
            }
        let name = column(names, "workout name")
        let durationColumn = column(names, "duration", "workout duration")
        let unit = column(names, "weight unit")
        let notes = column(names, "workout notes")
        let parse = formatter("yyyy-MM-dd HH:mm:ss", timeZone)
        var builder = Builder()
        var skipped = [String]()
        for row in rows.dropFirst() {
            func field(_ i: Int?) -> String { i.flatMap { $0 < row.fields.count ? row.fields[$0] : nil } ?? "" }
            if row.fields.allSatisfy({ $0.strengthTrimmed.isEmpty }) { continue }
            let setOrder = field(order).strengthTrimmed
            if setOrder.lowercased().hasPrefix("rest") {
                skipped.append("line \(row.line): a rest timer row")
                continue
            }
            // A row that cannot be read is left out and named; the rest of the history imports.
            do throws(TextFormatError) {
                try requireSetFields(row, through: max(weightColumn, repsColumn), of: names.count)
                guard let start = parse.date(from: field(date).strengthTrimmed) else {
                    throw TextFormatError(line: row.line, "Date \"\(field(date).prefix(30))\" is not yyyy-MM-dd HH:mm:ss")
                }
                let exerciseName = field(exercise).strengthTrimmed
                guard !exerciseName.isEmpty else { throw TextFormatError(line: row.line, "Exercise Name is empty") }
                let pounds = headerPounds ?? unit.map { field($0).strengthTrimmed.lowercased().hasPrefix("lb") } ?? poundsByDefault
                let kind =
                    switch setOrder.uppercased() {
                    case "W": "warmup"
                    case "D": "dropset"
                    case "F": "failure"
                    default: "normal"
                    }
                let set = ImportedLiftingSession.Set(
                    reps: try reps(field(repsColumn), line: row.line), weightKilograms: try weight(field(weightColumn), pounds: pounds, line: row.line), kind: kind,
                    seconds: extra(field(secondsColumn)), distanceMeters: extra(field(distanceColumn), scale: metresPerDistance),
                    rpe: extra(field(rpeColumn), range: 0...10))
                let key = field(date).strengthTrimmed + "\u{1}" + field(name)
                builder.add(
                    key: key,
                    make: {
                        ImportedLiftingSession(
                            name: field(name).strengthTrimmed.isEmpty ? "Strong workout" : field(name).strengthTrimmed, startedAt: start,
                            durationSeconds: duration(field(durationColumn)), notes: field(notes).strengthTrimmed.isEmpty ? nil : field(notes).strengthTrimmed, exercises: [])
                    }, exercise: exerciseName, set: set)
            } catch {
                skipped.append(row.reason(error))
            }
        }
        return LiftingLogImport(source: "strong", sessions: builder.result, skipped: skipped)
    }

    /// A row that ends before the columns holding its set's weight and reps (a file cut
    /// mid-row, a damaged line) is named and left out, not read as an empty set.
    static func requireSetFields(_ row: DelimitedText.Row, through last: Int, of columns: Int) throws(TextFormatError) {
        guard row.fields.count > last else {
            throw TextFormatError(line: row.line, "the row ends after \(row.fields.count) of \(columns) columns, before its weight and reps: cut short, left out")
        }
    }

    static func hevy(_ rows: [DelimitedText.Row], names: [String], timeZone: TimeZone) throws(TextFormatError) -> LiftingLogImport {
        guard let start = column(names, "start_time"), let exercise = column(names, "exercise_title"), let repsColumn = column(names, "reps") else {
            throw TextFormatError(line: 1, "a Hevy export needs the columns start_time, exercise_title and reps")
        }
        let kilograms = column(names, "weight_kg")
        let pounds = column(names, "weight_lbs")
        guard kilograms != nil || pounds != nil else { throw TextFormatError(line: 1, "a Hevy export needs weight_kg or weight_lbs") }
        let title = column(names, "title")
        let end = column(names, "end_time")
        let type = column(names, "set_type")
        let description = column(names, "description")
        let secondsColumn = column(names, "duration_seconds")
        let rpeColumn = column(names, "rpe")
        let kilometres = column(names, "distance_km")
        let miles = column(names, "distance_miles")
        let parse = formatter("d MMM yyyy, HH:mm", timeZone)
        let iso = formatter("yyyy-MM-dd HH:mm:ss", timeZone)
        var builder = Builder()
        var skipped = [String]()
        for row in rows.dropFirst() {
            func field(_ i: Int?) -> String { i.flatMap { $0 < row.fields.count ? row.fields[$0] : nil } ?? "" }
            if row.fields.allSatisfy({ $0.strengthTrimmed.isEmpty }) { continue }
            do throws(TextFormatError) {
                try requireSetFields(row, through: max(repsColumn, kilograms ?? pounds ?? repsColumn), of: names.count)
                let startText = field(start).strengthTrimmed
                guard let started = parse.date(from: startText) ?? iso.date(from: startText) else {
                    throw TextFormatError(line: row.line, "start_time \"\(startText.prefix(30))\" is not like \"19 Aug 2023, 09:01\"")
                }
                let ended = parse.date(from: field(end).strengthTrimmed) ?? iso.date(from: field(end).strengthTrimmed)
                let exerciseName = field(exercise).strengthTrimmed
                guard !exerciseName.isEmpty else { throw TextFormatError(line: row.line, "exercise_title is empty") }
                let weightText = kilograms.map { field($0) } ?? field(pounds)
                let set = ImportedLiftingSession.Set(
                    reps: try reps(field(repsColumn), line: row.line),
                    weightKilograms: try weight(weightText, pounds: kilograms == nil, line: row.line),
                    kind: field(type).strengthTrimmed.isEmpty ? "normal" : field(type).strengthTrimmed.lowercased(),
                    seconds: extra(field(secondsColumn)),
                    distanceMeters: kilometres.map { extra(field($0), scale: 1000) } ?? miles.flatMap { extra(field($0), scale: 1609.344) },
                    rpe: extra(field(rpeColumn), range: 0...10))
                builder.add(
                    key: startText + "\u{1}" + field(title),
                    make: {
                        ImportedLiftingSession(
                            name: field(title).strengthTrimmed.isEmpty ? "Hevy workout" : field(title).strengthTrimmed, startedAt: started,
                            durationSeconds: ended.map { max(0, $0.timeIntervalSince(started)) },
                            notes: field(description).strengthTrimmed.isEmpty ? nil : field(description).strengthTrimmed, exercises: [])
                    }, exercise: exerciseName, set: set)
            } catch {
                skipped.append(row.reason(error))
            }
        }
        return LiftingLogImport(source: "hevy", sessions: builder.result, skipped: skipped)
    }
}

/// RFC 4180 rows: quoted fields may hold the separator, doubled quotes and line breaks. The
/// separator is the header line's most frequent of `,` `;` and tab. A dozen lines of our own
/// rather than a dependency: the import reads one file per request, small by any measure.
public enum DelimitedText {
    public struct Row: Sendable, Hashable {
        public var line: Int
        public var fields: [String]
        /// The line it ends on: later than `line` when a quoted field holds line breaks — or a
        /// quote a cut row left open swallowed the lines after it, which are then lost with it.
        public var lastLine: Int

        public init(line: Int, fields: [String], lastLine: Int? = nil) {
            self.line = line
            self.fields = fields
            self.lastLine = lastLine ?? line
        }

        /// Why the row was left out, naming every line it took with it.
        func reason(_ error: TextFormatError) -> String {
            guard lastLine > line else { return error.description }
            return "\(error.description) (the row runs on to line \(lastLine) inside quotes, so lines \(line)–\(lastLine) were left out)"
        }
    }

    public static func rows(_ text: String, maximumRows: Int) throws(TextFormatError) -> [Row] {
        let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let firstLine = body.prefix { $0 != "\n" && $0 != "\r\n" }
        let separator: Character = [",", ";", "\t"].max { a, b in firstLine.filter { $0 == a }.count < firstLine.filter { $0 == b }.count } ?? ","
        var rows = [Row]()
        var fields = [String]()
        var field = ""
        var quoted = false
        var line = 1
        var rowLine = 1
        var afterQuote = false
        var iterator = body.makeIterator()
        while let c = iterator.next() {
            if quoted {
                if c == "\"" {
                    quoted = false
                    afterQuote = true
                } else {
                    field.append(c)
                    if c == "\n" || c == "\r\n" { line += 1 }
                }
                continue
            }
            switch c {
            case "\"":
                if afterQuote {
                    field.append("\"")
                    quoted = true
                    afterQuote = false
                } else if field.isEmpty {
                    quoted = true
                } else {
                    field.append(c)
                }
            case separator:
                fields.append(field)
                field = ""
                afterQuote = false
            case "\n", "\r\n", "\r":
                fields.append(field)
                field = ""
                afterQuote = false
                rows.append(Row(line: rowLine, fields: fields, lastLine: line))
                fields = []
                line += 1
                rowLine = line
                if rows.count > maximumRows { throw TextFormatError(line: line, "more than \(maximumRows) rows") }
            default:
                field.append(c)
                afterQuote = false
            }
        }
        if quoted { throw TextFormatError(line: rowLine, "a quoted field is not closed") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            rows.append(Row(line: rowLine, fields: fields, lastLine: line))
        }
        return rows
    }
}
