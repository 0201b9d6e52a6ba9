import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// HeartMate's matches (issue 10): invitations between friends, ghost races against a
/// stored workout, who may see and join which match, and the rooms they are played in. The
/// room protocol is docs/PROTOCOL.md §10; the rules are `MatchRules`.
public struct MatchService: Sendable {
    let store: HeartworkStore
    let workouts: WorkoutService
    let live: LiveService
    let inbox: InboxService
    let bus: LiveBus
    public let rooms: MatchRooms
    /// Players here in rooms hosted elsewhere, and players elsewhere in rooms hosted here.
    let seats = MatchSeats()
    let hosted = HostedSeats()
    /// How long a host's claim on a room lasts unless renewed (every 5 s while it is open).
    static let hostLease: TimeInterval = 20
    /// 1000 ms outside tests (a test plays a match with shorter seconds).
    let secondMilliseconds: Int
    let lateSeconds: Int
    public static let pageLimit = 50

    init(store: HeartworkStore, workouts: WorkoutService, live: LiveService, inbox: InboxService, bus: LiveBus, secondMilliseconds: Int, lateSeconds: Int = MatchRules.lateSeconds)
    {
        self.store = store
        self.workouts = workouts
        self.live = live
        self.inbox = inbox
        self.bus = bus
        self.secondMilliseconds = secondMilliseconds
        self.lateSeconds = lateSeconds
        rooms = MatchRooms()
        bus.handleMatches { [self] from, message in await handle(message, from: from) }
    }

    /// Invites a friend to a live match of `minutes` (1–120); a `practice` match lets the
    /// slider play and says "practice" wherever its result appears.
    public func invite(_ opponentID: String, minutes: Int, practice: Bool = false, by user: UserRecord, now: Date = Date()) async throws -> MatchRecord {
        guard MatchRules.minutes.contains(minutes) else {
            throw AppError.invalid("a match lasts 1–120 minutes", field: "minutes")
        }
        guard opponentID != user.id else { throw AppError.invalid("you cannot challenge yourself", field: "opponent") }
        guard try await store.friends.areFriends(user.id, opponentID) else {
            throw AppError.invalid("you can challenge only a friend", field: "opponent")
        }
        _ = try await anchors(of: user, now: now, field: "opponent", whose: "your")
        let match = MatchRecord(
            kind: .live, challengerID: user.id, opponentID: opponentID, durationSeconds: minutes * 60, practice: practice, state: .invited,
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(MatchRules.invitationSeconds)))
        do {
            try await store.matches.invite(match, bySender: MatchRules.openInvitationsBySender, toReceiver: MatchRules.openInvitationsToReceiver, now: now)
        } catch StoreError.limitReached(let limit) where limit == MatchRules.openInvitationsBySender {
            throw AppError(
                .throttled,
                "you have \(limit) invitations waiting for an answer; wait until one is answered or lapses (after \(MatchRules.invitationSeconds / 60) minutes)",
                retryAfterSeconds: 60)
        } catch StoreError.limitReached {
            throw AppError(.throttled, "this friend has \(MatchRules.openInvitationsToReceiver) invitations waiting for an answer; try again later", retryAfterSeconds: 60)
        } catch StoreError.notFound {
            throw AppError.notSignedIn
        }
        await inbox.tell(
            opponentID, kind: "match-invitation",
            text: "\(user.fullName) (@\(user.username)) challenges you to a \(minutes)-minute \(practice ? "practice match" : "match")",
            link: "/matches/\(match.id)", actorID: user.id, now: now)
        return match
    }

    /// A ghost race against one of the user's workouts or one a friend shares with them. Its
    /// length is the recording's; side b's zones are those stored with the workout.
    public func ghost(_ workoutID: String, by user: UserRecord, now: Date = Date()) async throws -> MatchRecord {
        let workout: VisibleWorkout
        do {
            workout = try await workouts.workout(workoutID, viewer: user)
        } catch let error as AppError where error.kind == .notFound {
            throw AppError.invalid("no workout of yours or shared with you has that id", field: "ghost")
        }
        guard workout.record.profile.zoneProfile != nil, let resting = workout.record.profile.restingHeartRate,
            let maximum = workout.record.profile.maximumHeartRate
        else {
            throw AppError.invalid("that workout has no resting and maximum heart rate stored with it, so its zones are unknown", field: "ghost")
        }
        let streams = try await workouts.streams(of: workout)
        guard streams.heartRate.contains(where: { $0 != nil }) else {
            throw AppError.invalid("that workout has no heart rate to race", field: "ghost")
        }
        _ = try await anchors(of: user, now: now, field: "ghost", whose: "your")
        let match = MatchRecord(
            kind: .ghost, challengerID: user.id, ghostWorkoutID: workout.record.id, ghostOwnerID: workout.record.userID,
            durationSeconds: streams.heartRate.count, practice: true, state: .accepted, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(MatchRules.invitationSeconds)),
            anchorsB: MatchAnchors(restingHeartRate: resting, maximumHeartRate: maximum))
        try await store.matches.create(match)
        return match
    }

    public func accept(_ id: String, by user: UserRecord, now: Date = Date()) async throws -> MatchRecord {
        let match = try await invitation(id, for: user, now: now)
        _ = try await anchors(of: user, now: now, field: nil, whose: "your")
        let expiresAt = now.addingTimeInterval(TimeInterval(MatchRules.invitationSeconds))
        guard
            try await store.matches.transition(
                id: id, from: [.invited], to: .accepted, expiresAt: expiresAt, startedAt: nil,
                anchorsA: nil, anchorsB: nil)
        else {
            throw AppError.conflict("the invitation was answered or withdrawn meanwhile")
        }
        await rooms.accepted(id, expiresAt: expiresAt)
        await inbox.tell(
            match.challengerID, kind: "match-accepted", text: "\(user.fullName) accepted your challenge: the match starts when you are both in the room",
            link: "/matches/\(id)", actorID: user.id, now: now)
        return try await self.match(id, for: user, now: now)
    }

    public func decline(_ id: String, by user: UserRecord, now: Date = Date()) async throws -> MatchRecord {
        let match = try await invitation(id, for: user, now: now)
        guard
            try await store.matches.transition(
                id: id, from: [.invited], to: .declined, expiresAt: nil, startedAt: nil,
                anchorsA: nil, anchorsB: nil)
        else {
            throw AppError.conflict("the invitation was answered or withdrawn meanwhile")
        }
        await rooms.close(id, reason: "declined", detail: "\(user.fullName) declined the challenge")
        await inbox.tell(
            match.challengerID, kind: "match-declined", text: "\(user.fullName) declined your challenge",
            link: "/matches/\(id)", actorID: user.id, now: now)
        return try await self.match(id, for: user, now: now)
    }

    /// A match its players see (and, for a ghost race, the owner of the workout raced).
    public func match(_ id: String, for user: UserRecord, now: Date = Date()) async throws -> MatchRecord {
        guard var match = try await store.matches.find(id: id),
            match.side(of: user.id) != nil || match.ghostOwnerID == user.id
        else { throw AppError.notFound("match") }
        match.state = match.state(at: now)
        return match
    }

    public func list(for user: UserRecord, page: Page, now: Date = Date()) async throws -> [MatchRecord] {
        try await store.matches.list(userID: user.id, limit: min(page.limit, Self.pageLimit), offset: page.offset).map { match in
            var match = match
            match.state = match.state(at: now)
            return match
        }
    }

    /// Enters the match's room: the side the user plays, and the room's messages for them.
    public func join(_ id: String, as user: UserRecord, now: Date = Date()) async throws -> MatchJoin {
        let match = try await self.match(id, for: user, now: now)
        guard let sideName = match.side(of: user.id), let side = Competitor(rawValue: sideName) else {
            throw AppError.notFound("match")
        }
        switch match.state {
        case .finished, .declined, .expired:
            return MatchJoin(match: match, side: side, room: nil)
        case .invited where side == .b:
            throw AppError.conflict("accept the invitation first")
        case .invited, .accepted, .running:
            if let room = await rooms.existing(id) { return MatchJoin(match: match, side: side, room: room) }
            // With several instances, the room lives in the memory of one: the first to claim it.
            if store.sharesNotifications {
                let host = try await store.matches.claimHost(
                    id: id, instance: bus.instanceID, until: now.addingTimeInterval(Self.hostLease), now: now)
                if let host, host != bus.instanceID {
                    return MatchJoin(match: match, side: side, room: RemoteMatchRoom(matchID: id, host: host, bus: bus, seats: seats))
                }
            }
            // A running match whose room no instance holds: its server stopped mid-match.
            guard match.state != .running else {
                _ = try await store.matches.abandonRunning(id: id, at: now)
                return MatchJoin(match: try await self.match(id, for: user, now: now), side: side, room: nil)
            }
            return MatchJoin(match: match, side: side, room: try await localRoom(for: match))
        }
    }

    /// The room of a match in this process, made if it is not here yet.
    func localRoom(for match: MatchRecord) async throws -> MatchRoom {
        if let room = await rooms.existing(match.id) { return room }
        let ghost: [Double?]? = match.kind == .ghost ? try await ghostSeries(of: match) : nil
        return await rooms.room(for: match) { [self] in
            MatchRoom(
                matchID: match.id, durationSeconds: match.durationSeconds, secondMilliseconds: secondMilliseconds, lateSeconds: lateSeconds, ghost: ghost,
                practice: match.isPractice, expiresAt: match.expiresAt, hooks: hooks(for: match))
        }
    }

    /// Match traffic another instance addressed to this one: as the host, players joining,
    /// sending and leaving; as a player's instance, the host's frames for a seat here.
    func handle(_ message: BusMatch, from instance: String) async {
        func answer(_ frame: MatchMessage?) {
            bus.send(match: BusMatch(kind: .out, target: instance, matchID: message.matchID, seat: message.seat, side: message.side, message: frame?.json))
        }
        switch message.kind {
        case .join:
            guard let side = Competitor(rawValue: message.side) else { return }
            let room: MatchRoom
            do {
                guard let match = try await store.matches.find(id: message.matchID),
                    [.invited, .accepted, .running].contains(match.state(at: Date()))
                else {
                    throw AppError.conflict("the match cannot be entered now")
                }
                room = try await localRoom(for: match)
            } catch {
                answer(.closed(reason: "refused", detail: "\(error)"))
                answer(nil)
                return
            }
            let (connection, frames) = await room.connect(side)
            let bus = bus
            let forwarder = Task {
                for await frame in frames {
                    bus.send(match: BusMatch(kind: .out, target: instance, matchID: message.matchID, seat: message.seat, side: message.side, message: frame.json))
                }
                bus.send(match: BusMatch(kind: .out, target: instance, matchID: message.matchID, seat: message.seat, side: message.side, message: nil))
            }
            await hosted.add(message.seat, room: room, side: side, connection: connection, forwarder: forwarder)
        case .reading:
            guard let seat = await hosted.seat(message.seat), let second = message.second, let bpm = message.beatsPerMinute else { return }
            // An instance of an earlier version names no source: its readings count as practice.
            let source = message.source.flatMap(MatchReadingSource.init(rawValue:)) ?? .practice
            await seat.room.reading(seat.side, second: second, beatsPerMinute: bpm, rrMilliseconds: message.rrMilliseconds, source: source)
        case .forfeit:
            guard let seat = await hosted.seat(message.seat) else { return }
            await seat.room.forfeit(seat.side, id: seat.connection)
        case .leave:
            guard let seat = await hosted.remove(message.seat) else { return }
            await seat.room.disconnect(seat.side, id: seat.connection)
        case .out:
            guard let seat = UUID(uuidString: message.seat) else { return }
            guard let text = message.message else { return await seats.deliver(seat, nil) }
            guard let frame = try? MatchMessage(json: text) else { return }
            await seats.deliver(seat, frame)
        }
    }

    /// Saves the player's side of a finished match as a workout of theirs (running, indoors,
    /// from second 0 of the match, their heart rate as played). Once per player; not for a
    /// player who ended the match early (HeartMate F20: they may only discard it).
    public func saveWorkout(_ id: String, by user: UserRecord, now: Date = Date()) async throws -> WorkoutRecord {
        let match = try await self.match(id, for: user, now: now)
        guard let side = match.side(of: user.id) else { throw AppError.notFound("match") }
        guard match.state == .finished, let result = match.result, let startedAt = match.startedAt else {
            throw AppError.conflict("the match is not over")
        }
        guard result.forfeitedBy != side, result.forfeitedBy != "both" else {
            throw AppError.conflict("you ended this match early, so its workout can only be discarded")
        }
        guard (side == "a" ? match.workoutA : match.workoutB) == nil else { throw AppError.conflict("you saved this match as a workout already") }
        let heartRate = side == "a" ? result.heartRateA : result.heartRateB
        guard heartRate.contains(where: { $0 != nil }) else { throw AppError.conflict("no heart rate of yours reached this match: there is nothing to save") }
        let secondZero = startedAt.addingTimeInterval(Double(MatchRules.countdownSeconds * secondMilliseconds) / 1000)
        let workout = try await workouts.record(NewWorkout(sport: .running, startTime: secondZero, indoor: true, heartRate: heartRate), for: user, now: now)
        guard try await store.matches.setWorkout(id: id, side: side, workoutID: workout.id) else {
            try? await workouts.delete(workout.id, owner: user)
            throw AppError.conflict("you saved this match as a workout already")
        }
        return workout
    }

    /// The match a workout was saved from, when the viewer may see that match.
    public func match(savedAs workoutID: String, for user: UserRecord) async throws -> MatchRecord? {
        guard let match = try await store.matches.find(workoutID: workoutID),
            match.side(of: user.id) != nil || match.ghostOwnerID == user.id
        else { return nil }
        return match
    }

    /// The ghost's per-second heart rate, as stored with the workout raced.
    func ghostSeries(of match: MatchRecord) async throws -> [Double?] {
        guard let workoutID = match.ghostWorkoutID, let streams = try await store.workouts.streams(workoutID: workoutID) else {
            throw AppError.conflict("the workout of this ghost race was deleted")
        }
        return HeartRateSeries.ghost(perSecond: streams.heartRate).fitted(toSeconds: match.durationSeconds).beatsPerMinute
    }

    /// The zone anchors of a user's profile now; refused with what to fill in when missing.
    public func anchors(of user: UserRecord, now: Date, field: String?, whose: String) async throws -> MatchAnchors {
        guard let current = try await store.users.find(id: user.id) else { throw AppError.notSignedIn }
        let snapshot = try await workouts.snapshot(for: current, at: now)
        guard snapshot.zoneProfile != nil, let resting = snapshot.restingHeartRate, let maximum = snapshot.maximumHeartRate else {
            throw AppError.invalid(
                "a match scores by heart-rate zones: \(whose) profile needs a resting heart rate and a birth date or measured maximum", field: field)
        }
        return MatchAnchors(restingHeartRate: resting, maximumHeartRate: maximum)
    }

    private func invitation(_ id: String, for user: UserRecord, now: Date) async throws -> MatchRecord {
        let match = try await self.match(id, for: user, now: now)
        guard match.kind == .live, match.side(of: user.id) == "b" else {
            if match.side(of: user.id) == "a" { throw AppError.conflict("you sent this invitation: only your friend answers it") }
            throw AppError.notFound("match")
        }
        switch match.state {
        case .invited: return match
        case .expired: throw AppError.conflict("the invitation expired")
        default: throw AppError.conflict("the invitation was already answered")
        }
    }

    private func hooks(for match: MatchRecord) -> MatchRoom.Hooks {
        let store = store
        let rooms = rooms
        let inbox = inbox
        let id = match.id
        return MatchRoom.Hooks(
            start: { [self] in
                // Each side's zones as its profile stands at the start (a ghost's: stored with it).
                let now = Date()
                guard let challenger = try await store.users.find(id: match.challengerID) else { throw AppError.notFound("user") }
                let a = try await anchors(of: challenger, now: now, field: nil, whose: "the challenger's")
                let b: MatchAnchors
                if match.kind == .ghost, let stored = match.anchorsB {
                    b = stored
                } else {
                    guard let opponentID = match.opponentID, let opponent = try await store.users.find(id: opponentID) else {
                        throw AppError.notFound("user")
                    }
                    b = try await anchors(of: opponent, now: now, field: nil, whose: "the opponent's")
                }
                guard
                    try await store.matches.transition(
                        id: id, from: [.accepted], to: .running, expiresAt: nil, startedAt: now,
                        anchorsA: a, anchorsB: match.kind == .ghost ? nil : b)
                else {
                    throw AppError.conflict("the match is no longer waiting to start")
                }
                guard let zonesA = a.zoneProfile, let zonesB = b.zoneProfile else {
                    throw AppError.conflict("a side's resting and maximum heart rate make no zones")
                }
                return (zonesA, zonesB)
            },
            finish: { result in
                let now = Date()
                do {
                    _ = try await store.matches.finish(id: id, result: result, at: now)
                    guard let stored = try await store.matches.find(id: id) else { return nil }
                    await inbox.matchResult(stored, now: now)
                    return stored
                } catch {
                    return nil
                }
            },
            closed: { [bus] in
                await rooms.remove(id)
                try? await store.matches.releaseHost(id: id, instance: bus.instanceID)
            },
            renew: { [bus] in
                let now = Date()
                _ = try? await store.matches.claimHost(id: id, instance: bus.instanceID, until: now.addingTimeInterval(Self.hostLease), now: now)
            })
    }
}

/// A player in a match's room, or (room nil) a match that is over.
public struct MatchJoin: Sendable {
    public let match: MatchRecord
    public let side: Competitor
    public let room: (any MatchRoomHandle)?
}

/// The rooms this process hosts, by match id.
public actor MatchRooms {
    private var rooms: [String: MatchRoom] = [:]

    public init() {}

    func room(for match: MatchRecord, make: @Sendable () -> MatchRoom) -> MatchRoom {
        if let room = rooms[match.id] { return room }
        let room = make()
        rooms[match.id] = room
        return room
    }

    func existing(_ id: String) -> MatchRoom? { rooms[id] }

    func remove(_ id: String) { rooms[id] = nil }

    /// How many rooms this process hosts.
    public var count: Int { rooms.count }

    func accepted(_ id: String, expiresAt: Date) async {
        await rooms[id]?.accepted(expiresAt: expiresAt)
    }

    func close(_ id: String, reason: String, detail: String) async {
        await rooms[id]?.close(reason: reason, detail: detail)
    }

}

/// A match with the people it names, as a result frame or page shows it.
public struct MatchView: Sendable {
    public let match: MatchRecord
    public let people: [String: UserRecord]
}

extension MatchService {
    /// A match `user` may see, with its people: what the room's `end` frame carries.
    public func view(_ id: String, for user: UserRecord) async throws -> MatchView {
        try await view(of: try await match(id, for: user))
    }

    /// The match with its people.
    public func view(of match: MatchRecord) async throws -> MatchView {
        MatchView(match: match, people: try await people(in: [match]))
    }

    /// The people a list of matches names (challengers, opponents, ghost owners), by id, in
    /// one call, for answers and pages that show names.
    public func people(in matches: [MatchRecord]) async throws -> [String: UserRecord] {
        var ids = Set<String>()
        for match in matches {
            ids.insert(match.challengerID)
            if let id = match.opponentID { ids.insert(id) }
            if let id = match.ghostOwnerID { ids.insert(id) }
        }
        var people = [String: UserRecord]()
        for id in ids {
            if let user = try await store.users.find(id: id) { people[id] = user }
        }
        return people
    }
}
