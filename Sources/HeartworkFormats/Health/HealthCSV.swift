import Foundation
import HeartworkCore

/// The account export's readable daily health (issue 41): the samples of each kind as CSV, a
/// month a file, and one row a day as CSV and JSON, with the sources each day's values came
/// from. RFC 4180 CSV (CRLF, fields with a comma, quote or line break quoted); a text field
/// that a spreadsheet would take for a formula (`=`, `+`, `-`, `@` first) gets a leading `'`.
public enum HealthCSV {
    /// The kinds written, with their file names and units.
    public static let kinds: [(kind: HealthSample.Kind, name: String, unit: String)] = [
        (.heartRate, "heart-rate", "bpm"), (.restingHeartRate, "resting-heart-rate", "bpm"),
        (.walkingHeartRateAverage, "walking-heart-rate", "bpm"), (.heartRateVariabilitySDNN, "hrv-sdnn", "ms"),
        (.steps, "steps", "count"), (.sleep, "sleep", "stage"),
    ]

    static let stageNames: [HealthSample.SleepStage: String] = [.inBed: "in bed", .asleep: "asleep", .awake: "awake", .core: "core", .deep: "deep", .rem: "rem"]

    /// `start,end,utc_offset_seconds,value,unit,source,device`, one sample a line; sleep's value
    /// is its stage's name.
    public static func samples(_ samples: [HealthSample], unit: String) -> String {
        var out = "start,end,utc_offset_seconds,value,unit,source,device\r\n"
        out.reserveCapacity(samples.count * 80)
        for sample in samples {
            let value =
                sample.kind == .sleep
                ? HealthSample.SleepStage(rawValue: Int(sample.value)).flatMap { stageNames[$0] } ?? "\(Int(sample.value))"
                : number(sample.value)
            let fields = [
                timestamp(sample.start, sample.utcOffsetSeconds), timestamp(sample.end, sample.utcOffsetSeconds), "\(sample.utcOffsetSeconds)", value,
                unit, text(sample.source), text(sample.device ?? ""),
            ]
            out += fields.joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// One day's row: what `DailySummary` holds of heart rate, resting heart rate, HRV, steps
    /// and sleep, and the sources of each kind's samples that day.
    public struct Day: Sendable, Codable, Hashable {
        public var date: String
        public var heartRateAverage: Double?
        public var heartRateMinimum: Double?
        public var heartRateMaximum: Double?
        public var heartRateSamples: Int?
        public var restingHeartRate: Double?
        public var hrvSDNNMilliseconds: Double?
        public var steps: Int?
        public var sleepInBedHours: Double?
        public var sleepAsleepHours: Double?
        public var sleepQuality: Int?
        public var recoveryPercent: Double?
        /// Per kind (the file names of `kinds`), the sources of that day's samples, sorted.
        public var sources: [String: [String]]

        public init(_ summary: DailySummary?, date: String, sources: [String: [String]]) {
            self.date = date
            heartRateAverage = summary?.heartRate?.average
            heartRateMinimum = summary?.heartRate?.minimum
            heartRateMaximum = summary?.heartRate?.maximum
            heartRateSamples = summary?.heartRate?.samples
            restingHeartRate = summary?.restingHeartRate
            hrvSDNNMilliseconds = summary?.hrvSDNNMilliseconds
            steps = summary?.steps
            sleepInBedHours = summary?.sleep?.inBedHours
            sleepAsleepHours = summary?.sleep?.asleepHours
            sleepQuality = summary?.sleep?.quality
            recoveryPercent = summary?.sleep?.recoveryPercent
            self.sources = sources
        }
    }

    public static let dayColumns = [
        "date", "heart_rate_average", "heart_rate_minimum", "heart_rate_maximum", "heart_rate_samples", "resting_heart_rate", "hrv_sdnn_ms", "steps",
        "sleep_in_bed_hours", "sleep_asleep_hours", "sleep_quality", "recovery_percent",
    ]

    /// One line a day, `dayColumns` then one `<kind>_sources` column a kind (sources joined by
    /// "; ").
    public static func days(_ days: [Day]) -> String {
        var out = (dayColumns + kinds.map { $0.name.replacingOccurrences(of: "-", with: "_") + "_sources" }).joined(separator: ",") + "\r\n"
        for day in days {
            var fields = [day.date]
            fields += [day.heartRateAverage, day.heartRateMinimum, day.heartRateMaximum].map { $0.map(number) ?? "" }
            fields.append(day.heartRateSamples.map { "\($0)" } ?? "")
            fields += [day.restingHeartRate, day.hrvSDNNMilliseconds].map { $0.map(number) ?? "" }
            fields.append(day.steps.map { "\($0)" } ?? "")
            fields += [day.sleepInBedHours, day.sleepAsleepHours].map { $0.map(number) ?? "" }
            fields.append(day.sleepQuality.map { "\($0)" } ?? "")
            fields.append(day.recoveryPercent.map(number) ?? "")
            fields += kinds.map { text((day.sources[$0.name] ?? []).joined(separator: "; ")) }
            out += fields.joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// A number as people write it: no trailing ".0", at most 3 decimals.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return "\(Int64(rounded))" }
        return "\(rounded)"
    }

    /// Local time with its offset: 2026-03-01T23:00:00+01:00.
    static func timestamp(_ date: Date, _ offset: Int) -> String {
        let local = date.addingTimeInterval(Double(offset))
        let seconds = Int64(local.timeIntervalSince1970.rounded(.down))
        let day = CalendarDay(daysSinceEpoch: Int((seconds >= 0 ? seconds : seconds - 86_399) / 86_400))
        let within = Int(seconds - Int64(day.daysSinceEpoch) * 86_400)
        let sign = offset < 0 ? "-" : "+"
        let o = abs(offset)
        return day.description + String(format: "T%02d:%02d:%02d", within / 3600, within / 60 % 60, within % 60) + sign
            + String(format: "%02d:%02d", o / 3600, o / 60 % 60)
    }

    /// A text field: quoted when it holds a comma, quote or line break; a leading `=`, `+`, `-`
    /// or `@` (a formula to a spreadsheet) escaped with `'`.
    static func text(_ value: String) -> String {
        var value = value
        if let first = value.first, "=+-@".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
