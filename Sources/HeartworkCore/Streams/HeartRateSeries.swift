/// Heart rate at exactly one value per second; `nil` where no reading is available.
/// Every HeartMate computation runs on this grid (seed-000 §8.5).
public struct HeartRateSeries: Sendable, Hashable, Codable {
    /// Time of second 0, in the same clock as the readings it came from.
    public var originSeconds: Double
    public var beatsPerMinute: [Double?]

    public init(originSeconds: Double = 0, beatsPerMinute: [Double?]) {
        self.originSeconds = originSeconds
        self.beatsPerMinute = beatsPerMinute
    }

    public var durationSeconds: Int { beatsPerMinute.count }

    /// The series cut or padded with missing seconds to exactly `seconds` long
    /// (a ghost challenge locks the duration to the recording's).
    public func fitted(toSeconds seconds: Int) -> HeartRateSeries {
        let length = max(0, seconds)
        var values = Array(beatsPerMinute.prefix(length))
        values.append(contentsOf: repeatElement(nil, count: length - values.count))
        return HeartRateSeries(originSeconds: originSeconds, beatsPerMinute: values)
    }

    /// Resamples irregular readings onto the 1 Hz grid.
    ///
    /// Second k covers [origin + k, origin + k + 1) and takes the last reading inside it.
    /// A second without a reading holds the previous value for up to `maximumHoldSeconds`
    /// seconds, then is missing (PRODUCT.md: "gaps hold the last value up to 5 s").
    /// A reading of 0 bpm is what straps send without skin contact: it is a gap, not a value.
    /// The series runs from `origin` (default: the first reading) to the last reading.
    public static func resampling(
        _ readings: [TimedHeartRate],
        originSeconds: Double? = nil,
        maximumHoldSeconds: Int = 5
    ) throws(HeartRateStreamError) -> HeartRateSeries {
        try validate(readings)
        guard let first = readings.first, let last = readings.last else {
            return HeartRateSeries(originSeconds: originSeconds ?? 0, beatsPerMinute: [])
        }
        let origin = originSeconds ?? first.timeSeconds
        if first.timeSeconds < origin {
            throw .beforeOrigin(index: 0, timeSeconds: first.timeSeconds, originSeconds: origin)
        }
        let secondCount = Int((last.timeSeconds - origin).rounded(.down)) + 1
        var values = [Double?](repeating: nil, count: secondCount)
        var readingIndex = 0
        var held: Double?
        var secondsSinceReading = Int.max
        for second in 0..<secondCount {
            let binEnd = origin + Double(second + 1)
            var latestInBin: Double?
            var binHadReading = false
            while readingIndex < readings.count && readings[readingIndex].timeSeconds < binEnd {
                let bpm = readings[readingIndex].beatsPerMinute
                latestInBin = bpm > 0 ? bpm : nil
                binHadReading = true
                readingIndex += 1
            }
            if binHadReading {
                held = latestInBin
                secondsSinceReading = 0
            } else if secondsSinceReading != Int.max {
                secondsSinceReading += 1
            }
            values[second] = secondsSinceReading <= maximumHoldSeconds ? held : nil
        }
        return HeartRateSeries(originSeconds: origin, beatsPerMinute: values)
    }

    private static func validate(_ readings: [TimedHeartRate]) throws(HeartRateStreamError) {
        var previous = -Double.infinity
        for (index, reading) in readings.enumerated() {
            guard reading.timeSeconds.isFinite else {
                throw .invalidTime(index: index, timeSeconds: reading.timeSeconds)
            }
            guard reading.timeSeconds >= previous else {
                throw .timeGoesBackwards(index: index, timeSeconds: reading.timeSeconds, previousSeconds: previous)
            }
            let bpm = reading.beatsPerMinute
            guard bpm == 0 || PhysiologicalLimits.plausibleHeartRate.contains(bpm) else {
                throw .implausibleHeartRate(index: index, beatsPerMinute: bpm)
            }
            previous = reading.timeSeconds
        }
    }
}
