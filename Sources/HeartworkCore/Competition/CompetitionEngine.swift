/// Scores a one-to-one challenge by heart-rate zone (seed-000 §3.6–3.8, PRODUCT.md).
///
/// Each side's readings are classified against that side's own profile, debounced by the
/// 15-second rule, and every second in which one side's confirmed zone is strictly higher
/// earns that side one point. Live and ghost matches feed it one second at a time with
/// `advance`; `evaluate` scores whole series at once and must agree with it exactly.
public struct CompetitionEngine: Sendable {
    public let profileA: ZoneProfile
    public let profileB: ZoneProfile
    public let confirmationSeconds: Int
    private var debouncerA: ZoneDebouncer<ReserveZone>
    private var debouncerB: ZoneDebouncer<ReserveZone>
    public private(set) var result = CompetitionResult()

    public init(
        profileA: ZoneProfile,
        profileB: ZoneProfile,
        confirmationSeconds: Int = ZoneDebouncer<ReserveZone>.defaultConfirmationSeconds
    ) {
        self.profileA = profileA
        self.profileB = profileB
        self.confirmationSeconds = confirmationSeconds
        debouncerA = ZoneDebouncer(initial: .none, confirmationSeconds: confirmationSeconds)
        debouncerB = ZoneDebouncer(initial: .none, confirmationSeconds: confirmationSeconds)
    }

    /// The next second of the match: each side's heart rate, or nil when it has none
    /// (a missing second is zone none). Returns the zone changes this second confirmed.
    @discardableResult
    public mutating func advance(a bpmA: Double?, b bpmB: Double?) -> [ZoneChangeEvent] {
        let second = result.durationSeconds
        let rawA = bpmA.map(profileA.reserveZone(beatsPerMinute:)) ?? .none
        let rawB = bpmB.map(profileB.reserveZone(beatsPerMinute:)) ?? .none
        let changeA = debouncerA.observe(rawA)
        let changeB = debouncerB.observe(rawB)
        let confirmedA = debouncerA.confirmedZone
        let confirmedB = debouncerB.confirmedZone

        result.a.rawZones.append(rawA)
        result.b.rawZones.append(rawB)
        result.a.confirmedZones.append(confirmedA)
        result.b.confirmedZones.append(confirmedB)
        result.a.timeInZone.add(rawA)
        result.b.timeInZone.add(rawB)
        if confirmedA > confirmedB { result.a.score += 1 }
        if confirmedB > confirmedA { result.b.score += 1 }

        var events = [ZoneChangeEvent]()
        if let changeA {
            events.append(
                ZoneChangeEvent(
                    second: second, competitor: .a, from: changeA.from, to: changeA.to, opponentZone: confirmedB))
        }
        if let changeB {
            events.append(
                ZoneChangeEvent(
                    second: second, competitor: .b, from: changeB.from, to: changeB.to, opponentZone: confirmedA))
        }
        result.events.append(contentsOf: events)
        return events
    }

    /// Scores two whole 1 Hz series. The match lasts `durationSeconds` when given (a ghost
    /// race: the recording's length, so a longer live side is cut), otherwise as long as the
    /// longer series; a series shorter than the match is padded with missing seconds.
    public static func evaluate(
        a seriesA: [Double?],
        b seriesB: [Double?],
        profileA: ZoneProfile,
        profileB: ZoneProfile,
        durationSeconds: Int? = nil,
        confirmationSeconds: Int = ZoneDebouncer<ReserveZone>.defaultConfirmationSeconds
    ) -> CompetitionResult {
        let duration = max(0, durationSeconds ?? max(seriesA.count, seriesB.count))
        func rawZones(_ series: [Double?], _ profile: ZoneProfile) -> [ReserveZone] {
            (0..<duration).map { second in
                guard second < series.count, let bpm = series[second] else { return .none }
                return profile.reserveZone(beatsPerMinute: bpm)
            }
        }
        var result = CompetitionResult()
        result.a.rawZones = rawZones(seriesA, profileA)
        result.b.rawZones = rawZones(seriesB, profileB)
        result.a.confirmedZones = ZoneDebouncer.confirmedZones(
            rawZones: result.a.rawZones, initial: .none, confirmationSeconds: confirmationSeconds)
        result.b.confirmedZones = ZoneDebouncer.confirmedZones(
            rawZones: result.b.rawZones, initial: .none, confirmationSeconds: confirmationSeconds)
        result.a.timeInZone = ZoneTally(counting: result.a.rawZones)
        result.b.timeInZone = ZoneTally(counting: result.b.rawZones)
        for (zoneA, zoneB) in zip(result.a.confirmedZones, result.b.confirmedZones) {
            if zoneA > zoneB { result.a.score += 1 }
            if zoneB > zoneA { result.b.score += 1 }
        }
        result.events = changeEvents(result.a.confirmedZones, result.b.confirmedZones)
        return result
    }

    /// Zone changes read off two confirmed-zone timelines, `a` before `b` within a second.
    private static func changeEvents(_ zonesA: [ReserveZone], _ zonesB: [ReserveZone]) -> [ZoneChangeEvent] {
        var events = [ZoneChangeEvent]()
        var previousA = ReserveZone.none
        var previousB = ReserveZone.none
        for second in zonesA.indices {
            let zoneA = zonesA[second]
            let zoneB = zonesB[second]
            if zoneA != previousA {
                events.append(ZoneChangeEvent(second: second, competitor: .a, from: previousA, to: zoneA, opponentZone: zoneB))
            }
            if zoneB != previousB {
                events.append(ZoneChangeEvent(second: second, competitor: .b, from: previousB, to: zoneB, opponentZone: zoneA))
            }
            previousA = zoneA
            previousB = zoneB
        }
        return events
    }
}
