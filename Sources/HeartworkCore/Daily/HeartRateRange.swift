import Foundation

/// Heart rate over a stretch of time: its minimum, maximum and time-weighted average, and the
/// series in buckets of a second, a minute or an hour, each with its own minimum, average and
/// maximum (issue 24; `GET /api/heart-rate`, the history page, `heartwork heart-rate`).
///
/// Seed 003 (iHeart Monitor, `../shared/spec/seed-003-digest.md` F5, §3.3) fetches "the last
/// 7 days of HEARTRATE" as `startDate = Date.init(timeIntervalSinceNow: -7*24*60*60)`,
/// `endDate = Date()` with `.strictStartDate`, and says "statistics queries are used to provide
/// minimum, maximum and average calculations for a period of time". So a range is `from..<to`
/// and a sample belongs to it when it *starts* in it.
///
/// Heartwork's choices where the seed is silent: the average is over time, not over readings
/// (`DailyCalculator.averageOverTime`'s rule): each sample stands for the time until the next
/// one, at least 1 s and at most `RISE.maximumSampleSeconds` (10 minutes; a longer gap is time
/// the watch was not worn and counts as nothing), and never past the range's end. A bucket
/// holds the part of every sample's time that falls in it, so at a second's resolution a
/// reading every 5 s fills five buckets, and a bucket's average is over time too. Buckets are
/// aligned on the clock of UTC (a minute starts at :00, an hour on the UTC hour) and only those
/// some sample covers are listed.
public struct HeartRateRange: Sendable, Hashable {
    /// How long a bucket of the series is.
    public enum Resolution: String, Sendable, Hashable, CaseIterable, Codable {
        case second, minute, hour

        public var seconds: Int {
            switch self {
            case .second: 1
            case .minute: 60
            case .hour: 3600
            }
        }
    }

    /// One bucket of the series.
    public struct Bucket: Sendable, Hashable {
        public var start: Date
        public var minimum: Double
        public var average: Double
        public var maximum: Double
        /// The seconds of the bucket some sample covers.
        public var coveredSeconds: Double
    }

    public var from: Date
    public var to: Date
    public var bucketSeconds: Int
    /// Nil when no sample starts in the range.
    public var minimum: Double?
    public var maximum: Double?
    public var average: Double?
    /// The samples that start in the range.
    public var samples: Int
    /// The seconds the samples cover (each at most `maximumSampleSeconds`).
    public var coveredSeconds: Double
    public var buckets: [Bucket]

    /// The range's statistics and series from `sorted` (samples sorted by start, already
    /// resolved between sources; samples outside the range may be given: the one after the
    /// range's last sample ends that sample's time). `bucketSeconds` ≥ 1; the caller bounds
    /// the number of buckets.
    public static func summarize(
        _ sorted: [HealthSample], from: Date, to: Date, bucketSeconds: Int, maximumSampleSeconds: Double = RISE.maximumSampleSeconds
    ) -> HeartRateRange {
        let size = Double(max(1, bucketSeconds))
        var range = HeartRateRange(
            from: from, to: to, bucketSeconds: max(1, bucketSeconds), minimum: nil, maximum: nil, average: nil, samples: 0, coveredSeconds: 0,
            buckets: [])
        guard to > from else { return range }
        let origin = (from.timeIntervalSince1970 / size).rounded(.down) * size
        let end = to.timeIntervalSince1970
        var buckets = [Int: (minimum: Double, maximum: Double, weighted: Double, seconds: Double)]()
        var weighted = 0.0
        var seconds = 0.0
        let usable = sorted.filter { $0.value.isFinite && $0.value > 0 }
        for (index, sample) in usable.enumerated() where sample.start >= from && sample.start < to {
            let start = sample.start.timeIntervalSince1970
            let next = index + 1 < usable.count ? usable[index + 1].start.timeIntervalSince1970 : start + maximumSampleSeconds
            let finish = min(end, start + min(maximumSampleSeconds, max(1, next - start)))
            let value = sample.value
            range.samples += 1
            range.minimum = min(range.minimum ?? value, value)
            range.maximum = max(range.maximum ?? value, value)
            weighted += value * (finish - start)
            seconds += finish - start
            var bucket = Int(((start - origin) / size).rounded(.down))
            while true {
                let bucketStart = origin + Double(bucket) * size
                guard bucketStart < finish else { break }
                let covered = min(finish, bucketStart + size) - max(start, bucketStart)
                var entry = buckets[bucket] ?? (value, value, 0, 0)
                entry.minimum = min(entry.minimum, value)
                entry.maximum = max(entry.maximum, value)
                entry.weighted += value * covered
                entry.seconds += covered
                buckets[bucket] = entry
                bucket += 1
            }
        }
        range.average = seconds > 0 ? round1(weighted / seconds) : nil
        range.coveredSeconds = seconds
        range.buckets = buckets.keys.sorted().compactMap { key in
            guard let entry = buckets[key], entry.seconds > 0 else { return nil }
            return Bucket(
                start: Date(timeIntervalSince1970: origin + Double(key) * size), minimum: entry.minimum, average: round1(entry.weighted / entry.seconds),
                maximum: entry.maximum, coveredSeconds: entry.seconds)
        }
        return range
    }

    static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
