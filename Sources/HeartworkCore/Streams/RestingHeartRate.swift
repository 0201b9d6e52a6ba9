/// Resting heart rate from a short reading taken at rest.
public enum RestingHeartRate {
    /// HeartMate averages the monitor for twenty seconds (seed-000 §3.11).
    public static let readingSeconds = 20

    /// The arithmetic mean of the first 20 seconds of the reading on the 1 Hz grid.
    /// Throws if the reading is shorter or has a second without a heart rate in it
    /// (after the usual 5-second hold across dropped notifications).
    public static func measure(_ readings: [TimedHeartRate]) throws(HeartRateStreamError) -> Double {
        let series = try HeartRateSeries.resampling(readings)
        guard series.durationSeconds >= readingSeconds else {
            throw .tooShort(seconds: series.durationSeconds, required: readingSeconds)
        }
        var sum = 0.0
        for second in 0..<readingSeconds {
            guard let bpm = series.beatsPerMinute[second] else { throw .gapInReading(second: second) }
            sum += bpm
        }
        let mean = sum / Double(readingSeconds)
        guard PhysiologicalLimits.restingHeartRate.contains(mean) else {
            throw .implausibleRestingHeartRate(mean)
        }
        return mean
    }
}
