import Foundation
import HeartworkCore

/// Reads Apple Health's `export.xml` as the Health app writes it (`HealthData` with `Record`,
/// `Workout`, `Me`…), streaming: bytes in any chunks, samples out as they complete, so a
/// 1 GB export needs no more memory than a tag. Records of other types are skipped and
/// counted. A fault (malformed XML, not an export) stops the reading with its line; every
/// sample before it has been delivered.
public struct AppleHealthReader: Sendable {
    public enum Item: Sendable, Hashable {
        case sample(HealthSample)
        case workout(HealthWorkout)
        case owner(HealthOwner)
    }

    /// A fault with its line (the scanner's, for malformed XML, or the reader's, for XML
    /// that is not an export or holds a bad record).
    public typealias Failure = ExportXMLScanner.Failure

    var scanner = ExportXMLScanner()
    var depth = 0
    var rootChecked = false
    /// The record or workout being read (its children add metadata, beats, a route).
    var current: Item?
    var zoneName: String?
    public private(set) var skipped: [String: Int] = [:]

    public init() {}

    public mutating func feed(_ bytes: some Collection<UInt8>, _ visit: (Item) -> Void) throws(Failure) {
        var scanner = self.scanner
        self.scanner = ExportXMLScanner()
        defer { self.scanner = scanner }
        try scanner.feed(bytes) { event throws(Failure) in try handle(event, visit) }
    }

    public mutating func finish() throws(Failure) {
        try scanner.finish()
    }

    mutating func handle(_ event: ExportXMLScanner.Event, _ visit: (Item) -> Void) throws(Failure) {
        switch event {
        case .start(let name, let attributes, let line):
            depth += 1
            if !rootChecked {
                rootChecked = true
                guard name == "HealthData" else {
                    throw Failure(line: line, message: "not an Apple Health export: the root element is <\(name)>, not <HealthData>")
                }
                return
            }
            switch (depth, name) {
            case (2, "Record"):
                current = try record(attributes, line: line)
                zoneName = nil
            case (2, "Workout"):
                current = try workout(attributes, line: line).map(Item.workout)
                zoneName = nil
            case (2, "Me"):
                let sex: Sex? =
                    switch attributes["HKCharacteristicTypeIdentifierBiologicalSex"] {
                    case "HKBiologicalSexMale": .male
                    case "HKBiologicalSexFemale": .female
                    default: nil
                    }
                visit(.owner(HealthOwner(dateOfBirth: attributes["HKCharacteristicTypeIdentifierDateOfBirth"].flatMap { CalendarDay(iso: $0) }, sex: sex)))
            case (3, "MetadataEntry"):
                if attributes["key"] == "HKMetadataKeyTimeZone" { zoneName = attributes["value"] }
            case (3, "WorkoutRoute"), (3, "HeartRateVariabilityMetadataList"):
                break
            case (4, "InstantaneousBeatsPerMinute"):
                if case .sample(var sample)? = current, sample.kind == .heartRateVariabilitySDNN,
                    let bpm = attributes["bpm"].flatMap(Double.init), bpm.isFinite, bpm > 0, bpm < 400,
                    let time = attributes["time"].flatMap({ Self.clockSeconds($0) })
                {
                    // "8:01:02.35 AM": a time of day in the sample's zone, after its start.
                    let startOfDay = sample.day.start(utcOffsetSeconds: sample.utcOffsetSeconds)
                    var offset = startOfDay.addingTimeInterval(time).timeIntervalSince(sample.start)
                    if offset < -43_200 { offset += 86_400 }  // past midnight
                    sample.beats = (sample.beats ?? []) + [TimedHeartRate(timeSeconds: offset, beatsPerMinute: bpm)]
                    current = .sample(sample)
                }
            case (4, "FileReference"):
                if case .workout(var workout)? = current, let path = attributes["path"] {
                    let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
                    if trimmed.hasPrefix("workout-routes/"), !trimmed.contains("..") { workout.routePath = trimmed }
                    current = .workout(workout)
                }
            default:
                break
            }
        case .end(_, _):
            if depth == 2, let item = current {
                visit(Self.applyingZone(item, zoneName))
                current = nil
            }
            depth -= 1
        }
    }

    static func applyingZone(_ item: Item, _ zoneName: String?) -> Item {
        guard let zoneName, let zone = TimeZone(identifier: zoneName) else { return item }
        switch item {
        case .sample(var sample):
            sample.utcOffsetSeconds = zone.secondsFromGMT(for: sample.start)
            return .sample(sample)
        case .workout(var workout):
            workout.utcOffsetSeconds = zone.secondsFromGMT(for: workout.start)
            return .workout(workout)
        case .owner: return item
        }
    }

    /// The record types Heartwork keeps, with the unit conversions to its own units.
    mutating func record(_ a: [String: String], line: Int) throws(Failure) -> Item? {
        guard let type = a["type"] else { throw Failure(line: line, message: "a <Record> without a type") }
        let kind: HealthSample.Kind
        switch type {
        case "HKQuantityTypeIdentifierHeartRate": kind = .heartRate
        case "HKQuantityTypeIdentifierRestingHeartRate": kind = .restingHeartRate
        case "HKQuantityTypeIdentifierWalkingHeartRateAverage": kind = .walkingHeartRateAverage
        case "HKQuantityTypeIdentifierHeartRateVariabilitySDNN": kind = .heartRateVariabilitySDNN
        case "HKQuantityTypeIdentifierStepCount": kind = .steps
        case "HKQuantityTypeIdentifierBodyMass": kind = .bodyMass
        case "HKQuantityTypeIdentifierHeight": kind = .height
        case "HKCategoryTypeIdentifierSleepAnalysis": kind = .sleep
        default:
            skipped[type, default: 0] += 1
            return nil
        }
        guard let (start, startOffset) = a["startDate"].flatMap(Self.date), let (end, _) = a["endDate"].flatMap(Self.date) else {
            throw Failure(line: line, message: "a \(type) record without a valid startDate/endDate (expected yyyy-MM-dd HH:mm:ss ±hhmm)")
        }
        guard end >= start else { throw Failure(line: line, message: "a \(type) record ends before it starts") }
        let value: Double
        if kind == .sleep {
            guard let stage = a["value"].flatMap(Self.sleepStage) else {
                throw Failure(line: line, message: "a sleep record with an unknown value \(a["value"] ?? "(none)")")
            }
            value = Double(stage.rawValue)
        } else {
            guard let raw = a["value"].flatMap(Double.init), raw.isFinite else {
                throw Failure(line: line, message: "a \(type) record without a numeric value")
            }
            guard let converted = Self.convert(raw, unit: a["unit"] ?? "", kind: kind) else {
                throw Failure(line: line, message: "a \(type) record in an unknown unit \(a["unit"] ?? "(none)")")
            }
            value = converted
        }
        return .sample(
            HealthSample(
                kind: kind, start: start, end: end, utcOffsetSeconds: startOffset, value: value,
                source: String((a["sourceName"] ?? "").prefix(200)), device: a["device"].flatMap(Self.deviceName)))
    }

    func workout(_ a: [String: String], line: Int) throws(Failure) -> HealthWorkout? {
        guard let (start, offset) = a["startDate"].flatMap(Self.date), let (end, _) = a["endDate"].flatMap(Self.date), end >= start else {
            throw Failure(line: line, message: "a workout without a valid startDate/endDate")
        }
        var energy = a["totalEnergyBurned"].flatMap(Double.init)
        switch a["totalEnergyBurnedUnit"] {
        case "kJ"?: energy = energy.map { $0 / 4.184 }
        case "kcal"?, "Cal"?, nil: break
        default: energy = nil
        }
        var distance = a["totalDistance"].flatMap(Double.init)
        switch a["totalDistanceUnit"] {
        case "km"?: distance = distance.map { $0 * 1000 }
        case "mi"?: distance = distance.map { $0 * 1609.344 }
        case "m"?, nil: break
        case "yd"?: distance = distance.map { $0 * 0.9144 }
        default: distance = nil
        }
        return HealthWorkout(
            activityType: a["workoutActivityType"] ?? "HKWorkoutActivityTypeOther", start: start, end: end, utcOffsetSeconds: offset,
            kilocalories: energy.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
            distanceMeters: distance.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
            source: String((a["sourceName"] ?? "").prefix(200)), device: a["device"].flatMap(Self.deviceName), routePath: nil)
    }

    static func convert(_ value: Double, unit: String, kind: HealthSample.Kind) -> Double? {
        switch (kind, unit) {
        case (.heartRate, "count/min"), (.restingHeartRate, "count/min"), (.walkingHeartRateAverage, "count/min"): value
        case (.heartRate, "count/s"), (.restingHeartRate, "count/s"), (.walkingHeartRateAverage, "count/s"): value * 60
        case (.heartRateVariabilitySDNN, "ms"): value
        case (.heartRateVariabilitySDNN, "s"): value * 1000
        case (.steps, "count"): value
        case (.bodyMass, "kg"): value
        case (.bodyMass, "g"): value / 1000
        case (.bodyMass, "lb"): value * 0.453_592_37
        case (.bodyMass, "st"): value * 6.350_293_18
        case (.height, "m"): value
        case (.height, "cm"): value / 100
        case (.height, "in"): value * 0.0254
        case (.height, "ft"): value * 0.3048
        default: nil
        }
    }

    static func sleepStage(_ value: String) -> HealthSample.SleepStage? {
        switch value {
        case "HKCategoryValueSleepAnalysisInBed": .inBed
        case "HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified": .asleep
        case "HKCategoryValueSleepAnalysisAwake": .awake
        case "HKCategoryValueSleepAnalysisAsleepCore": .core
        case "HKCategoryValueSleepAnalysisAsleepDeep": .deep
        case "HKCategoryValueSleepAnalysisAsleepREM": .rem
        default: nil
        }
    }

    /// "<<HKDevice: 0x…>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, …>" → "Apple Watch".
    static func deviceName(_ text: String) -> String? {
        guard let range = text.range(of: "name:") else { return nil }
        let name = text[range.upperBound...].prefix { $0 != "," && $0 != ">" }.trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : String(name.prefix(200))
    }

    /// "2023-04-30 08:00:58 +0200" → the instant and the offset in seconds.
    public static func date(_ text: String) -> (Date, Int)? {
        let b = Array(text.utf8)
        guard b.count == 25, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x20,
            b[20] == 0x2B || b[20] == 0x2D
        else { return nil }
        func number(_ from: Int, _ to: Int) -> Int? {
            var value = 0
            for i in from..<to {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 7), let day = number(8, 10), let hour = number(11, 13), let minute = number(14, 16),
            let second = number(17, 19), let offsetHours = number(21, 23), let offsetMinutes = number(23, 25),
            hour < 24, minute < 60, second < 61, offsetHours < 15, offsetMinutes < 60,
            let calendarDay = CalendarDay(year: year, month: month, day: day)
        else { return nil }
        let offset = (b[20] == 0x2D ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
        let local = calendarDay.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second
        return (Date(timeIntervalSince1970: Double(local - offset)), offset)
    }

    /// "8:01:02.35 AM" or "20:01:02.35" → seconds after midnight.
    public static func clockSeconds(_ text: String) -> Double? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        var pm: Bool?
        if body.hasSuffix("AM") || body.hasSuffix("PM") {
            pm = body.hasSuffix("PM")
            body = body.dropLast(2)
        }
        let parts = body.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".").split(separator: ":")
        guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), let s = Double(parts[2]),
            (0..<24).contains(h), (0..<60).contains(m), s >= 0, s < 61
        else { return nil }
        var hour = h
        if let pm {
            guard (1...12).contains(h) else { return nil }
            hour = h % 12 + (pm ? 12 : 0)
        }
        return Double(hour * 3600 + m * 60) + s
    }
}
