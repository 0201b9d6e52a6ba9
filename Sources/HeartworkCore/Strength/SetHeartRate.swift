/// Heart rate during lifting (what lifters ask for, issue 12): for each set, the peak heart
/// rate while it was being done and the heart-rate recovery after it — Heartwork's own
/// definitions, as no source gives one for sets:
///
/// - a set's window runs from the end of the previous set (or the session's start) to the
///   moment it was logged done;
/// - peak = the highest reading in the window;
/// - recovery = peak − the reading 60 s after the set ended (the nearest within ±5 s), the
///   usual one-minute heart-rate recovery; nil when the next set started before then or no
///   reading is near.
public enum SetHeartRate {
    public static let recoverySeconds = 60.0
    public static let tolerance = 5.0

    public struct Result: Sendable, Hashable {
        public var peak: Int?
        public var recovery: Int?
        public var readings: Int
    }

    /// - Parameters:
    ///   - samples: readings sorted by time, `timeSeconds` on the same clock as the others
    ///     (seconds since 1970 in Heartwork).
    ///   - sessionStart: when the session began.
    ///   - ends: when each set was done (nil for a set never done), in set order.
    public static func analyse(samples: [TimedHeartRate], sessionStart: Double, ends: [Double?]) -> [Result] {
        var results = [Result]()
        var windowStart = sessionStart
        for (index, end) in ends.enumerated() {
            guard let end, end >= windowStart else {
                results.append(Result(peak: nil, recovery: nil, readings: 0))
                continue
            }
            let inWindow = slice(samples, from: windowStart, to: end)
            let peak = inWindow.map(\.beatsPerMinute).max()
            var recovery: Int?
            let target = end + recoverySeconds
            let nextStart = ends[(index + 1)...].compactMap { $0 }.first
            if let peak, nextStart.map({ $0 >= target }) ?? true {
                let near = slice(samples, from: target - tolerance, to: target + tolerance)
                if let closest = near.min(by: { abs($0.timeSeconds - target) < abs($1.timeSeconds - target) }) {
                    recovery = Int((peak - closest.beatsPerMinute).rounded())
                }
            }
            results.append(Result(peak: peak.map { Int($0.rounded()) }, recovery: recovery, readings: inWindow.count))
            windowStart = end
        }
        return results
    }

    static func slice(_ samples: [TimedHeartRate], from: Double, to: Double) -> ArraySlice<TimedHeartRate> {
        let lower = firstIndex(samples, notBefore: from)
        var upper = lower
        while upper < samples.count, samples[upper].timeSeconds <= to { upper += 1 }
        return samples[lower..<upper]
    }

    static func firstIndex(_ samples: [TimedHeartRate], notBefore time: Double) -> Int {
        var low = 0
        var high = samples.count
        while low < high {
            let mid = (low + high) / 2
            if samples[mid].timeSeconds < time { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
