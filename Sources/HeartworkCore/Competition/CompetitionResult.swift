/// One competitor's side of a challenge, second by second.
public struct CompetitorRecord: Sendable, Hashable {
    public internal(set) var rawZones: [ReserveZone] = []
    public internal(set) var confirmedZones: [ReserveZone] = []
    /// Seconds per raw zone (PRODUCT.md: time in zone counts the raw zone).
    public internal(set) var timeInZone = ZoneTally<ReserveZone>()
    /// Seconds in which this side's confirmed zone was strictly higher than the other's.
    public internal(set) var score = 0
}

/// The state of a challenge after some or all of its seconds.
public struct CompetitionResult: Sendable, Hashable {
    public internal(set) var a = CompetitorRecord()
    public internal(set) var b = CompetitorRecord()
    public internal(set) var events: [ZoneChangeEvent] = []

    public var durationSeconds: Int { a.rawZones.count }

    public subscript(competitor: Competitor) -> CompetitorRecord {
        competitor == .a ? a : b
    }

    /// Higher score wins; equal scores are a draw (PRODUCT.md).
    public var outcome: CompetitionOutcome {
        if a.score > b.score { return .winner(.a) }
        if b.score > a.score { return .winner(.b) }
        return .draw
    }

    /// By how many seconds the loser was beaten (seed-000 F34).
    public var marginSeconds: Int { abs(a.score - b.score) }
}
