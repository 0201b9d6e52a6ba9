/// What counts as an RR interval at all, and what is physiologically plausible.
public enum RRValidation {
    /// Longer than this is a gap in the recording, not a heartbeat (a 5-s pause).
    public static let maximumIntervalMilliseconds = 5_000.0
    /// 30–300 bpm; outside it an interval is kept but handed to the artifact stage with a warning.
    public static let plausibleMilliseconds: ClosedRange<Double> = 200...2_000

    static func allUsable(_ rr: [Double]) -> Bool {
        rr.allSatisfy { $0.isFinite && $0 > 0 && $0 <= maximumIntervalMilliseconds }
    }
}

/// Why an RR series cannot be analysed.
public enum RRSeriesError: Error, Hashable, Sendable, CustomStringConvertible {
    case tooFewIntervals(count: Int)
    case notAnInterval(index: Int, milliseconds: Double)

    public var description: String {
        switch self {
        case .tooFewIntervals(let count):
            "\(count) RR interval\(count == 1 ? "" : "s"): at least 2 are needed"
        case .notAnInterval(let index, let value):
            "interval \(index + 1): \(value) ms is not an RR interval (accepted: more than 0 and at most \(Int(RRValidation.maximumIntervalMilliseconds)) ms; split the recording at longer gaps)"
        }
    }
}
