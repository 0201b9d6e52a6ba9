import Foundation

extension HealthSourcePriority {
    /// `resolve` for samples read a window at a time, so a long range (a year of heart rate at
    /// 10–80k samples a day) is never held at once. Give it each window's samples, none
    /// starting before the previous window's end and every one before this window's end; it
    /// answers the resolved samples nothing still to come can change, by start.
    ///
    /// The answers, joined, are `resolve` of all the samples at once: a sample's fate depends
    /// only on the samples its span overlaps, and theirs on the ones theirs overlaps, so samples
    /// are held until a cut no span crosses (every span before it ends before any later span
    /// starts, the later windows' too) and resolved there as a set, each source ranked by the
    /// device of its first sample as `resolve` ranks it over the whole set. Where sources
    /// overlap without a break for longer than `horizon` (two per-second streams a fraction of a
    /// second apart all day), the samples are cut `margin` before the window's end anyway and
    /// the last `margin` of them resolved again with the next ones (without being answered
    /// twice), so memory stays bounded; that is exact unless a chain of overlapping samples of
    /// different sources reaches further than `margin`.
    public struct Stream: Sendable {
        public let priority: HealthSourcePriority
        public let horizon: TimeInterval
        public let margin: TimeInterval
        /// Samples given and not yet answered, by start.
        var pending: [HealthSample] = []
        /// After a forced cut: the samples of the `margin` before it, resolved with the next
        /// ones but not answered again.
        var context: [HealthSample] = []
        var contextEnd: Date?
        /// Each source's first device, which ranks it.
        var devices: [String: String?] = [:]

        public init(_ priority: HealthSourcePriority, horizon: TimeInterval = 86_400, margin: TimeInterval = 3600) {
            self.priority = priority
            self.horizon = horizon
            self.margin = margin
        }

        /// Takes a window's samples (any order); answers the samples resolved so far, by start.
        public mutating func add(_ samples: [HealthSample], before end: Date) -> [HealthSample] {
            pending += samples
            pending.sort { $0.start < $1.start }  // stable: equal starts keep the order given
            // The largest cut no span crosses: a later window's spans start at `end − 0.5` or after.
            var later = [Double](repeating: end.timeIntervalSince1970 - 0.5, count: pending.count + 1)
            for index in pending.indices.reversed() { later[index] = min(later[index + 1], HealthSourcePriority.span(pending[index]).0) }
            var reach = context.map { HealthSourcePriority.span($0).1 }.max() ?? -Double.infinity
            var cut = 0
            for index in pending.indices {
                reach = max(reach, HealthSourcePriority.span(pending[index]).1)
                if reach <= later[index + 1] { cut = index + 1 }
            }
            var answer = [HealthSample]()
            if cut > 0 {
                answer += emit(cut)
                context = []
                contextEnd = nil
            }
            if let first = pending.first, end.timeIntervalSince1970 - first.start.timeIntervalSince1970 > horizon {
                let forced = end.addingTimeInterval(-margin)
                let count = pending.firstIndex { $0.start >= forced } ?? pending.count
                if count > 0 {
                    let kept = pending[0..<count].filter { $0.start >= forced.addingTimeInterval(-margin) }
                    answer += emit(count)
                    context = kept
                    contextEnd = forced
                }
            }
            return answer
        }

        /// The samples still held, resolved.
        public mutating func finish() -> [HealthSample] {
            add([], before: .distantFuture)
        }

        /// Resolves the first `count` pending samples (with the context) and answers them.
        mutating func emit(_ count: Int) -> [HealthSample] {
            let prefix = pending[0..<count]
            for sample in prefix where devices.index(forKey: sample.source) == nil {
                devices[sample.source] = .some(sample.device)
            }
            let resolved = priority.resolve(context + prefix, devices: devices)
            pending.removeFirst(count)
            guard let contextEnd else { return resolved }
            return resolved.filter { $0.start >= contextEnd }
        }
    }
}
