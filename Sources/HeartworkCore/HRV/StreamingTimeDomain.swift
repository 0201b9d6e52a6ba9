/// Time-domain indices over a sliding window of the most recent beats, updated in O(1)
/// (amortised) per beat: a live team session shows them per player as beats arrive.
///
/// Running sums are kept relative to a reference interval to avoid cancellation, and
/// rebuilt from the window every `window` removals so rounding cannot drift.
public struct StreamingTimeDomain: Sendable {
    public let windowSeconds: Double
    private var beats: [Double] = []
    private var head = 0
    private var reference = 0.0
    private var sum = 0.0, sumSquares = 0.0
    private var differenceSum = 0.0, differenceSquares = 0.0
    private var nn50 = 0, nn20 = 0
    private var heartRateSum = 0.0
    private var durationMilliseconds = 0.0
    private var removalsSinceRebuild = 0

    public init(windowSeconds: Double = 300) {
        self.windowSeconds = windowSeconds
    }

    public var count: Int { beats.count - head }

    /// Adds one corrected interval (ms); the oldest beats leave once the window is full.
    public mutating func append(_ interval: Double) {
        if count == 0 { reference = interval }
        if let previous = beats.last, count > 0 { addDifference(interval - previous, sign: 1) }
        beats.append(interval)
        addBeat(interval, sign: 1)
        while durationMilliseconds > windowSeconds * 1000 && count > 1 {
            let oldest = beats[head]
            addDifference(beats[head + 1] - oldest, sign: -1)
            addBeat(oldest, sign: -1)
            head += 1
            removalsSinceRebuild += 1
        }
        if head > 4096 && head > count {
            beats.removeFirst(head)
            head = 0
        }
        if removalsSinceRebuild >= max(64, count) { rebuild() }
    }

    public var meanNN: Double? { count > 0 ? reference + sum / Double(count) : nil }

    public var sdnn: Double? {
        guard count > 1 else { return nil }
        let n = Double(count)
        return max(0, (sumSquares - sum * sum / n) / (n - 1)).squareRoot()
    }

    public var rmssd: Double? {
        guard count > 1 else { return nil }
        return (differenceSquares / Double(count - 1)).squareRoot()
    }

    public var sdsd: Double? {
        guard count > 2 else { return nil }
        let n = Double(count - 1)
        return max(0, (differenceSquares - differenceSum * differenceSum / n) / (n - 1)).squareRoot()
    }

    public var pnn50: Double? { count > 1 ? 100 * Double(nn50) / Double(count) : nil }
    public var pnn20: Double? { count > 1 ? 100 * Double(nn20) / Double(count) : nil }
    public var meanHR: Double? { count > 0 ? heartRateSum / Double(count) : nil }

    private mutating func addBeat(_ interval: Double, sign: Double) {
        let shifted = interval - reference
        sum += sign * shifted
        sumSquares += sign * shifted * shifted
        heartRateSum += sign * 60_000 / interval
        durationMilliseconds += sign * interval
    }

    private mutating func addDifference(_ difference: Double, sign: Double) {
        differenceSum += sign * difference
        differenceSquares += sign * difference * difference
        let step = sign > 0 ? 1 : -1
        if abs(difference) > 50 { nn50 += step }
        if abs(difference) > 20 { nn20 += step }
    }

    private mutating func rebuild() {
        let window = Array(beats[head...])
        beats = []
        head = 0
        sum = 0
        sumSquares = 0
        differenceSum = 0
        differenceSquares = 0
        nn50 = 0
        nn20 = 0
        heartRateSum = 0
        durationMilliseconds = 0
        reference = window.first ?? 0
        for (index, interval) in window.enumerated() {
            if index > 0 { addDifference(interval - window[index - 1], sign: 1) }
            beats.append(interval)
            addBeat(interval, sign: 1)
        }
        removalsSinceRebuild = 0
    }
}
