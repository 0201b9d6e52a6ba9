import Foundation
import HeartworkCore
import HeartworkStore

extension DailyHealthService {
    /// Heart rate over a stretch of time, in bins (a month draws at once).
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

    /// The user's heart rate in the `days` days ending with `through` (local days of the
    /// user's time zone), every source resolved, in bins of `binSeconds`: 5 minutes for a day,
    /// an hour for 7 days, 2 hours for 30 (at most 720 bins).
    public func heartRateHistory(for user: UserRecord, through: CalendarDay, days: Int) async throws -> HeartRateHistory {
        let days = max(1, min(days, 31))
        let binSeconds = days == 1 ? 300 : days <= 7 ? 3600 : 7200
        let first = through.adding(days: -(days - 1))
        let offset = Self.offset(of: [], day: through, user: user)
        let from = first.start(utcOffsetSeconds: offset)
        let to = through.adding(days: 1).start(utcOffsetSeconds: offset)
        let samples = HealthSourcePriority().resolve(
            try await store.health.samples(userID: user.id, kind: .heartRate, from: first.adding(days: -1), through: through.adding(days: 1))
                .filter { $0.start >= from && $0.start < to && $0.value.isFinite && $0.value > 0 })
        var sums = [Int: (min: Double, max: Double, sum: Double, count: Int)]()
        for sample in samples {
            let index = Int(sample.start.timeIntervalSince(from)) / binSeconds
            var bin = sums[index] ?? (sample.value, sample.value, 0, 0)
            bin.min = Swift.min(bin.min, sample.value)
            bin.max = Swift.max(bin.max, sample.value)
            bin.sum += sample.value
            bin.count += 1
            sums[index] = bin
        }
        let bins = sums.keys.sorted().compactMap { index -> HeartRateBin? in
            guard let bin = sums[index], bin.count > 0 else { return nil }
            return HeartRateBin(
                start: from.addingTimeInterval(Double(index * binSeconds)), minimum: bin.min, maximum: bin.max,
                average: (bin.sum / Double(bin.count) * 10).rounded() / 10)
        }
        // The average is over time (`DailyCalculator.averageOverTime`), so a workout's readings
        // every 5 s do not outweigh the day's every 5 minutes.
        let values = samples.map(\.value)
        return HeartRateHistory(
            from: from, to: to, binSeconds: binSeconds, bins: bins, minimum: values.min(), maximum: values.max(),
            average: DailyCalculator.averageOverTime(samples))
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
