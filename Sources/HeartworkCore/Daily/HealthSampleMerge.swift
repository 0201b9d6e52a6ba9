import Foundation

/// Which source stands where several recorded the same thing (issue 11: "duplicates from
/// several devices are resolved, one value per overlapping interval, a documented source
/// priority the user can change").
///
/// Every sample is stored as it came (an exact repeat — same kind, start, end, value and
/// source — is stored once, so re-importing adds nothing); the priority is applied when a day
/// is read, so a changed priority applies to all history and the result never depends on the
/// order the files came in. Sources rank: the user's own order first; then watches (a device
/// or source named "Watch"), then other devices, then phones ("iPhone", "Phone") — a watch on
/// the wrist counts steps and heart rate better than a phone in a pocket, as Apple Health
/// ranks them by default; ties by name.
public struct HealthSourcePriority: Sendable, Hashable, Codable {
    /// Source names, most trusted first.
    public var order: [String]

    public init(order: [String] = []) {
        self.order = order
    }

    /// Lower ranks first.
    public func rank(source: String, device: String?) -> Int {
        if let index = order.firstIndex(of: source) { return index }
        let names = ((device ?? "") + " " + source).lowercased()
        if names.contains("watch") { return 10_000 }
        if names.contains("phone") { return 30_000 }
        return 20_000
    }

    /// The samples that stand, sorted by start: sources are taken in rank order, and a sample
    /// is kept unless it overlaps a kept sample of a higher-ranked source (an instant counts
    /// as the second around it). A source's own samples never displace each other.
    public func resolve(_ samples: [HealthSample]) -> [HealthSample] { resolve(samples, devices: [:]) }

    /// `resolve`, a source ranked by the device in `devices` when it is there (a stream's
    /// resolver pins each source's first device), else by its first sample's.
    func resolve(_ samples: [HealthSample], devices: [String: String?]) -> [HealthSample] {
        let bySource = Dictionary(grouping: samples, by: \.source)
        guard bySource.count > 1 else { return samples.sorted(by: Self.ordered) }
        func device(_ source: String) -> String? { devices[source] ?? bySource[source]?.first?.device }
        let sources = bySource.keys.sorted { a, b in
            let (ra, rb) = (rank(source: a, device: device(a)), rank(source: b, device: device(b)))
            return ra != rb ? ra < rb : a < b
        }
        var covered = IntervalSet()
        var kept = [HealthSample]()
        for source in sources {
            let mine = (bySource[source] ?? []).filter { !covered.overlaps(Self.span($0)) }
            kept += mine
            for sample in mine { covered.insert(Self.span(sample)) }
        }
        return kept.sorted(by: Self.ordered)
    }

    /// A night's sleep samples, resolved as two records of it: the "in bed" records among
    /// themselves, and the stages (asleep, awake, core, deep, REM) among themselves, each by the
    /// source order. A phone's in-bed record and a watch's stages of the same night say
    /// different things (when you lay down; how you slept), so neither displaces the other;
    /// two sources' in-bed records, or two sources' stages, do (the higher-ranked stands where
    /// they overlap, the other fills its gaps).
    public func resolveSleep(_ samples: [HealthSample]) -> [HealthSample] {
        let inBed = Double(HealthSample.SleepStage.inBed.rawValue)
        let records = samples.filter { $0.value == inBed }
        let stages = samples.filter { $0.value != inBed }
        return (resolve(records) + resolve(stages)).sorted(by: Self.ordered)
    }

    static func span(_ sample: HealthSample) -> (Double, Double) {
        let start = sample.start.timeIntervalSince1970
        let end = sample.end.timeIntervalSince1970
        return end > start ? (start, end) : (start - 0.5, start + 0.5)
    }

    static func ordered(_ a: HealthSample, _ b: HealthSample) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.end != b.end { return a.end < b.end }
        if a.source != b.source { return a.source < b.source }
        return a.value < b.value
    }
}

/// Disjoint half-open intervals, sorted, merged on insert.
struct IntervalSet {
    var starts: [Double] = []
    var ends: [Double] = []

    /// The index of the first interval ending after `x`.
    func firstEnding(after x: Double) -> Int {
        var low = 0
        var high = ends.count
        while low < high {
            let mid = (low + high) / 2
            if ends[mid] <= x { low = mid + 1 } else { high = mid }
        }
        return low
    }

    func overlaps(_ span: (Double, Double)) -> Bool {
        let i = firstEnding(after: span.0)
        return i < starts.count && starts[i] < span.1
    }

    mutating func insert(_ span: (Double, Double)) {
        var (start, end) = span
        var i = firstEnding(after: start)
        // Merge every interval that touches [start, end).
        while i < starts.count && starts[i] <= end {
            start = min(start, starts[i])
            end = max(end, ends[i])
            starts.remove(at: i)
            ends.remove(at: i)
        }
        starts.insert(start, at: i)
        ends.insert(end, at: i)
    }
}

public enum HealthSampleMerge {
    /// Adds `new` to `stored` without exact repeats; returns all, sorted, and how many were new.
    public static func union(_ stored: [HealthSample], _ new: [HealthSample]) -> (samples: [HealthSample], added: Int) {
        struct Key: Hashable {
            let start: Date, end: Date, value: Double, source: String
        }
        var seen = Set(stored.map { Key(start: $0.start, end: $0.end, value: $0.value, source: $0.source) })
        var all = stored
        var added = 0
        for sample in new where seen.insert(Key(start: sample.start, end: sample.end, value: sample.value, source: sample.source)).inserted {
            all.append(sample)
            added += 1
        }
        return (all.sorted(by: HealthSourcePriority.ordered), added)
    }

    /// What a sync changed: samples new, samples that replaced an earlier value of the same
    /// instant, samples already there as sent.
    public struct Upsert: Sendable, Hashable {
        public var added = 0
        public var updated = 0
        public var unchanged = 0

        public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0) {
            self.added = added
            self.updated = updated
            self.unchanged = unchanged
        }
    }

    /// Merges a phone sync's samples into a block: a sample is identified by its source and
    /// instant (and, for sleep, its stage), so a window the app sends again is stored once, and
    /// a value that changed since (the current hour's steps, the last minute's heart rate)
    /// replaces the one sent before.
    /// What identifies a synced sample: its source and instant, and for sleep its stage.
    public struct SyncKey: Hashable, Sendable {
        let start: Date, source: String, stage: Double?

        public init(_ sample: HealthSample) {
            start = sample.start
            source = sample.source
            stage = sample.kind == .sleep ? sample.value : nil
        }
    }

    public static func upsert(_ stored: [HealthSample], _ new: [HealthSample]) -> (samples: [HealthSample], change: Upsert) {
        let key = SyncKey.init
        var index = [SyncKey: Int]()
        for (i, sample) in stored.enumerated() { index[key(sample)] = i }
        var all = stored
        var change = Upsert()
        for sample in new {
            let k = key(sample)
            if let i = index[k] {
                if all[i].value == sample.value && all[i].end == sample.end {
                    change.unchanged += 1
                } else {
                    all[i] = sample
                    change.updated += 1
                }
            } else {
                index[k] = all.count
                all.append(sample)
                change.added += 1
            }
        }
        return (all.sorted(by: HealthSourcePriority.ordered), change)
    }
}
