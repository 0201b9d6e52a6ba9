import Foundation
import HeartworkCore

/// Reads a Strong or Hevy export as its bytes come (`LiftingLogCSV` says what the columns are):
/// rows one at a time through `DelimitedText.Reader`, each turned into a set of its session at
/// once, so memory holds the sessions read (within `LiftingLogCSV.maximumRetainedBytes`), never
/// the file. A row that cannot be read is named in `skipped` and left out; only a header that
/// is not an export refuses the file. Rows past `LiftingLogCSV.maximumRows`, or past the
/// memory budget, are not read, and `stopped` says so.
public struct LiftingLogReader {
    let timeZone: TimeZone
    let poundsByDefault: Bool
    private var csv = DelimitedText.Reader()
    private var columns: Columns?
    private var builder = Builder()
    private var skipped = [String]()
    private var skippedCount = 0
    private var rows = 0
    private var retained = 0
    private var failure: TextFormatError?
    /// The dates read and what they were (a workout's rows share theirs: DateFormatter takes
    /// some 50 µs a date, most of a row's time); at most 256 kept.
    private var dates = [String: Date?]()
    /// Why reading stopped before the end of the file (too many rows, the memory budget).
    public private(set) var stopped: String?
    /// Bytes fed so far.
    public private(set) var bytesRead: Int64 = 0
    /// Rows read so far (the header included).
    public var rowsRead: Int { rows }

    /// The first this many skipped rows are named; the rest are counted.
    public static let namedSkips = 1_000

    public init(timeZone: TimeZone, poundsByDefault: Bool = false) {
        self.timeZone = timeZone
        self.poundsByDefault = poundsByDefault
    }

    /// Reads the next bytes of the file; throws when its header says it is not an export.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(TextFormatError) {
        if let failure { throw failure }
        bytesRead += Int64(bytes.count)
        var csv = self.csv
        csv.feed(bytes) { row in take(row) }
        self.csv = csv
        if let failure { throw failure }
    }

    /// The sessions read, oldest first.
    public mutating func finish() throws(TextFormatError) -> LiftingLogImport {
        if let failure { throw failure }
        if stopped == nil, let last = try csv.finish() { _ = take(last) }
        if let failure { throw failure }
        guard let columns else { throw TextFormatError(line: 1, "the file is empty") }
        var named = skipped
        if skippedCount > named.count { named.append("… and \(skippedCount - named.count) more rows left out") }
        if let stopped { named.append(stopped) }
        return LiftingLogImport(source: columns.source, sessions: builder.result, skipped: named)
    }

    // MARK: rows

    private mutating func take(_ row: DelimitedText.Row) -> Bool {
        rows += 1
        if rows > LiftingLogCSV.maximumRows {
            stopped = "the file has more than \(LiftingLogCSV.maximumRows) rows: the rows from line \(row.line) on were not read"
            return false
        }
        guard let columns else {
            do throws(TextFormatError) {
                guard !row.overlong else { throw TextFormatError(line: 1, "the header row is longer than an export's: not a Strong or Hevy export") }
                columns = try Columns(header: row.fields, timeZone: timeZone)
                return true
            } catch {
                failure = error
                return false
            }
        }
        if row.overlong {
            skip(row.overlongReason)
            return true
        }
        if row.fields.allSatisfy({ $0.strengthTrimmed.isEmpty }) { return true }
        do throws(TextFormatError) {
            switch columns.source {
            case "strong": try strong(row, columns)
            default: try hevy(row, columns)
            }
        } catch {
            skip(row.reason(error))
        }
        guard retained <= LiftingLogCSV.maximumRetainedBytes else {
            stopped =
                "the workouts read take more memory than an import may use (\(LiftingLogCSV.maximumRetainedBytes >> 20) MB): the rows from line \(row.lastLine + 1) on were not read"
            return false
        }
        return true
    }

    private mutating func skip(_ reason: String) {
        skippedCount += 1
        if skipped.count < Self.namedSkips { skipped.append(reason) }
    }

    private static func field(_ row: DelimitedText.Row, _ i: Int?) -> String { i.flatMap { $0 < row.fields.count ? row.fields[$0] : nil } ?? "" }

    /// Strong's rest-timer rows: "Rest Timer", French "Minuteur de repos", German "Ruhezeit".
    static func restTimer(_ setOrder: String) -> Bool {
        let order = setOrder.lowercased()
        return order.hasPrefix("rest") || order.hasPrefix("minuteur") || order.hasPrefix("ruhezeit")
    }

    private mutating func strong(_ row: DelimitedText.Row, _ c: Columns) throws(TextFormatError) {
        func field(_ i: Int?) -> String { Self.field(row, i) }
        let setOrder = field(c.order).strengthTrimmed
        if Self.restTimer(setOrder) { throw TextFormatError(line: row.line, "a rest timer row") }
        try LiftingLogCSV.requireSetFields(row, through: max(c.weight, c.reps), of: c.count)
        guard let start = date(field(c.date).strengthTrimmed, c.parse) else {
            throw TextFormatError(line: row.line, "Date \"\(field(c.date).prefix(30))\" is not yyyy-MM-dd HH:mm:ss")
        }
        let exerciseName = field(c.exercise).strengthTrimmed
        guard !exerciseName.isEmpty else { throw TextFormatError(line: row.line, "Exercise Name is empty") }
        let pounds = c.headerPounds ?? c.unit.map { field($0).strengthTrimmed.lowercased().hasPrefix("lb") } ?? poundsByDefault
        let kind =
            switch setOrder.uppercased() {
            case "W": "warmup"
            case "D": "dropset"
            case "F": "failure"
            default: "normal"
            }
        let set = ImportedLiftingSession.Set(
            reps: try LiftingLogCSV.reps(field(c.reps), line: row.line),
            weightKilograms: try LiftingLogCSV.weight(field(c.weight), pounds: pounds, line: row.line), kind: kind,
            seconds: LiftingLogCSV.extra(field(c.seconds)), distanceMeters: LiftingLogCSV.extra(field(c.distance), scale: c.metresPerDistance),
            rpe: LiftingLogCSV.extra(field(c.rpe), range: 0...10))
        let name = field(c.name).strengthTrimmed
        let notes = field(c.notes).strengthTrimmed
        add(
            key: field(c.date).strengthTrimmed + "\u{1}" + field(c.name),
            make: {
                ImportedLiftingSession(
                    name: name.isEmpty ? "Strong workout" : String(name.prefix(Self.nameLength)), startedAt: start,
                    durationSeconds: LiftingLogCSV.duration(field(c.duration)), notes: notes.isEmpty ? nil : String(notes.prefix(Self.notesLength)),
                    exercises: [])
            }, exercise: exerciseName, set: set)
    }

    private mutating func hevy(_ row: DelimitedText.Row, _ c: Columns) throws(TextFormatError) {
        func field(_ i: Int?) -> String { Self.field(row, i) }
        try LiftingLogCSV.requireSetFields(row, through: max(c.reps, c.kilograms ?? c.pounds ?? c.reps), of: c.count)
        let startText = field(c.date).strengthTrimmed
        guard let started = date(startText, c.parse) else {
            throw TextFormatError(
                line: row.line, "start_time \"\(startText.prefix(30))\" is not like \"19 Aug 2023, 09:01\" or \"Aug 19, 2023, 9:01 AM\"")
        }
        let endText = field(c.end).strengthTrimmed
        let ended = date(endText, c.parse)
        let exerciseName = field(c.exercise).strengthTrimmed
        guard !exerciseName.isEmpty else { throw TextFormatError(line: row.line, "exercise_title is empty") }
        let weightText = c.kilograms.map { field($0) } ?? field(c.pounds)
        let set = ImportedLiftingSession.Set(
            reps: try LiftingLogCSV.reps(field(c.reps), line: row.line),
            weightKilograms: try LiftingLogCSV.weight(weightText, pounds: c.kilograms == nil, line: row.line),
            kind: field(c.order).strengthTrimmed.isEmpty ? "normal" : String(field(c.order).strengthTrimmed.lowercased().prefix(20)),
            seconds: LiftingLogCSV.extra(field(c.seconds)),
            distanceMeters: c.kilometres.map { LiftingLogCSV.extra(field($0), scale: 1000) } ?? c.miles.flatMap { LiftingLogCSV.extra(field($0), scale: 1609.344) },
            rpe: LiftingLogCSV.extra(field(c.rpe), range: 0...10))
        let title = field(c.name).strengthTrimmed
        let description = field(c.notes).strengthTrimmed
        add(
            key: startText + "\u{1}" + field(c.name),
            make: {
                ImportedLiftingSession(
                    name: title.isEmpty ? "Hevy workout" : String(title.prefix(Self.nameLength)), startedAt: started,
                    durationSeconds: ended.map { max(0, $0.timeIntervalSince(started)) },
                    notes: description.isEmpty ? nil : String(description.prefix(Self.notesLength)), exercises: [])
            }, exercise: exerciseName, set: set)
    }

    /// A date in the first of the file's `formats` that reads it, remembered. Phones put a no-break space (U+00A0, or iOS's
    /// narrow U+202F) before "PM": read as a space.
    private mutating func date(_ text: String, _ formats: [DateFormatter]) -> Date? {
        if let known = dates[text] { return known }
        let spaced =
            text.contains(where: { $0 == "\u{202F}" || $0 == "\u{00A0}" })
            ? String(text.map { $0 == "\u{202F}" || $0 == "\u{00A0}" ? " " : $0 }) : text
        var date: Date?
        for format in formats {
            date = format.date(from: spaced)
            if date != nil { break }
        }
        if dates.count >= 256 { dates.removeAll(keepingCapacity: true) }
        dates[text] = date
        return date
    }

    /// Names and notes are kept to these lengths (the app keeps names to 80 characters).
    static let nameLength = 200
    static let notesLength = 2_000

    private mutating func add(key: String, make: () -> ImportedLiftingSession, exercise: String, set: ImportedLiftingSession.Set) {
        let exercise = String(exercise.prefix(Self.nameLength))
        let before = builder.sessions.count
        let blocks = builder.sessions[key]?.exercises.count ?? 0
        builder.add(key: key, make: make, exercise: exercise, set: set)
        if builder.sessions.count > before, let made = builder.sessions[key] {
            retained += key.utf8.count * 2 + made.name.utf8.count + (made.notes?.utf8.count ?? 0) + 160
        }
        if (builder.sessions[key]?.exercises.count ?? 0) > blocks { retained += exercise.utf8.count + 48 }
        retained += 72
    }

    struct Builder {
        var order = [String]()
        var sessions = [String: ImportedLiftingSession]()

        mutating func add(key: String, make: () -> ImportedLiftingSession, exercise: String, set: ImportedLiftingSession.Set) {
            if sessions[key] == nil {
                sessions[key] = make()
                order.append(key)
            }
            if let count = sessions[key]?.exercises.count, count > 0, sessions[key]?.exercises[count - 1].name == exercise {
                sessions[key]?.exercises[count - 1].sets.append(set)
            } else {
                sessions[key]?.exercises.append(.init(name: exercise, sets: [set]))
            }
        }

        var result: [ImportedLiftingSession] { order.compactMap { sessions[$0] }.sorted { $0.startedAt < $1.startedAt } }
    }

    // MARK: columns

    /// Where each value is, from the header (Strong's or Hevy's names).
    struct Columns {
        var source: String
        var count: Int
        var date: Int
        var exercise: Int
        var reps: Int
        var weight: Int = 0
        var order: Int?
        var headerPounds: Bool?
        var seconds: Int?
        var rpe: Int?
        var distance: Int?
        var metresPerDistance: Double = 1
        var name: Int?
        var duration: Int?
        var unit: Int?
        var notes: Int?
        var end: Int?
        var kilograms: Int?
        var pounds: Int?
        var kilometres: Int?
        var miles: Int?
        /// The date forms the file's app writes, tried in order.
        var parse: [DateFormatter]

        /// Strong's column names in the languages it exports in, to its English ones (issue 41).
        /// From real exports and the parsers written against them: French —
        /// Martsk23/fitness-recomp tests/fixtures/strong-export-reel.csv; German —
        /// anes7374/gymtracker app/js/lib/strong-csv.js and jjaju/statlift columns.json (iOS
        /// "Dauer", Android "Workout-Dauer"; "Reihenfolge festlegen" is Strong's own word for
        /// Set Order); Portuguese — gustavosinacio/ada-back (ImportSetsUseCase.ts). Date,
        /// Distance, Notes and RPE are the same words in all three.
        static let strongWords: [String: String] = [
            "nom de l'entraînement": "workout name", "durée": "duration", "nom de l'exercice": "exercise name",
            "ordre de la série": "set order", "poids": "weight", "réps": "reps", "secondes": "seconds", "notes d'entraînement": "workout notes",
            "datum": "date", "workout-name": "workout name", "dauer": "duration", "workout-dauer": "duration", "name der übung": "exercise name",
            "reihenfolge festlegen": "set order", "gewicht": "weight", "wiederh.": "reps", "entfernung": "distance", "sekunden": "seconds",
            "notizen": "notes", "workout-notizen": "workout notes",
            "data": "date", "nome do treino": "workout name", "duração": "duration", "nome do exercício": "exercise name",
            "ordem da série": "set order", "peso": "weight", "distância": "distance", "segundos": "seconds", "notas": "notes",
            "notas do treino": "workout notes",
        ]
        /// The order Strong writes its twelve columns in, in every language.
        static let strongOrder = [
            "date", "workout name", "duration", "exercise name", "set order", "weight", "reps", "distance", "seconds", "notes", "workout notes", "rpe",
        ]

        init(header: [String], timeZone: TimeZone) throws(TextFormatError) {
            var names = header.map { name in
                let word = name.strengthTrimmed.lowercased()
                return Self.strongWords[word] ?? word
            }
            // A Strong export in a language not above: its twelve columns in Strong's order, the
            // last RPE in every language.
            if !names.contains("exercise name"), !names.contains("exercise_title"), names.count == 12, names[11] == "rpe" {
                names = Self.strongOrder
            }
            let column = { (candidates: [String]) -> Int? in LiftingLogCSV.column(names, candidates) }
            count = names.count
            if names.contains("exercise name"), names.contains("set order") {
                source = "strong"
                guard let date = column(["date"]), let exercise = column(["exercise name"]), let order = column(["set order"]),
                    let weight = column(["weight", "weight (kg)", "weight (lbs)", "weight (lb)"]), let reps = column(["reps"])
                else {
                    throw TextFormatError(line: 1, "a Strong export needs the columns Date, Exercise Name, Set Order, Weight (or Weight (kg), Weight (lbs)) and Reps")
                }
                (self.date, self.exercise, self.order, self.weight, self.reps) = (date, exercise, order, weight, reps)
                // The header's unit wins: "Weight (lbs)" is pounds whatever the profile says.
                headerPounds =
                    switch names[weight] {
                    case "weight (kg)": false
                    case "weight (lbs)", "weight (lb)": true
                    default: nil
                    }
                seconds = column(["seconds"])
                rpe = column(["rpe"])
                distance = column(["distance", "distance (meters)", "distance (m)", "distance (km)", "distance (miles)", "distance (mi)"])
                metresPerDistance =
                    switch distance.map({ names[$0] }) {
                    case "distance (km)": 1000
                    case "distance (miles)", "distance (mi)": 1609.344
                    default: 1
                    }
                name = column(["workout name"])
                duration = column(["duration", "workout duration"])
                unit = column(["weight unit"])
                notes = column(["workout notes"])
                // 24-hour, or 12-hour as a phone set so writes it ("2025-01-30 12:34:56 pm").
                parse = ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd hh:mm:ss a"].map { LiftingLogCSV.formatter($0, timeZone) }
            } else if names.contains("exercise_title"), names.contains("start_time") {
                source = "hevy"
                guard let start = column(["start_time"]), let exercise = column(["exercise_title"]), let reps = column(["reps"]) else {
                    throw TextFormatError(line: 1, "a Hevy export needs the columns start_time, exercise_title and reps")
                }
                (self.date, self.exercise, self.reps) = (start, exercise, reps)
                kilograms = column(["weight_kg"])
                pounds = column(["weight_lbs"])
                guard kilograms != nil || pounds != nil else { throw TextFormatError(line: 1, "a Hevy export needs weight_kg or weight_lbs") }
                name = column(["title"])
                end = column(["end_time"])
                order = column(["set_type"])
                notes = column(["description"])
                seconds = column(["duration_seconds"])
                rpe = column(["rpe"])
                kilometres = column(["distance_km"])
                miles = column(["distance_miles"])
                // Hevy writes its dates as the phone's region does: "19 Aug 2023, 09:01"
                // (most regions), "Aug 19, 2023, 9:01 AM" (the United States), or ISO.
                parse = [
                    "d MMM yyyy, HH:mm", "MMM d, yyyy, h:mm a", "MMM d, yyyy, HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss",
                ].map { LiftingLogCSV.formatter($0, timeZone) }
            } else {
                throw TextFormatError(
                    line: 1,
                    "not a Strong or Hevy export: the header has neither \"Exercise Name\" and \"Set Order\" nor \"exercise_title\" and \"start_time\" (Strong exports in English, French, German and Portuguese are read, and any other with Strong's twelve columns; otherwise export again with the app in English)"
                )
            }
        }
    }
}
