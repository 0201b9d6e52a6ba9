import Foundation
import HeartworkCore
import HeartworkStore

/// Team sessions (FitLabTeam F6–F10): start now or after a countdown, optionally for a set
/// time; stop; save or discard; review. A session is a time window over the raw feed of the
/// sensors its players wore, so nothing heard is lost whether or not anyone pressed start,
/// and discarding a session deletes the window, never the readings.
public struct TeamSessionService: Sendable {
    let store: HeartworkStore
    let teams: TeamService
    public static let countdownSeconds = 0...600
    /// FitLabTeam's durations run from 1 minute to 300 minutes or "continuous"; a session
    /// stops by itself after 12 hours at the latest.
    public static let plannedSeconds = 60...43_200

    /// Who takes part: a player, and optionally the sensor they wear this time instead of
    /// their own (the override does not change the player's default).
    public struct Participant: Sendable, Hashable {
        public var playerID: String
        public var sensorID: String?

        public init(playerID: String, sensorID: String? = nil) {
            self.playerID = playerID
            self.sensorID = sensorID
        }
    }

    /// Starts a session for the team. Without participants, every player of the team who has
    /// a sensor takes part. `onlyConnected` is the coach screen's rule (FitLabTeam F6: "the
    /// user can only select a player if it has a peripheral paired and already connected"):
    /// every participant's sensor for the session must have been heard in the last 10 s
    /// (`SensorPresence`), else nothing is created. The API leaves it off: the raw feed is kept
    /// either way, and a script or gateway may start before the straps are on.
    public func start(
        teamID: String, participants: [Participant]?, countdownSeconds: Int = 0, plannedSeconds: Int? = nil,
        context: SessionContext = SessionContext(), correction: ArtifactCorrectionMethod = .kubios, onlyConnected: Bool = false,
        for user: UserRecord, now: Date = Date()
    ) async throws -> TeamSessionRecord {
        try Self.check(correction)
        guard Self.countdownSeconds.contains(countdownSeconds) else {
            throw AppError.invalid("a countdown is 0–600 seconds", field: "countdownSeconds")
        }
        if let plannedSeconds, !Self.plannedSeconds.contains(plannedSeconds) {
            throw AppError.invalid("a planned duration is 60–43200 seconds (1 minute to 12 hours); leave it out to stop by hand", field: "durationSeconds")
        }
        let members = try await teams.members(of: teamID, for: user)
        let chosen: [Participant]
        if let participants {
            chosen = participants
        } else {
            chosen = members.compactMap { $0.sensorID == nil ? nil : Participant(playerID: $0.id) }
            guard !chosen.isEmpty else {
                throw AppError.invalid("no player of this team has a sensor yet: give players their sensors first", field: "players")
            }
        }
        guard !chosen.isEmpty else { throw AppError.invalid("choose at least one player", field: "players") }
        guard chosen.count <= 200 else { throw AppError.invalid("at most 200 players take part in one session", field: "players") }
        let byID = Dictionary(members.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let day = CalendarDay(now)
        var players = [TeamSessionPlayer]()
        var worn = Set<String>()
        var seen = Set<String>()
        for participant in chosen {
            guard let player = byID[participant.playerID] else {
                throw AppError.invalid("player \(participant.playerID) is not in this team", field: "players")
            }
            guard seen.insert(player.id).inserted else { throw AppError.invalid("\(player.name) is chosen twice", field: "players") }
            guard let sensorID = participant.sensorID ?? player.sensorID else {
                throw AppError.invalid("\(player.name) has no sensor: give them one, or choose one for this session", field: "players")
            }
            if participant.sensorID != nil, try await store.sensors.find(id: sensorID, userID: user.id) == nil {
                throw AppError.invalid("no sensor \(sensorID) of yours", field: "players")
            }
            guard worn.insert(sensorID).inserted else {
                throw AppError.invalid("two players cannot wear the same sensor in one session (\(player.name))", field: "players")
            }
            players.append(
                TeamSessionPlayer(
                    playerID: player.id, sensorID: sensorID, name: player.name, number: player.number, physiology: player.physiology(on: day)))
        }
        if onlyConnected {
            let heard = Dictionary(try await store.sensors.list(userID: user.id).map { ($0.id, $0.lastAt) }, uniquingKeysWith: { first, _ in first })
            let silent = players.filter { !SensorPresence.isConnected(lastAt: heard[$0.sensorID] ?? nil, now: now) }.map(\.name)
            if !silent.isEmpty {
                throw AppError.invalid(
                    "\(silent.joined(separator: ", ")) cannot take part: their sensor is not connected (not heard in the last "
                        + "\(Int(SensorPresence.connectedWithinSeconds)) seconds). Choose another sensor for them, or leave them out",
                    field: "players")
            }
        }
        let session = TeamSessionRecord(
            userID: user.id, teamID: teamID, startsAt: now.addingTimeInterval(TimeInterval(countdownSeconds)),
            plannedSeconds: plannedSeconds, createdAt: now, players: players, context: context, correction: correction)
        do {
            try await store.teams.createSession(session, now: now)
        } catch StoreError.conflict(let detail) {
            throw AppError.conflict(detail)
        } catch StoreError.notFound {
            throw AppError.notFound("team")
        }
        return try await self.session(session.id, of: user)
    }

    public func sessions(of teamID: String, for user: UserRecord) async throws -> [TeamSessionRecord] {
        _ = try await teams.team(teamID, of: user)
        return try await store.teams.sessions(teamID: teamID, userID: user.id)
    }

    /// The team's sessions whose context has every setting `filter` names (F8; issue 25).
    public func sessions(of teamID: String, for user: UserRecord, matching filter: SessionContext) async throws -> [TeamSessionRecord] {
        try await sessions(of: teamID, for: user).filter { $0.context.matches(filter) }
    }

    /// Replaces the session's context (time, moment, situation, state), in review or before.
    public func setContext(_ id: String, of user: UserRecord, to context: SessionContext) async throws -> TeamSessionRecord {
        guard try await store.teams.updateSession(id: id, userID: user.id, TeamSessionChanges(context: context)) else {
            throw AppError.notFound("team session")
        }
        return try await session(id, of: user)
    }

    /// The RR artifact correction the session's HRV uses: `kubios` (Lipponen & Tarvainen 2019,
    /// the default) or `fitlab` (the seed's own streaming corrector).
    public func setCorrection(_ id: String, of user: UserRecord, to correction: ArtifactCorrectionMethod) async throws -> TeamSessionRecord {
        try Self.check(correction)
        guard try await store.teams.updateSession(id: id, userID: user.id, TeamSessionChanges(correction: correction)) else {
            throw AppError.notFound("team session")
        }
        return try await session(id, of: user)
    }

    /// The corrections a session may use (leaving artifacts in is the CLI's choice, not a
    /// session's).
    public static let corrections: [ArtifactCorrectionMethod] = [.kubios, .fitlab]

    static func check(_ correction: ArtifactCorrectionMethod) throws(AppError) {
        guard corrections.contains(correction) else {
            throw AppError.invalid("a session's artifact correction is kubios or fitlab", field: "correction")
        }
    }

    public func session(_ id: String, of user: UserRecord) async throws -> TeamSessionRecord {
        guard let session = try await store.teams.session(id: id, userID: user.id) else { throw AppError.notFound("team session") }
        return session
    }

    /// The team's session that is not saved yet (recording, counting down, or stopped), if any.
    public func openSession(of teamID: String, for user: UserRecord) async throws -> TeamSessionRecord? {
        try await sessions(of: teamID, for: user).first { $0.state != .saved }
    }

    /// Stops recording now (a session still counting down ends before it began, and has no
    /// data). Stopping a stopped session changes nothing.
    public func stop(_ id: String, of user: UserRecord, now: Date = Date()) async throws -> TeamSessionRecord {
        let session = try await session(id, of: user)
        guard session.state == .recording else { return session }
        let end = session.end(now: now) ?? max(now, session.startsAt)
        _ = try await store.teams.updateSession(id: id, userID: user.id, TeamSessionChanges(state: .stopped, endedAt: end))
        return try await self.session(id, of: user)
    }

    /// Keeps the session (stopping it first if it is still recording).
    public func save(_ id: String, of user: UserRecord, now: Date = Date()) async throws -> TeamSessionRecord {
        let stopped = try await stop(id, of: user, now: now)
        guard stopped.state != .saved else { return stopped }
        _ = try await store.teams.updateSession(id: id, userID: user.id, TeamSessionChanges(state: .saved))
        return try await session(id, of: user)
    }

    /// Deletes the session (the readings stay in the raw feed).
    public func discard(_ id: String, of user: UserRecord) async throws {
        guard try await store.teams.deleteSession(id: id, userID: user.id) else { throw AppError.notFound("team session") }
    }

    public func mark(_ id: String, of user: UserRecord, reviewed: Bool?, exported: Bool?) async throws -> TeamSessionRecord {
        guard try await store.teams.updateSession(id: id, userID: user.id, TeamSessionChanges(reviewed: reviewed, exported: exported)) else {
            throw AppError.notFound("team session")
        }
        return try await session(id, of: user)
    }

    /// Each player's analysis over the session so far (or all of it, once stopped).
    public func review(_ id: String, of user: UserRecord, now: Date = Date()) async throws -> TeamSessionReview {
        let session = try await session(id, of: user)
        return try await review(session, now: now)
    }

    public func review(_ session: TeamSessionRecord, now: Date = Date(), includesHRV: Bool = true) async throws -> TeamSessionReview {
        let end = session.end(now: now) ?? max(now, session.startsAt)
        var players = [TeamSessionReview.Player]()
        for player in session.players {
            let readings =
                end > session.startsAt
                ? try await store.sensors.readings(sensorID: player.sensorID, from: session.startsAt, to: end) : []
            players.append(
                .init(
                    player: player,
                    analysis: PlayerSessionAnalysis(
                        readings: readings, startMilliseconds: session.startsAt.millisecondsSince1970,
                        endMilliseconds: end.millisecondsSince1970, physiology: player.physiology, includesHRV: includesHRV,
                        correction: session.correction)))
        }
        return TeamSessionReview(session: session, end: end, players: players.sorted { Self.inSquadOrder($0.player, $1.player) })
    }

    /// The squad order (`PlayerGroup.squadOrder`) of a session's players: their names as
    /// they were when it started.
    static func inSquadOrder(_ left: TeamSessionPlayer, _ right: TeamSessionPlayer) -> Bool {
        PlayerGroup.squadOrder(numbers: (left.number, right.number), names: [(left.name, right.name)], ids: (left.playerID, right.playerID))
    }

    /// Who may take part, as the coach screen's picker lists them (FitLabTeam F6): the team's
    /// players in squad order, the coach's sensors, and which sensors are connected now.
    public func lineup(of teamID: String, for user: UserRecord, now: Date = Date()) async throws -> TeamLineup {
        let members = try await teams.members(of: teamID, for: user)
        let sensors = try await store.sensors.list(userID: user.id)
        return TeamLineup(
            players: members.sorted(by: PlayerGroup.squadOrder), sensors: sensors,
            connected: Set(sensors.filter { SensorPresence.isConnected(lastAt: $0.lastAt, now: now) }.map(\.id)))
    }

    /// What the coach's screen starts from: the team's open session if there is one (its
    /// players, and each one's TRIMP so far), else every player of the team who has a sensor;
    /// with each sensor's last reading. Live readings then come over the feed socket.
    public func board(of teamID: String, for user: UserRecord, now: Date = Date()) async throws -> TeamBoard {
        let team = try await teams.team(teamID, of: user)
        let members = try await teams.members(of: teamID, for: user)
        let sensors = Dictionary(try await store.sensors.list(userID: user.id).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let photos = Set(members.filter(\.hasPhoto).map(\.id))
        let session = try await openSession(of: teamID, for: user)
        var tiles = [TeamBoard.Tile]()
        if let session {
            let review = try await review(session, now: now, includesHRV: false)
            for entry in review.players {
                tiles.append(
                    .init(
                        player: entry.player, hasPhoto: photos.contains(entry.player.playerID), sensor: sensors[entry.player.sensorID],
                        trimp: entry.analysis.trimp, coveredSeconds: entry.analysis.coveredSeconds))
            }
        } else {
            let day = CalendarDay(now)
            for player in members {
                guard let sensorID = player.sensorID else { continue }
                tiles.append(
                    .init(
                        player: TeamSessionPlayer(playerID: player.id, sensorID: sensorID, name: player.name, number: player.number, physiology: player.physiology(on: day)),
                        hasPhoto: player.hasPhoto, sensor: sensors[sensorID], trimp: nil, coveredSeconds: 0))
            }
        }
        tiles.sort { Self.inSquadOrder($0.player, $1.player) }
        return TeamBoard(team: team, session: session, tiles: tiles, playersWithoutSensor: members.filter { $0.sensorID == nil }, now: now)
    }
}

/// The players a coach may pick for a session and the sensors they may wear (F5, F6).
public struct TeamLineup: Sendable {
    public let players: [PlayerRecord]
    public let sensors: [SensorRecord]
    /// Ids of the sensors heard in the last 10 s.
    public let connected: Set<String>
}

/// The coach's screen at the moment it opens.
public struct TeamBoard: Sendable {
    public struct Tile: Sendable {
        public let player: TeamSessionPlayer
        public let hasPhoto: Bool
        public let sensor: SensorRecord?
        /// TRIMP since the session started (nil outside a session or without zones).
        public let trimp: Double?
        public let coveredSeconds: Double
    }

    public let team: TeamRecord
    public let session: TeamSessionRecord?
    public let tiles: [Tile]
    public let playersWithoutSensor: [PlayerRecord]
    public let now: Date
}

/// A team session with each player's analysis.
public struct TeamSessionReview: Sendable {
    public struct Player: Sendable {
        public let player: TeamSessionPlayer
        public let analysis: PlayerSessionAnalysis
    }

    public let session: TeamSessionRecord
    /// The end of the analysed window (now, for a session still recording).
    public let end: Date
    public let players: [Player]
}
