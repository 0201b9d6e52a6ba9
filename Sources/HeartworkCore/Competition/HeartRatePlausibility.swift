/// Whether a side's live heart rate in a match between friends is one a heart can make (issue
/// 40: a forged strap sending a constant 190 bpm, with RR intervals that did not agree, won
/// 46–0). Bytes from a page can always be forged; these rules catch the lazy forgery and a
/// strap that misbehaves, and each second they refuse counts as lost contact (zone none, no
/// points), so the result says how many seconds of a side's data were implausible rather than
/// crowning them. Checked one second at a time, in order (docs/PROTOCOL.md §10, docs/MATCHES.md):
///
/// 1. **RR intervals agree with the rate.** Where the strap sends RR intervals, each is a beat a
///    heart can make (200–2,000 ms, `RRValidation`'s range), and the rate their median implies
///    is within `rrTolerance` of the reported rate (at least `rrToleranceBeats`): a strap
///    computes its rate from those beats.
/// 2. **Changes a heart can make.** The rate moves at most `maximumChangePerSecond` bpm a second
///    from the last second with a reading (so much more over a gap); a heart speeds up or slows
///    down by a few beats a second at most.
/// 3. **No long flat line.** The same rate for more than `flatSeconds` seconds in a row, or the
///    same RR intervals for more than `flatRRSeconds`: a heart at work varies by a beat or more,
///    and beat-to-beat intervals always vary.
public struct HeartRatePlausibility: Sendable {
    /// Why a second was refused.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        case rrOutOfRange = "rr-out-of-range"
        case rrDisagrees = "rr-disagrees"
        case tooFastChange = "too-fast-change"
        case flatLine = "flat-line"
    }

    public static let rrRange = 200.0...2_000.0
    /// The share of the rate by which the rate implied by the RR intervals may differ.
    public static let rrTolerance = 0.25
    /// …and the beats by which it may always differ (rounding, a beat's lag at low rates).
    public static let rrToleranceBeats = 20.0
    public static let maximumChangePerSecond = 30.0
    public static let flatSeconds = 120
    public static let flatRRSeconds = 20

    private var last: (bpm: Double, second: Int)?
    private var run: (bpm: Double, length: Int)?
    private var rrRun: (rr: [Double], length: Int)?

    public init() {}

    /// The verdict on second `second`'s reading: nil when it is plausible (or there is none:
    /// lost contact is not implausible). Seconds must come in order.
    public mutating func check(second: Int, bpm: Double?, rrMilliseconds: [Double]) -> Reason? {
        guard let bpm, bpm > 0 else {
            run = nil
            rrRun = nil
            return nil
        }
        defer { last = (bpm, second) }
        if let previous = run, previous.bpm == bpm {
            run = (bpm, previous.length + 1)
        } else {
            run = (bpm, 1)
        }
        if rrMilliseconds.isEmpty {
            rrRun = nil
        } else if let previous = rrRun, previous.rr == rrMilliseconds {
            rrRun = (rrMilliseconds, previous.length + 1)
        } else {
            rrRun = (rrMilliseconds, 1)
        }
        if !rrMilliseconds.isEmpty {
            guard rrMilliseconds.allSatisfy({ Self.rrRange.contains($0) }) else { return .rrOutOfRange }
            let sorted = rrMilliseconds.sorted()
            let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            let implied = 60_000 / median
            guard abs(implied - bpm) <= max(Self.rrToleranceBeats, Self.rrTolerance * bpm) else { return .rrDisagrees }
        }
        if let last, second > last.second {
            guard abs(bpm - last.bpm) <= Self.maximumChangePerSecond * Double(second - last.second) else { return .tooFastChange }
        }
        if let run, run.length > Self.flatSeconds { return .flatLine }
        if let rrRun, rrRun.length > Self.flatRRSeconds { return .flatLine }
        return nil
    }
}
