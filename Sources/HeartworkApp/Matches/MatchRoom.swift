import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// Where a player's connection talks to a match: the room itself (`MatchRoom`, in this
/// process) or its stand-in for a room another instance hosts (`RemoteMatchRoom`).
public protocol MatchRoomHandle: Sendable {
    func connect(_ side: Competitor) async -> (id: UUID, messages: AsyncStream<MatchMessage>)
    func reading(_ side: Competitor, second: Int, beatsPerMinute bpm: Double, rrMilliseconds: [Double], source: MatchReadingSource) async
    /// The player ends the match early (End): they forfeit at once.
    func forfeit(_ side: Competitor, id: UUID) async
    func disconnect(_ side: Competitor, id: UUID) async
}

/// One match being played, in the process that hosts it: who is present, the countdown,
/// the readings of each second, the Core `CompetitionEngine` fed one second at a time, and
/// the end (time up, a side that left, a side silent for 10 s).
///
/// Second `s` is scored as soon as both sides' readings for it are in (a ghost's always
/// is), so a state message follows the reading that completed the second at once; a side
/// whose reading has not come `MatchRules.lateSeconds` after the second ended gets lost
/// contact (zone none) for it. A reading is refused, and changes nothing, when it is for a
/// second that has not begun on the server's clock (half a second's tolerance for clocks),
/// was already sent, was already scored, is outside the match, or has a bpm outside 0–250 —
/// and, outside practice, when it is a number the player chose (`MatchReadingSource.practice`)
/// rather than a strap's (issue 23: a match between friends cannot be won with a slider).
///
/// A player whose connection drops after the countdown began has `MatchRules.reconnectSeconds`
/// to come back (the other side is told `away`, then `back`); their seconds meanwhile are lost
/// contact; past it they forfeit (`left`). End (`forfeit`) forfeits at once.
public actor MatchRoom: MatchRoomHandle {
    /// What the room needs from the service: to record the start (returning both sides'
    /// zones) and the result, and to be forgotten once over.
    public struct Hooks: Sendable {
        public var start: @Sendable () async throws -> (a: ZoneProfile, b: ZoneProfile)
        public var finish: @Sendable (MatchResultRecord) async -> MatchRecord?
        public var closed: @Sendable () async -> Void
        /// Called every few seconds while the room is open (the host's lease).
        public var renew: @Sendable () async -> Void = {}
    }

    enum Phase { case lobby, countdown, running, ended }

    public let matchID: String
    let durationSeconds: Int
    let secondMilliseconds: Int64
    /// `MatchRules.lateSeconds`, wider only in tests (`HeartworkServices.Settings.matchLateSeconds`).
    let lateSeconds: Int
    /// Side b's series for a ghost race (nil for a live match).
    let ghost: [Double?]?
    let hooks: Hooks
    /// Practice (and ghost races): the slider may play.
    let practice: Bool
    var expiresAt: Date
    private var phase = Phase.lobby
    private var connections: [Competitor: (id: UUID, continuation: AsyncStream<MatchMessage>.Continuation)] = [:]
    private var startAt: Int64 = 0
    private var engine: CompetitionEngine?
    private var pending: [Competitor: [Int: Double?]] = [.a: [:], .b: [:]]
    private var lastHeard: [Competitor: Int64] = [:]
    private var ticker: Task<Void, Never>?
    private var renewedAt = Date()
    /// Each side's heart rate per scored second, as played (kept with the result).
    private var heartRates: [Competitor: [Int?]] = [.a: [], .b: []]
    /// Where each side's readings came from, in the order first used.
    private var sources: [Competitor: [MatchReadingSource]] = [.a: [], .b: []]
    /// Sides whose connection dropped during the match, and when.
    private var away: [Competitor: Int64] = [:]
    /// The RR intervals (ms) sent with each pending second's reading.
    private var pendingRR: [Competitor: [Int: [Double]]] = [.a: [:], .b: [:]]
    /// Each side's live heart rate checked second by second outside practice
    /// (`HeartRatePlausibility`); the seconds refused count as lost contact.
    private var plausibility: [Competitor: HeartRatePlausibility] = [.a: .init(), .b: .init()]
    private var implausibleSeconds: [Competitor: Int] = [.a: 0, .b: 0]

    public init(
        matchID: String, durationSeconds: Int, secondMilliseconds: Int, lateSeconds: Int = MatchRules.lateSeconds, ghost: [Double?]?, practice: Bool = false,
        expiresAt: Date, hooks: Hooks
    ) {
        self.lateSeconds = max(0, lateSeconds)
        self.practice = practice || ghost != nil
        self.matchID = matchID
        self.durationSeconds = durationSeconds
        self.secondMilliseconds = Int64(max(1, secondMilliseconds))
        self.ghost = ghost
        self.expiresAt = expiresAt
        self.hooks = hooks
    }

    static func now() -> Int64 { Date().millisecondsSince1970 }

    private var humanSides: [Competitor] { ghost == nil ? [.a, .b] : [.a] }

    /// A player enters. A second connection of the same side replaces the first.
    public func connect(_ side: Competitor) -> (id: UUID, messages: AsyncStream<MatchMessage>) {
        let (stream, continuation) = AsyncStream<MatchMessage>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        if let previous = connections[side] {
            previous.continuation.yield(.closed(reason: "replaced", detail: "the match was opened in another window"))
            previous.continuation.finish()
        }
        guard phase != .ended else {
            continuation.yield(.closed(reason: "over", detail: "the match is over"))
            continuation.finish()
            return (id, stream)
        }
        connections[side] = (id, continuation)
        startTicker()
        switch phase {
        case .lobby:
            announcePresence()
            if humanSides.allSatisfy({ connections[$0] != nil }) { Task { await self.beginCountdown() } }
        case .countdown, .running:
            if away.removeValue(forKey: side) != nil {
                // Back in time: silence counts from now, and the other side hears so.
                lastHeard[side] = Self.now()
                connections[side.opponent]?.continuation.yield(.back(who: "opponent"))
            }
            continuation.yield(
                .start(
                    atMilliseconds: startAt, nowMilliseconds: Self.now(), durationSeconds: durationSeconds,
                    secondMilliseconds: Int(secondMilliseconds)))
        case .ended: break
        }
        return (id, stream)
    }

    /// A player's socket closed: in the lobby they just leave; once the countdown has begun,
    /// they have `MatchRules.reconnectSeconds` to come back before it counts as leaving.
    public func disconnect(_ side: Competitor, id: UUID) async {
        guard let current = connections[side], current.id == id else { return }
        connections[side] = nil
        current.continuation.finish()
        switch phase {
        case .lobby:
            announcePresence()
            if connections.isEmpty { await close(reason: "empty", detail: "") }
        case .countdown, .running:
            away[side] = Self.now()
            connections[side.opponent]?.continuation.yield(.away(who: "opponent", graceSeconds: MatchRules.reconnectSeconds))
        case .ended: break
        }
    }

    /// End: the player leaves the match on purpose and forfeits at once (in the lobby, they
    /// just leave).
    public func forfeit(_ side: Competitor, id: UUID) async {
        guard let current = connections[side], current.id == id else { return }
        switch phase {
        case .lobby: await disconnect(side, id: id)
        case .countdown, .running:
            // As the End button warns: the forfeiting side's heart rate is discarded, not kept.
            heartRates[side] = []
            await end(.left, forfeitedBy: side.rawValue)
        case .ended: break
        }
    }

    /// One second's heart rate from one side, and where it came from.
    public func reading(_ side: Competitor, second: Int, beatsPerMinute bpm: Double, rrMilliseconds: [Double] = [], source: MatchReadingSource) async {
        let now = Self.now()
        func refuse(_ detail: String) { connections[side]?.continuation.yield(.refused(second: second, detail: detail)) }
        guard humanSides.contains(side) else { return refuse("this side is a recording") }
        // Outside practice a number the player chose is refused — but 0 (lost contact: the
        // page hears no strap this second) gains nothing and is taken, naming no source.
        let chosen = source == .practice
        guard practice || !chosen || bpm == 0 else {
            return refuse(
                "a match between friends takes your heart rate from a chest strap: send the strap's bytes (hrm) or play from a gateway strap; the slider is for practice"
            )
        }
        switch phase {
        case .lobby: return refuse("the match has not started: wait for the countdown")
        case .countdown where now < startAt - secondMilliseconds / 2: return refuse("the match has not started: wait for the countdown")
        case .ended: return refuse("the match is over")
        default: break
        }
        guard (0..<durationSeconds).contains(second) else {
            return refuse("second must be 0–\(durationSeconds - 1) for this match")
        }
        guard bpm.isFinite, MatchRules.beatsPerMinute.contains(bpm) else { return refuse("bpm must be 0–250 (0 = no contact)") }
        let next = engine?.result.durationSeconds ?? 0
        guard second >= next else {
            return refuse("second \(second) is already scored: a reading more than \(lateSeconds) s late counts as lost contact")
        }
        guard pending[side]?[second] == nil else { return refuse("second \(second) was already sent") }
        guard now >= startAt + Int64(second) * secondMilliseconds - secondMilliseconds / 2 else {
            return refuse("second \(second) has not begun on the server's clock")
        }
        pending[side, default: [:]][second] = .some(bpm > 0 ? bpm : nil)
        if !rrMilliseconds.isEmpty { pendingRR[side, default: [:]][second] = Array(rrMilliseconds.prefix(16)) }
        lastHeard[side] = now
        if practice || !chosen, sources[side]?.contains(source) == false { sources[side, default: []].append(source) }
        await advance(now: now)
    }

    /// Everything that happens by the clock: the countdown ending, seconds whose readings are
    /// late, silence, an invitation lapsing while its challenger waits.
    func tick() async {
        let now = Self.now()
        if Date().timeIntervalSince(renewedAt) >= 5 {
            renewedAt = Date()
            await hooks.renew()
        }
        switch phase {
        case .lobby:
            if Date() >= expiresAt { await close(reason: "expired", detail: "the invitation expired before both players were in the room") }
        case .countdown:
            if now >= startAt, engine != nil { phase = .running }
        case .running:
            await advance(now: now)
            guard phase == .running else { return }
            // A side away longer than the grace leaves; both away that long: nobody wins.
            let gone = humanSides.filter { side in away[side].map { now - $0 >= Int64(MatchRules.reconnectSeconds) * secondMilliseconds } ?? false }
            if !gone.isEmpty {
                return await end(.left, forfeitedBy: gone.count > 1 ? "both" : gone[0].rawValue)
            }
            // A side that is away is under the grace, not the silence rule.
            let silent = humanSides.filter {
                away[$0] == nil && now - (lastHeard[$0] ?? startAt) >= Int64(MatchRules.silenceSeconds) * secondMilliseconds
            }
            if silent.count == humanSides.count, silent.count > 1 {
                await end(.silence, forfeitedBy: "both")
            } else if let side = silent.first {
                await end(.silence, forfeitedBy: side.rawValue)
            }
        case .ended: break
        }
    }

    func accepted(expiresAt: Date) { self.expiresAt = expiresAt }

    /// Closes the room without a result (declined, expired…).
    public func close(reason: String, detail: String) async {
        guard phase != .ended else { return }
        phase = .ended
        ticker?.cancel()
        for connection in connections.values {
            connection.continuation.yield(.closed(reason: reason, detail: detail))
            connection.continuation.finish()
        }
        connections = [:]
        await hooks.closed()
    }

    // MARK: Internals

    private func startTicker() {
        guard ticker == nil else { return }
        let interval = Duration.milliseconds(max(5, min(250, secondMilliseconds / 4)))
        ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                await self.tick()
            }
        }
    }

    private func announcePresence() {
        let present = Competitor.allCases.filter { connections[$0] != nil }.map(\.rawValue) + (ghost == nil ? [] : ["b"])
        for (side, connection) in connections {
            connection.continuation.yield(.lobby(you: side.rawValue, present: present, ghost: ghost != nil))
        }
    }

    private func beginCountdown() async {
        guard phase == .lobby, humanSides.allSatisfy({ connections[$0] != nil }) else { return }
        phase = .countdown
        startAt = Self.now() + Int64(MatchRules.countdownSeconds) * secondMilliseconds
        let profiles: (a: ZoneProfile, b: ZoneProfile)
        do {
            profiles = try await hooks.start()
        } catch {
            await close(reason: "error", detail: "the match could not start: \(error)")
            return
        }
        guard phase == .countdown else { return }
        engine = CompetitionEngine(profileA: profiles.a, profileB: profiles.b)
        let message = MatchMessage.start(
            atMilliseconds: startAt, nowMilliseconds: Self.now(), durationSeconds: durationSeconds,
            secondMilliseconds: Int(secondMilliseconds))
        for connection in connections.values { connection.continuation.yield(message) }
    }

    /// Scores every second that is complete, or whose late readings are past waiting for.
    private func advance(now: Int64) async {
        guard var engine, phase == .running || (phase == .countdown && now >= startAt - secondMilliseconds / 2) else { return }
        if phase == .countdown, now >= startAt { phase = .running }
        var next = engine.result.durationSeconds
        while next < durationSeconds {
            let deadline = startAt + Int64(next + 1 + lateSeconds) * secondMilliseconds
            let hasA = pending[.a]?[next] != nil
            let hasB = ghost != nil || pending[.b]?[next] != nil
            guard (hasA && hasB) || now >= deadline else { break }
            let bpmA = checked(.a, second: next, pending[.a]?.removeValue(forKey: next) ?? nil)
            let bpmB: Double? =
                if let ghost { next < ghost.count ? ghost[next] : nil } else { checked(.b, second: next, pending[.b]?.removeValue(forKey: next) ?? nil) }
            let events = engine.advance(a: bpmA, b: bpmB)
            heartRates[.a, default: []].append(bpmA.map { Int($0.rounded()) })
            heartRates[.b, default: []].append(bpmB.map { Int($0.rounded()) })
            send(second: next, engine: engine, bpmA: bpmA, bpmB: bpmB, events: events)
            next += 1
        }
        self.engine = engine
        if next >= durationSeconds { await end(.time, forfeitedBy: nil) }
    }

    /// A side's reading for a second as it is scored: outside practice, one a heart cannot
    /// make counts as lost contact (and is counted).
    private func checked(_ side: Competitor, second: Int, _ bpm: Double?) -> Double? {
        let rr = pendingRR[side]?.removeValue(forKey: second) ?? []
        guard !practice else { return bpm }
        guard plausibility[side, default: .init()].check(second: second, bpm: bpm, rrMilliseconds: rr) == nil else {
            implausibleSeconds[side, default: 0] += 1
            return nil
        }
        return bpm
    }

    private func send(second: Int, engine: CompetitionEngine, bpmA: Double?, bpmB: Double?, events: [ZoneChangeEvent]) {
        let result = engine.result
        func side(_ competitor: Competitor, bpm: Double?) -> MatchMessage.SideState {
            let zone = result[competitor].confirmedZones.last ?? .none
            return MatchMessage.SideState(
                beatsPerMinute: bpm, zone: zone, score: result[competitor].score,
                progressPercent: MatchRules.progressPercent(zone))
        }
        for (competitor, connection) in connections {
            let mine = side(competitor, bpm: competitor == .a ? bpmA : bpmB)
            let theirs = side(competitor.opponent, bpm: nil)
            connection.continuation.yield(.state(second: second, you: mine, opponent: theirs))
            for event in events {
                connection.continuation.yield(
                    .event(
                        second: event.second, who: event.competitor == competitor ? "you" : "opponent",
                        direction: event.direction.rawValue, zone: event.to, text: event.announcement(for: competitor)))
            }
        }
    }

    private func end(_ reason: MatchEndReason, forfeitedBy: String?) async {
        guard phase != .ended else { return }
        phase = .ended
        ticker?.cancel()
        let result = engine?.result
        let winner: String? =
            switch forfeitedBy {
            case "both": nil
            case "a": "b"
            case "b": "a"
            default:
                switch result?.outcome {
                case .winner(let side): side.rawValue
                case .draw, nil: nil
                }
            }
        let record = MatchResultRecord(
            scoreA: result?.a.score ?? 0, scoreB: result?.b.score ?? 0, winner: winner, reason: reason.rawValue, forfeitedBy: forfeitedBy,
            secondsPlayed: result?.durationSeconds ?? 0,
            zonesA: ReserveZone.allCases.map { result?.a.timeInZone[$0] ?? 0 }, zonesB: ReserveZone.allCases.map { result?.b.timeInZone[$0] ?? 0 },
            heartRateA: heartRates[.a] ?? [], heartRateB: heartRates[.b] ?? [],
            sourcesA: sources[.a] ?? [], sourcesB: ghost != nil ? [.recording] : (sources[.b] ?? []),
            implausibleSecondsA: implausibleSeconds[.a] ?? 0, implausibleSecondsB: implausibleSeconds[.b] ?? 0)
        let connections = self.connections
        self.connections = [:]
        _ = await hooks.finish(record)
        for connection in connections.values {
            connection.continuation.yield(.end(matchID: matchID))
            connection.continuation.finish()
        }
        await hooks.closed()
    }
}
