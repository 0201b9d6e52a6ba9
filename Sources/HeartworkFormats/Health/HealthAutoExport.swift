import Foundation
import HeartworkCore

/// Reads what the iOS app Health Auto Export posts to a REST API automation: its JSON export
/// format, `{"data":{"metrics":[{"name","units","data":[…]}],"workouts":[…]}}`, as the app's
/// documentation gives it (help.healthyapps.dev/en/health-auto-export/export-format; the
/// wiki page "API Export - JSON Format" of github.com/Lybron/health-auto-export).
///
/// Whatever the payload holds that Heartwork does not use — other metrics, other arrays
/// (`stateOfMind`, `medications`, …), fields of an entry — is counted, never an error; an
/// entry that cannot be read (no date, no number, an impossible value, a unit not known) is
/// left out and counted with why. Only a body that is not JSON, or not this shape at all, is
/// refused. The whole body is read at once (the server caps it, docs/DAILY-HEALTH.md); the
/// entries are read one by one as they come, so a day of per-second heart rate (86,400
/// entries) needs little more than the samples it becomes.
public enum HealthAutoExport {
    /// The source a sample or workout gets when its entry names none.
    public static let defaultSource = "Health Auto Export"

    /// A workout of the payload (export version 2), with the heart rate and route it carries.
    public struct Workout: Sendable, Hashable {
        /// The app's id for the workout (HealthKit's UUID): a resend finds it.
        public var id: String
        public var workout: HealthWorkout
        /// `heartRateData`'s averages, seconds after the start.
        public var heartRate: [TimedHeartRate]
        public var track: [NewWorkout.TrackPoint]
        public var isIndoor: Bool?
    }

    /// What a payload holds, and what of it was not used.
    public struct Payload: Sendable {
        public var samples: [HealthSample] = []
        public var workouts: [Workout] = []
        /// Entries read, by metric name (those used and those not).
        public var entries: [String: Int] = [:]
        /// Entries or items left out, by why ("blood_pressure: Heartwork does not use this metric": 12).
        public var leftOut: [String: Int] = [:]
        /// Fields read past, by where ("heart_rate.units" is used; "workouts.totalEnergy" is not): counted, not errors.
        public var fieldsNotUsed: [String: Int] = [:]
        /// The newest instant a sample covers.
        public var newest: Date?

        public var leftOutCount: Int { leftOut.values.reduce(0, +) }
        /// Counts a field read past; past 100 names, the rest together (a hostile object of
        /// 80,000 names must not make an answer of 80,000 lines).
        mutating func notUsed(_ field: String) {
            let key = fieldsNotUsed[field] != nil || fieldsNotUsed.count < 100 ? field : "(other fields)"
            fieldsNotUsed[key, default: 0] += 1
        }

        /// Heart-rate and route points of the workouts read so far.
        var workoutPoints = 0
        var budget = HealthAutoExport.maximumValues

        /// The running budget of what one sync may hold (issue 40: a 55 MiB sync peaked at 638
        /// MiB): past `HealthAutoExport.maximumValues` samples and workout points the sync is
        /// refused as a whole, saying so, rather than kept in part.
        func checkBudget(pending: Int = 0) throws(JSONFieldError) {
            guard samples.count + pending + workoutPoints <= budget else {
                throw JSONFieldError(
                    .invalidValue, path: "data",
                    "one sync holds at most \(budget) samples and workout points: this one holds more; sync a shorter date range (\"Since last sync\" or a few days) and send the rest in later syncs"
                )
            }
        }

        mutating func leave(_ why: String, _ count: Int = 1) {
            guard count > 0 else { return }
            leftOut[why, default: 0] += count
        }

        /// Leaves out what lies outside `from...through`, counted by metric; `before` says what
        /// `from` is ("2000", "your date of birth").
        mutating func keepDated(from: Date, through: Date, before: String = "2000") {
            let names = Dictionary(HealthAutoExport.metrics.map { ($0.value, $0.key) }) { a, _ in a }
            var outside = [String: Int]()
            samples.removeAll { sample in
                guard sample.start < from || sample.end > through else { return false }
                outside["\(names[sample.kind] ?? sample.kind.rawValue): dated before \(before) or more than a day ahead", default: 0] += 1
                return true
            }
            workouts.removeAll { item in
                guard item.workout.start < from || item.workout.end > through else { return false }
                outside["workouts: dated before \(before) or more than a day ahead", default: 0] += 1
                return true
            }
            for (why, count) in outside { leave(why, count) }
        }
    }

    /// The metrics Heartwork reads, and the kind each becomes.
    public static let metrics: [String: HealthSample.Kind] = [
        "heart_rate": .heartRate, "resting_heart_rate": .restingHeartRate, "walking_heart_rate_average": .walkingHeartRateAverage,
        "heart_rate_variability": .heartRateVariabilitySDNN, "step_count": .steps, "sleep_analysis": .sleep,
        "weight_body_mass": .bodyMass, "height": .height,
    ]

    /// What one sync may hold: samples and workout points together (about a year of
    /// heart rate every 30 s, or a month of Apple Watch exercise readings every 5 s).
    public static let maximumValues = 1_000_000

    /// The earliest instant taken (a clock or an entry from before smartwatches is a mistake).
    public static let earliest = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01

    /// Reads a payload. Throws `JSONFieldError` when the body is not JSON, has no `data`
    /// object, or is not the app's shape where it matters (`metrics` and `workouts` arrays, a
    /// metric an object with an array `data`). Entries dated before 2000 or more than a day
    /// after `now` are left out (one wrong clock must not make a century of days to work out).
    /// `bornOn`: the account holder's date of birth, when known: nothing is dated before it.
    /// `maximumValues`: the budget (`checkBudget`).
    public static func read(_ bytes: [UInt8], now: Date = Date(), bornOn: CalendarDay? = nil, maximumValues: Int = HealthAutoExport.maximumValues) throws -> Payload {
        try bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONStreamReader(buffer)
            var payload = Payload()
            payload.budget = maximumValues
            var sawData = false
            try reader.readObject(path: "") { reader, key in
                guard key == "data" else {
                    try reader.skipValue()
                    payload.notUsed(key)
                    return
                }
                sawData = true
                try reader.readObject(path: "data") { reader, key in
                    switch key {
                    case "metrics":
                        try reader.readArray(path: "data.metrics") { reader, index in
                            try readMetric(&reader, buffer: buffer, path: "data.metrics[\(index)]", into: &payload)
                        }
                    case "workouts":
                        try reader.readArray(path: "data.workouts") { reader, index in
                            readWorkout(try reader.readValue(), into: &payload)
                            try payload.checkBudget()
                        }
                    default:
                        // stateOfMind, medications, symptoms, cycleTracking, ecg, heartRateNotifications…
                        var count = 0
                        if reader.next() == .array {
                            try reader.readArray(path: "data.\(key)") { reader, _ in
                                try reader.skipValue()
                                count += 1
                            }
                        } else {
                            try reader.skipValue()
                            count = 1
                        }
                        payload.leave("\(key): Heartwork does not use these", count)
                    }
                }
            }
            try reader.finish()
            guard sawData else {
                throw JSONFieldError(
                    .missing, path: "data", "the body has no \"data\" object: send Health Auto Export's JSON format ({\"data\":{\"metrics\":[…],\"workouts\":[…]}})")
            }
            // Before 2000, or before the day the account holder was born (a day's margin for time zones).
            let birth = bornOn.map { $0.adding(days: -1).start() }
            if let birth, birth > earliest {
                payload.keepDated(from: birth, through: now.addingTimeInterval(86_400), before: "your date of birth")
            } else {
                payload.keepDated(from: earliest, through: now.addingTimeInterval(86_400))
            }
            payload.newest = payload.samples.lazy.map(\.end).max().map { min($0, now) }
            return payload
        }
    }

    // MARK: Metrics

    static func readMetric(_ reader: inout JSONStreamReader, buffer: UnsafeBufferPointer<UInt8>, path: String, into payload: inout Payload) throws {
        var name: String?
        var units: String?
        /// Where `data` began, when it came before the name or unit: read again after them
        /// (passing over it first builds nothing, so member order costs no memory).
        var dataOffset: Int?
        var metric: MetricReader?
        try reader.readObject(path: path) { reader, key in
            switch key {
            case "name": name = try reader.readString(path: path + ".name")
            case "units": units = try reader.readString(path: path + ".units")
            case "data":
                guard let name, let units else {
                    dataOffset = reader.offset
                    try reader.skipValue()
                    return
                }
                var current = MetricReader(name: name, units: units)
                try reader.readArray(path: path + ".data") { reader, _ in
                    current.read(try reader.readValue(), into: &payload)
                    try payload.checkBudget(pending: current.steps.count)
                }
                metric = current
            default:
                try reader.skipValue()
                payload.notUsed("metrics.\(key)")
            }
        }
        guard let name else {
            payload.leave("a metric without a name")
            return
        }
        var current = metric ?? MetricReader(name: name, units: units ?? "")
        if let dataOffset {
            var again = JSONStreamReader(buffer, at: dataOffset)
            try again.readArray(path: path + ".data") { reader, _ in
                current.read(try reader.readValue(), into: &payload)
                try payload.checkBudget(pending: current.steps.count)
            }
        }
        current.finish(into: &payload)
    }

    /// One metric's entries, turned into samples.
    struct MetricReader {
        let name: String
        let units: String
        let kind: HealthSample.Kind?
        /// Step counts wait for the metric's end: their span is the spacing of the entries.
        var steps: [(date: Date, offset: Int, value: Double, source: String)] = []

        init(name: String, units: String) {
            self.name = name
            self.units = units
            kind = HealthAutoExport.metrics[name]
        }

        static let fields: [HealthSample.Kind: Set<String>] = [
            .heartRate: ["date", "Min", "Avg", "Max", "qty", "source"],
            .sleep: [
                "date", "source", "startDate", "endDate", "qty", "value", "sleepStart", "sleepEnd", "inBedStart", "inBedEnd", "inBed", "asleep",
                "core", "deep", "rem", "awake", "totalSleep", "sleepSource", "inBedSource",
            ],
        ]

        mutating func read(_ entry: JSONValue, into payload: inout Payload) {
            payload.entries[name, default: 0] += 1
            guard let kind else {
                payload.leave("\(name): Heartwork does not use this metric")
                return
            }
            guard case .object(let members) = entry else {
                payload.leave("\(name): an entry that is not an object")
                return
            }
            let known = Self.fields[kind] ?? ["date", "qty", "source"]
            for member in members where !known.contains(member.key) {
                payload.notUsed("\(name).\(member.key)")
            }
            let source = HealthAutoExport.source(entry["source"])
            if kind == .sleep {
                HealthAutoExport.readSleep(entry, units: units, source: source, into: &payload)
                return
            }
            guard let (date, offset) = HealthAutoExport.date(entry["date"]) else {
                payload.leave("\(name): an entry without a valid date (yyyy-MM-dd HH:mm:ss Z)")
                return
            }
            var raw: Double?
            if kind == .heartRate {
                raw = entry["Avg"]?.number ?? entry["qty"]?.number
                if let low = entry["Min"]?.number, let high = entry["Max"]?.number, let average = raw, !(low <= average + 0.5 && average <= high + 0.5) {
                    payload.leave("heart_rate: Min, Avg and Max out of order")
                    return
                }
            } else {
                raw = entry["qty"]?.number
            }
            guard let raw, raw.isFinite else {
                payload.leave("\(name): an entry without a number")
                return
            }
            guard let value = HealthAutoExport.convert(raw, units: units, kind: kind) else {
                payload.leave("\(name): the unit \"\(units)\" is not one Heartwork knows")
                return
            }
            guard HealthAutoExport.plausible(value, kind: kind) else {
                payload.leave("\(name): an impossible value")
                return
            }
            if kind == .steps {
                steps.append((date, offset, value, source))
                return
            }
            payload.samples.append(HealthSample(kind: kind, start: date, end: date, utcOffsetSeconds: offset, value: value, source: source))
        }

        /// Steps: each count covers the time up to the next entry of its source, at most the
        /// spacing the automation groups by (the smallest gap between entries, 1 minute to
        /// 1 day; 1 minute when there is one entry) — so an hour's steps are not "at rest"
        /// after its first minute.
        mutating func finish(into payload: inout Payload) {
            guard !steps.isEmpty else { return }
            for (_, group) in Dictionary(grouping: steps, by: \.source) {
                let sorted = group.sorted { $0.date < $1.date }
                var spacing = 86_400.0
                for i in sorted.indices.dropFirst() {
                    let gap = sorted[i].date.timeIntervalSince(sorted[i - 1].date)
                    if gap > 0 { spacing = min(spacing, gap) }
                }
                if sorted.count == 1 { spacing = 60 }
                spacing = max(60, spacing)
                for (i, step) in sorted.enumerated() {
                    var end = step.date.addingTimeInterval(spacing)
                    if i + 1 < sorted.count, sorted[i + 1].date > step.date { end = min(end, sorted[i + 1].date) }
                    payload.samples.append(
                        HealthSample(kind: .steps, start: step.date, end: end, utcOffsetSeconds: step.offset, value: step.value, source: step.source))
                }
            }
        }
    }

    /// Sleep, in either form the app sends: unaggregated (`startDate`, `endDate`, `value`: one
    /// stage) or aggregated per night (`sleepStart`/`sleepEnd`, `inBedStart`/`inBedEnd`, hours
    /// `asleep`, `core`, `deep`, `rem`, `inBed`). The aggregated form says how long each stage
    /// lasted, not when: the stages are laid end to end from `sleepStart` (core, deep, REM),
    /// which keeps the hours asleep and in bed right.
    static func readSleep(_ entry: JSONValue, units: String, source: String, into payload: inout Payload) {
        let sleepSource = entry["sleepSource"].map { _ in HealthAutoExport.source(entry["sleepSource"]) } ?? source
        if let start = date(entry["startDate"]) {
            guard let (end, _) = date(entry["endDate"]), end >= start.0 else {
                payload.leave("sleep_analysis: an entry without a valid endDate")
                return
            }
            guard let stage = entry["value"]?.string.flatMap(sleepStage) else {
                payload.leave("sleep_analysis: a stage Heartwork does not know (\(entry["value"]?.string ?? "none"))")
                return
            }
            guard end.timeIntervalSince(start.0) <= 24 * 3600 else {
                payload.leave("sleep_analysis: a stage longer than 24 hours")
                return
            }
            payload.samples.append(
                HealthSample(kind: .sleep, start: start.0, end: end, utcOffsetSeconds: start.1, value: Double(stage.rawValue), source: sleepSource))
            return
        }
        let hours: Double = units == "min" ? 1.0 / 60 : units == "s" ? 1.0 / 3600 : 1
        var used = false
        var empty = false
        if let (bedStart, offset) = date(entry["inBedStart"]), let (bedEnd, _) = date(entry["inBedEnd"]), bedEnd > bedStart,
            bedEnd.timeIntervalSince(bedStart) <= 24 * 3600
        {
            let bedSource = entry["inBedSource"].map { _ in HealthAutoExport.source(entry["inBedSource"]) } ?? source
            payload.samples.append(
                HealthSample(
                    kind: .sleep, start: bedStart, end: bedEnd, utcOffsetSeconds: offset, value: Double(HealthSample.SleepStage.inBed.rawValue),
                    source: bedSource))
            used = true
        }
        if let (start, offset) = date(entry["sleepStart"]) {
            let end = date(entry["sleepEnd"])?.0
            var stages: [(HealthSample.SleepStage, Double)] = [(.core, 0), (.deep, 0), (.rem, 0)]
            for i in stages.indices {
                let key = ["core", "deep", "rem"][i]
                if let value = entry[key]?.number, value.isFinite, value > 0 { stages[i].1 = value * hours * 3600 }
            }
            let staged = stages.reduce(0) { $0 + $1.1 }
            if staged == 0, let asleep = (entry["asleep"]?.number ?? entry["totalSleep"]?.number), asleep.isFinite, asleep > 0 {
                stages = [(.asleep, asleep * hours * 3600)]
            } else if let asleep = entry["asleep"]?.number, asleep.isFinite, asleep > 0 {
                // Asleep without a stage besides the stages (a night partly from an older watch);
                // when the app's total says `asleep` already is the stages' sum, it is not added.
                let total = entry["totalSleep"]?.number.map { $0 * hours * 3600 }
                if total.map({ staged + asleep * hours * 3600 <= $0 + 60 }) ?? true { stages.append((.asleep, asleep * hours * 3600)) }
            }
            let total = stages.reduce(0) { $0 + $1.1 }
            if total > 24 * 3600 || (end.map { total > $0.timeIntervalSince(start) + 60 } ?? false) {
                payload.leave("sleep_analysis: more hours asleep than the night holds")
                return
            }
            var at = start
            for (stage, seconds) in stages where seconds > 0 {
                let next = at.addingTimeInterval(seconds.rounded())
                payload.samples.append(
                    HealthSample(kind: .sleep, start: at, end: next, utcOffsetSeconds: offset, value: Double(stage.rawValue), source: sleepSource))
                at = next
                used = true
            }
            empty = total == 0
        }
        // A night the app wrote with sleepStart but 0 hours in every stage (a real 10-year
        // export: 822 such nights, issue 41) is named for what it is.
        if !used { payload.leave(empty ? "sleep_analysis: a night of 0 hours asleep" : "sleep_analysis: a night without sleepStart or inBedStart") }
    }

    static func sleepStage(_ text: String) -> HealthSample.SleepStage? {
        switch text.lowercased() {
        case "in bed", "inbed": .inBed
        case "asleep", "unspecified", "asleep unspecified": .asleep
        case "awake": .awake
        case "core", "asleep core": .core
        case "deep", "asleep deep": .deep
        case "rem", "asleep rem": .rem
        default: nil
        }
    }

    // MARK: Workouts

    static let workoutFields: Set<String> = [
        "id", "name", "start", "end", "duration", "location", "isIndoor", "activeEnergyBurned", "distance", "heartRateData", "route",
    ]

    static func readWorkout(_ value: JSONValue, into payload: inout Payload) {
        payload.entries["workouts", default: 0] += 1
        guard case .object(let members) = value else {
            payload.leave("workouts: an item that is not an object")
            return
        }
        for member in members where !workoutFields.contains(member.key) {
            payload.notUsed("workouts.\(member.key)")
        }
        guard let id = value["id"]?.string, !id.isEmpty, id.utf8.count <= 200 else {
            payload.leave("workouts: a workout without an id (export version 1? choose version 2 in the automation)")
            return
        }
        guard let (start, offset) = date(value["start"]), let (end, _) = date(value["end"]), end >= start else {
            payload.leave("workouts: a workout without a valid start and end")
            return
        }
        let name = value["name"]?.string ?? "Other"
        let kilocalories = quantity(value["activeEnergyBurned"]).flatMap { qty, units -> Double? in
            switch units {
            case "kcal", "Cal", "cal", nil: qty
            case "kJ", "kj": qty / 4.184
            default: nil
            }
        }
        let meters = quantity(value["distance"]).flatMap { qty, units -> Double? in
            switch units {
            case "km": qty * 1000
            case "mi": qty * 1609.344
            case "m", nil: qty
            case "yd": qty * 0.9144
            case "ft": qty * 0.3048
            default: nil
            }
        }
        var heartRate = [TimedHeartRate]()
        if case .array(let entries)? = value["heartRateData"] {
            for entry in entries {
                guard let (date, _) = date(entry["date"]), let bpm = entry["Avg"]?.number ?? entry["qty"]?.number, bpm.isFinite else {
                    payload.leave("workouts: a heart-rate entry without a date or value")
                    continue
                }
                let perMinute = (entry["units"]?.string == "count/s") ? bpm * 60 : bpm
                guard plausible(perMinute, kind: .heartRate) else {
                    payload.leave("workouts: an impossible heart rate")
                    continue
                }
                let seconds = date.timeIntervalSince(start)
                guard seconds >= -60, date <= end.addingTimeInterval(60) else {
                    payload.leave("workouts: a heart-rate entry outside its workout")
                    continue
                }
                heartRate.append(TimedHeartRate(timeSeconds: max(0, seconds), beatsPerMinute: perMinute))
            }
        }
        var track = [NewWorkout.TrackPoint]()
        if case .array(let points)? = value["route"] {
            for point in points {
                guard let latitude = point["latitude"]?.number ?? point["lat"]?.number, let longitude = point["longitude"]?.number ?? point["lon"]?.number,
                    (-90...90).contains(latitude), (-180...180).contains(longitude),
                    let (time, _) = date(point["timestamp"]) ?? date(point["date"])
                else {
                    payload.leave("workouts: a route point without a position or time")
                    continue
                }
                let seconds = time.timeIntervalSince(start)
                guard seconds >= 0, time <= end.addingTimeInterval(60) else {
                    payload.leave("workouts: a route point outside its workout")
                    continue
                }
                let altitude = point["altitude"]?.number.flatMap { $0.isFinite ? $0 : nil }
                track.append(NewWorkout.TrackPoint(latitudeDegrees: latitude, longitudeDegrees: longitude, elevationMeters: altitude, timeSeconds: seconds))
            }
        }
        let workout = HealthWorkout(
            activityType: activityType(name), start: start, end: end, utcOffsetSeconds: offset,
            kilocalories: kilocalories.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }, distanceMeters: meters.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
            // No device named: an Apple Health export of the same workout (its watch named) is
            // then the same workout, whichever arrives first.
            source: "", device: nil, routePath: nil)
        payload.workoutPoints += heartRate.count + track.count
        payload.workouts.append(
            Workout(
                id: id, workout: workout, heartRate: heartRate.sorted { $0.timeSeconds < $1.timeSeconds }, track: track.sorted { $0.timeSeconds < $1.timeSeconds },
                isIndoor: value["isIndoor"]?.bool))
    }

    /// "Running", "Outdoor Run", "Indoor Cycle", "Traditional Strength Training" → HealthKit's
    /// activity type name ("HKWorkoutActivityTypeRunning" …).
    static func activityType(_ name: String) -> String {
        var words = name.split(separator: " ").map(String.init)
        if let first = words.first, ["Outdoor", "Indoor"].contains(first), words.count > 1 { words.removeFirst() }
        let joined = words.joined()
        let renamed =
            switch joined {
            case "Run": "Running"
            case "Walk": "Walking"
            case "Cycle", "Bike", "Biking": "Cycling"
            case "Hike": "Hiking"
            default: joined
            }
        let letters = renamed.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }
        return "HKWorkoutActivityType" + String(String.UnicodeScalarView(letters)).prefix(60)
    }

    // MARK: Values

    /// A sample's source: the entry's own, marked as come through the app ("Anna’s Apple Watch
    /// via Health Auto Export"), so that where an Apple Health export holds the same source's
    /// raw samples the source order picks one of the two instead of counting both.
    static func source(_ value: JSONValue?) -> String {
        guard let text = value?.string?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return defaultSource }
        return String(text.prefix(160)) + " via " + defaultSource
    }

    /// "2024-02-06 14:30:00 -0800" (the app's format), or RFC 3339.
    static func date(_ value: JSONValue?) -> (Date, Int)? {
        guard let text = value?.string else { return nil }
        if let parsed = AppleHealthReader.date(text) { return parsed }
        return RFC3339.parseWithOffset(text).map { ($0.date, $0.utcOffsetSeconds) }
    }

    static func quantity(_ value: JSONValue?) -> (Double, String?)? {
        if let number = value?.number, number.isFinite { return (number, nil) }
        guard let qty = value?["qty"]?.number, qty.isFinite else { return nil }
        return (qty, value?["units"]?.string)
    }

    /// The app's units ("count/min", "bpm", "ms", "count", "kg", "lb", "cm", "in" …) to Heartwork's.
    static func convert(_ value: Double, units: String, kind: HealthSample.Kind) -> Double? {
        switch (kind, units) {
        case (.heartRate, "bpm"), (.restingHeartRate, "bpm"), (.walkingHeartRateAverage, "bpm"): value
        case (.steps, "steps"), (.steps, ""): value
        case (.bodyMass, "lbs"): value * 0.453_592_37
        case (_, ""): kind == .heartRate || kind == .restingHeartRate || kind == .walkingHeartRateAverage ? value : nil
        default: AppleHealthReader.convert(value, unit: units, kind: kind)
        }
    }

    /// Values no body or device makes are left out rather than stored.
    static func plausible(_ value: Double, kind: HealthSample.Kind) -> Bool {
        switch kind {
        case .heartRate, .restingHeartRate, .walkingHeartRateAverage: value >= 20 && value <= 300
        case .heartRateVariabilitySDNN: value > 0 && value <= 2000
        case .steps: value >= 0 && value <= 1_000_000
        case .bodyMass: value >= 2 && value <= 650
        case .height: value >= 0.3 && value <= 2.8
        case .sleep: true
        }
    }
}

extension JSONValue {
    fileprivate var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    fileprivate var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    fileprivate var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}
