/// Summary statistics of a 1 Hz series over the seconds that have a value.
public struct HeartRateSummary: Sendable, Hashable, Codable {
    public let durationSeconds: Int
    public let secondsWithReading: Int
    public let minimumBPM: Double
    public let maximumBPM: Double
    public let meanBPM: Double
    /// Sample standard deviation (n − 1); 0 for a single reading.
    public let standardDeviationBPM: Double

    /// Nil when the series has no reading at all.
    public init?(_ series: HeartRateSeries) {
        let values = series.beatsPerMinute.compactMap { $0 }
        guard let first = values.first else { return nil }
        var minimum = first
        var maximum = first
        var sum = 0.0
        for value in values {
            minimum = min(minimum, value)
            maximum = max(maximum, value)
            sum += value
        }
        let mean = sum / Double(values.count)
        let squares = values.reduce(0.0) { $0 + ($1 - mean) * ($1 - mean) }
        durationSeconds = series.durationSeconds
        secondsWithReading = values.count
        minimumBPM = minimum
        maximumBPM = maximum
        meanBPM = mean
        standardDeviationBPM = values.count > 1 ? (squares / Double(values.count - 1)).squareRoot() : 0
    }
}
