/// One heart-rate reading at a time offset in seconds (any origin the caller chooses).
public struct TimedHeartRate: Sendable, Hashable, Codable {
    public var timeSeconds: Double
    public var beatsPerMinute: Double

    public init(timeSeconds: Double, beatsPerMinute: Double) {
        self.timeSeconds = timeSeconds
        self.beatsPerMinute = beatsPerMinute
    }
}

/// Why a stream of readings cannot be turned into a series.
public enum HeartRateStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidTime(index: Int, timeSeconds: Double)
    case timeGoesBackwards(index: Int, timeSeconds: Double, previousSeconds: Double)
    case implausibleHeartRate(index: Int, beatsPerMinute: Double)
    case beforeOrigin(index: Int, timeSeconds: Double, originSeconds: Double)
    case tooShort(seconds: Int, required: Int)
    case gapInReading(second: Int)
    case implausibleRestingHeartRate(Double)

    public var description: String {
        switch self {
        case .invalidTime(let index, let time):
            "reading \(index + 1): time \(time) is not a finite number of seconds"
        case .timeGoesBackwards(let index, let time, let previous):
            "reading \(index + 1): time \(time.formattedForMessage) s is earlier than the previous reading at \(previous.formattedForMessage) s"
        case .implausibleHeartRate(let index, let bpm):
            "reading \(index + 1): heart rate \(bpm.formattedForMessage) bpm is outside 0 (no reading) or \(PhysiologicalLimits.plausibleHeartRate.formattedForMessage) bpm"
        case .beforeOrigin(let index, let time, let origin):
            "reading \(index + 1): time \(time.formattedForMessage) s is before the start of the series at \(origin.formattedForMessage) s"
        case .tooShort(let seconds, let required):
            "the reading covers \(seconds) s; \(required) s are needed"
        case .gapInReading(let second):
            "the reading has no heart rate at second \(second)"
        case .implausibleRestingHeartRate(let bpm):
            "a resting heart rate of \(bpm.formattedForMessage) bpm is outside \(PhysiologicalLimits.restingHeartRate.formattedForMessage) bpm; was the athlete at rest?"
        }
    }
}
