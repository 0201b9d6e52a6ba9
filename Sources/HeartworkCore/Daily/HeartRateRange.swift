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
        var accumulator = Accumulator(from: from, to: to, bucketSeconds: bucketSeconds, maximumSampleSeconds: maximumSampleSeconds)
        for sample in sorted { accumulator.add(sample) }
        return accumulator.range()
    }

    /// `summarize` a sample at a time, so a long range can be read a window at a time without
    /// holding its samples: give it every sample (resolved, by start) in order; the last one
    /// it was given waits for the next to end its time, across the windows' edges. The same
    /// samples give the same answer, whether given at once or window by window.
    public struct Accumulator: Sendable {
        struct Cell: Sendable {
            var minimum: Double
            var maximum: Double
            var weighted: Double
            var seconds: Double
        }

        let from: Date
        let to: Date
        let size: Double
        let origin: Double
        let maximumSampleSeconds: Double
        var statistics: HeartRateRange
        var cells = [Int: Cell]()
        var weighted = 0.0
        var seconds = 0.0
        /// The last usable sample given when it starts in the range: its time ends at the next.
        var pending: HealthSample?

        public init(from: Date, to: Date, bucketSeconds: Int, maximumSampleSeconds: Double = RISE.maximumSampleSeconds) {
            self.from = from
            self.to = to
            size = Double(max(1, bucketSeconds))
            origin = (from.timeIntervalSince1970 / size).rounded(.down) * size
            self.maximumSampleSeconds = maximumSampleSeconds
            statistics = HeartRateRange(
                from: from, to: to, bucketSeconds: max(1, bucketSeconds), minimum: nil, maximum: nil, average: nil, samples: 0,
                coveredSeconds: 0, buckets: [])
        }

        /// The next sample by start (a sample with no usable value is passed over, and does
        /// not end the one before).
        public mutating func add(_ sample: HealthSample) {
            guard sample.value.isFinite && sample.value > 0 else { return }
            if let previous = pending { count(previous, next: sample.start.timeIntervalSince1970) }
            pending = sample.start >= from && sample.start < to ? sample : nil
        }

        /// The range so far: a last sample without a next one stands for `maximumSampleSeconds`.
        public func range() -> HeartRateRange {
            var copy = self
            if let last = copy.pending { copy.count(last, next: last.start.timeIntervalSince1970 + maximumSampleSeconds) }
            var range = copy.statistics
            guard to > from else { return range }
            range.average = copy.seconds > 0 ? HeartRateRange.round1(copy.weighted / copy.seconds) : nil
            range.coveredSeconds = copy.seconds
            range.buckets = copy.cells.keys.sorted().compactMap { key in
                guard let cell = copy.cells[key], cell.seconds > 0 else { return nil }
                return Bucket(
                    start: Date(timeIntervalSince1970: origin + Double(key) * size), minimum: cell.minimum,
                    average: HeartRateRange.round1(cell.weighted / cell.seconds), maximum: cell.maximum, coveredSeconds: cell.seconds)
            }
            return range
        }

        /// Counts a sample of the range, standing until `next` (at least 1 s, at most
        /// `maximumSampleSeconds`, never past the range's end).
        mutating func count(_ sample: HealthSample, next: Double) {
            let start = sample.start.timeIntervalSince1970
            let finish = min(to.timeIntervalSince1970, start + min(maximumSampleSeconds, max(1, next - start)))
            let value = sample.value
            statistics.samples += 1
            statistics.minimum = min(statistics.minimum ?? value, value)
            statistics.maximum = max(statistics.maximum ?? value, value)
            weighted += value * (finish - start)
            seconds += finish - start
            var bucket = Int(((start - origin) / size).rounded(.down))
            while true {
                let bucketStart = origin + Double(bucket) * size
                guard bucketStart < finish else { break }
                let covered = min(finish, bucketStart + size) - max(start, bucketStart)
                var cell = cells[bucket] ?? Cell(minimum: value, maximum: value, weighted: 0, seconds: 0)
                cell.minimum = min(cell.minimum, value)
                cell.maximum = max(cell.maximum, value)
                cell.weighted += value * covered
                cell.seconds += covered
                cells[bucket] = cell
                bucket += 1
            }
        }
    }

    static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
