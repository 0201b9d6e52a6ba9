import Foundation
import HeartworkCore
import HeartworkStore

extension DailyHealthService {
    /// The most buckets `heartRate(for:from:to:resolution:)` answers (a day per second is 86,400).
    public static let maximumHeartRatePoints = 100_000
    /// The longest range it answers, at any resolution.
    public static let maximumHeartRateRangeDays = 366

    /// Heart rate over a stretch of time, in bins (the history page).
    public struct HeartRateBin: Sendable, Hashable {
        public var start: Date
        public var minimum: Double
        public var maximum: Double
        public var average: Double
    }

    public struct HeartRateHistory: Sendable {
        public var from: Date
        public var to: Date
        public var binSeconds: Int
        public var bins: [HeartRateBin]
        public var minimum: Double?
        public var maximum: Double?
        public var average: Double?
    }

    /// The history page's windows: seed 003's "last day", "last 7 days" and "last 30 days",
    /// each the last 24 h × days up to now (`Date.init(timeIntervalSinceNow: -7*24*60*60)` to
    /// `Date()`, F5), not calendar days — at 00:30 the last 24 hours are mostly yesterday's, and
    /// across a change to or from summer time they are still 24 hours.
    public enum HistoryWindow: String, Sendable, CaseIterable {
        case day, week, month

        public var days: Int {
            switch self {
            case .day: 1
            case .week: 7
            case .month: 30
            }
        }

        /// Bins of 5 minutes over 24 hours, an hour over 7 days, 2 hours over 30 (at most 360).
        public var binSeconds: Int {
            switch self {
            case .day: 300
            case .week: 3600
            case .month: 7200
            }
        }

        /// "Last 24 hours", "Last 7 days", "Last 30 days".
        public var label: String { self == .day ? "Last 24 hours" : "Last \(days) days" }
    }

    /// The user's heart rate in the window ending `now`, every source resolved, in bins.
    public func heartRateHistory(for user: UserRecord, window: HistoryWindow, now: Date = Date()) async throws -> HeartRateHistory {
        let from = now.addingTimeInterval(-Double(window.days) * 86_400)
        let range = try await heartRateRange(for: user, from: from, to: now, bucketSeconds: window.binSeconds)
        return HeartRateHistory(
            from: from, to: now, binSeconds: window.binSeconds,
            bins: range.buckets.map { HeartRateBin(start: $0.start, minimum: $0.minimum, maximum: $0.maximum, average: $0.average) },
            minimum: range.minimum, maximum: range.maximum, average: range.average)
    }

    /// `GET /api/heart-rate`: the range's minimum, maximum and time-weighted average with the
    /// series at `resolution` (`HeartRateRange`). Without a resolution: per minute up to 7
    /// days, per hour beyond. A range is at most `maximumHeartRateRangeDays` and at most
    /// `maximumHeartRatePoints` buckets at its resolution (per second about 27 hours, per
    /// minute about 69 days); a longer one is refused, naming the resolution that fits.
    public func heartRate(for user: UserRecord, from: Date, to: Date, resolution: HeartRateRange.Resolution?) async throws -> HeartRateRange {
        guard to > from else { throw AppError.invalid("to must be after from", field: "to") }
        let seconds = to.timeIntervalSince(from)
        guard seconds <= Double(Self.maximumHeartRateRangeDays) * 86_400 else {
            throw AppError.invalid("a range is at most \(Self.maximumHeartRateRangeDays) days", field: "to")
        }
        let resolution = resolution ?? (seconds <= 7 * 86_400 ? .minute : .hour)
        let points = Int((seconds / Double(resolution.seconds)).rounded(.up))
        guard points <= Self.maximumHeartRatePoints else {
            let coarser = HeartRateRange.Resolution.allCases.first { (seconds / Double($0.seconds)).rounded(.up) <= Double(Self.maximumHeartRatePoints) }
            let limit = Self.describe(seconds: Self.maximumHeartRatePoints * resolution.seconds)
            throw AppError.invalid(
                "per \(resolution.rawValue) a range is at most \(limit) (\(Self.maximumHeartRatePoints) points); this one is \(Self.describe(seconds: Int(seconds))): "
                    + "ask per \(coarser?.rawValue ?? "hour") or a shorter range", field: "resolution")
        }
        return try await heartRateRange(for: user, from: from, to: to, bucketSeconds: resolution.seconds)
    }

    /// How many days of samples `heartRate(for:from:to:resolution:)` reads at a time.
    public static let heartRateWindowDays = 7

    /// The samples starting in `from..<to` (and the next one, which ends the last one's time),
    /// resolved by the user's source order, summarized.
    func heartRateRange(for user: UserRecord, from: Date, to: Date, bucketSeconds: Int) async throws -> HeartRateRange {
        let settings = try await store.daily.settings(userID: user.id)
        let health = store.health
        return try await Self.foldHeartRate(
            from: from, to: to, bucketSeconds: bucketSeconds, priority: HealthSourcePriority(order: settings.sourceOrder),
            windowDays: Self.heartRateWindowDays
        ) { first, last in
            try await health.samples(userID: user.id, kind: .heartRate, from: first, through: last)
        }
    }

    /// `HeartRateRange.summarize` of the resolved samples starting in `from..<to + 10 min`,
    /// read `windowDays` UTC days at a time (`load` gives the samples stored for local days
    /// `first...last`), so memory holds about a window whatever the range: each window is
    /// resolved as it comes (`HealthSourcePriority.Stream`) and folded into the range
    /// (`HeartRateRange.Accumulator`, whose last sample waits for the next window's first). The
    /// answer is the one reading every sample at once would give.
    static func foldHeartRate(
        from: Date, to: Date, bucketSeconds: Int, priority: HealthSourcePriority, windowDays: Int,
        load: (CalendarDay, CalendarDay) async throws -> [HealthSample]
    ) async throws -> HeartRateRange {
        let end = to.addingTimeInterval(RISE.maximumSampleSeconds)
        // Samples are stored by the local day where they were taken: a day either side of the
        // UTC days covers every offset (±14 h), so a sample stored on a day past a window's
        // last (UTC) day + 1 starts after the window.
        let firstDay = CalendarDay(from).adding(days: -1)
        let lastDay = CalendarDay(to).adding(days: 1)
        var stream = HealthSourcePriority.Stream(priority)
        var range = HeartRateRange.Accumulator(from: from, to: to, bucketSeconds: bucketSeconds)
        var loadedThrough = firstDay.adding(days: -1)
        var carried = [HealthSample]()  // read with an earlier window, starting in a later one
        var window = CalendarDay(from)
        while loadedThrough < lastDay {
            let windowEnd = window.adding(days: max(1, windowDays))
            let through = min(lastDay, windowEnd)
            var samples = carried
            if loadedThrough < through {
                samples += try await load(loadedThrough.adding(days: 1), through).filter { $0.start >= from && $0.start < end }
                loadedThrough = through
            }
            let boundary = loadedThrough < lastDay ? windowEnd.start() : Date.distantFuture
            carried = samples.filter { $0.start >= boundary }
            for sample in stream.add(samples.filter { $0.start < boundary }, before: boundary) { range.add(sample) }
            window = windowEnd
        }
        for sample in stream.finish() { range.add(sample) }
        return range.range()
    }

    /// "27 h 46 min", "69 days 10 h".
    static func describe(seconds: Int) -> String {
        let days = seconds / 86_400
        let hours = seconds % 86_400 / 3600
        let minutes = seconds % 3600 / 60
        if days >= 2 { return hours > 0 ? "\(days) days \(hours) h" : "\(days) days" }
        let totalHours = seconds / 3600
        return minutes > 0 ? "\(totalHours) h \(minutes) min" : "\(totalHours) h"
    }

    /// Today where the user is.
    public func today(for user: UserRecord, now: Date = Date()) -> CalendarDay {
        let zone = TimeZones.zone(user.timeZone)
        return CalendarDay(now, utcOffsetSeconds: zone.secondsFromGMT(for: now))
    }

    /// Whether the night before `day` can still be rated (until the day is over).
    public func canRateSleep(_ day: CalendarDay, summary: DailySummary, now: Date = Date()) -> Bool {
        now < day.adding(days: 1).start(utcOffsetSeconds: summary.utcOffsetSeconds)
            && now >= day.start(utcOffsetSeconds: summary.utcOffsetSeconds).addingTimeInterval(-6 * 3600)
    }
}
