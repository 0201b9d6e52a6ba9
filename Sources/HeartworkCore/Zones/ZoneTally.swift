/// Seconds spent in each zone (seed-000 §3.8: one counter per zone, one second per reading).
public struct ZoneTally<Zone: Hashable & Sendable & CaseIterable>: Hashable, Sendable {
    public private(set) var seconds: [Zone: Int]

    public init() {
        seconds = Dictionary(uniqueKeysWithValues: Zone.allCases.map { ($0, 0) })
    }

    public init<S: Sequence<Zone>>(counting zones: S) {
        self.init()
        for zone in zones { add(zone) }
    }

    public mutating func add(_ zone: Zone, seconds count: Int = 1) {
        seconds[zone, default: 0] += count
    }

    public subscript(zone: Zone) -> Int { seconds[zone] ?? 0 }

    public var totalSeconds: Int { seconds.values.reduce(0, +) }
}
