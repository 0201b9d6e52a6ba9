import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import Logging

/// Phone sync (issue 24; docs/DAILY-HEALTH.md "Phone sync"): a user's sync tokens, and the
/// syncs a phone app sends with one — Health Auto Export's REST API automation. A sync is one
/// call from the bytes to the answer: the payload is read, its samples merged (one per kind,
/// source and instant: a resent window changes nothing), its workouts stored once by the
/// app's id, weight and height put in the profile's history, the days it touched queued for
/// recomputation, and the arrival recorded for Today.
public struct HealthSyncService: Sendable {
    let store: HeartworkStore
    let daily: DailyHealthService
    let logger: Logger

    public static let tokenPrefix = "hws_"
    public static let nameLength = 1...60
    /// Sync tokens per user (a phone, a tablet, a spare automation).
    public static let maximumTokensPerUser = 20
    /// The largest sync body taken: a day of per-second heart rate with a week of the other
    /// metrics is about 8 MB; the app's "since last sync" after a week away a few times that.
    public static let maximumBodyBytes = 64 << 20
    /// The syncs remembered per user (Today shows the newest).
    public static let arrivalsKept = 100
    /// Where a Health Auto Export sync comes from, in arrivals and synced workouts.
    public static let healthAutoExport = "Health Auto Export"

    public init(store: HeartworkStore, daily: DailyHealthService, logger: Logger) {
        self.store = store
        self.daily = daily
        self.logger = logger
    }

    // MARK: Tokens

    public struct CreatedToken: Sendable {
        public let token: SyncTokenRecord
        /// The only time the token is seen.
        public let secret: String
    }

    public func createToken(name: String, for user: UserRecord, now: Date = Date()) async throws -> CreatedToken {
        let name = try TextRules.line(name, field: "name", what: "a sync token's name", length: Self.nameLength)
        let secret = SessionToken.generate(prefix: Self.tokenPrefix)
        let token = SyncTokenRecord(userID: user.id, name: name, tokenHash: SessionToken.hash(secret), createdAt: now)
        do {
            try await store.sync.createToken(token, limit: Self.maximumTokensPerUser)
        } catch StoreError.limitReached {
            throw AppError.conflict("you have \(Self.maximumTokensPerUser) sync tokens, the most one account may have: revoke one you no longer use")
        } catch StoreError.notFound {
            throw AppError.notSignedIn
        }
        return CreatedToken(token: token, secret: secret)
    }

    public func tokens(for user: UserRecord) async throws -> [SyncTokenRecord] {
        try await store.sync.tokens(userID: user.id)
    }

    /// Revokes for good: the token stops working at once. What it synced stays.
    public func revokeToken(_ id: String, of user: UserRecord) async throws {
        guard try await store.sync.deleteToken(id: id, userID: user.id) else { throw AppError.notFound("sync token") }
    }

    /// The token and its user, or nil (unknown, revoked, or not a sync token).
    public func authenticate(token: String) async throws -> (token: SyncTokenRecord, user: UserRecord)? {
        let token = token.trimmingCharacters(in: .whitespaces)
        guard token.hasPrefix(Self.tokenPrefix), token.utf8.count <= 128 else { return nil }
        guard let record = try await store.sync.token(tokenHash: SessionToken.hash(token)),
            let user = try await store.users.find(id: record.userID)
        else { return nil }
        return (record, user)
    }

    /// The user's newest syncs, newest first.
    public func arrivals(for user: UserRecord, limit: Int = 10) async throws -> [SyncArrivalRecord] {
        try await store.sync.arrivals(userID: user.id, limit: max(1, min(limit, Self.arrivalsKept)))
    }

    // MARK: Health Auto Export

    /// What a sync did: added, already there, left out and why.
    public struct Answer: Sendable {
        /// Samples stored for the first time, by metric.
        public var samplesAdded: [String: Int] = [:]
        /// Samples whose value changed since the app last sent them (the current hour's steps…).
        public var samplesUpdated = 0
        /// Samples already stored as sent.
        public var samplesAlready = 0
        public var workoutsAdded = 0
        public var workoutsAlready = 0
        /// Entries read, by metric name.
        public var entries: [String: Int] = [:]
        /// What was not stored, by why.
        public var leftOut: [String: Int] = [:]
        /// Fields read past, by where.
        public var fieldsNotUsed: [String: Int] = [:]
        /// Weight and height history and profile fields filled.
        public var body = BodyUpdate()
        /// The first and last local day the sync touched (recomputed in the background).
        public var firstDay: CalendarDay?
        public var lastDay: CalendarDay?
        public var newestSampleAt: Date?
    }

    /// Takes one Health Auto Export payload sent with a sync token.
    /// - Parameters: the token and its user, as `authenticate(token:)` found them (the edge
    ///   checks the token before it reads the body).
    public func receiveHealthAutoExport(_ body: [UInt8], token: SyncTokenRecord, user: UserRecord, now: Date = Date()) async throws -> Answer {
        guard !body.isEmpty else {
            throw AppError.invalid("the body is empty: send Health Auto Export's JSON ({\"data\":{\"metrics\":[…],\"workouts\":[…]}})", field: nil)
        }
        let payload: HealthAutoExport.Payload
        do {
            let born = user.dateOfBirth
            payload = try await Blocking.run { try HealthAutoExport.read(body, now: now, bornOn: born) }
        } catch let error as JSONFieldError {
            throw AppError.invalid("\(error.description); choose the JSON export format in the automation", field: error.path)
        }
        var answer = Answer()
        answer.entries = payload.entries
        answer.leftOut = payload.leftOut
        answer.fieldsNotUsed = payload.fieldsNotUsed
        answer.newestSampleAt = payload.newest

        // Samples, one block write per (kind, day).
        let (changes, days) = try await store.health.sync(userID: user.id, payload.samples, now: now)
        let names = Dictionary(HealthAutoExport.metrics.map { ($0.value, $0.key) }) { a, _ in a }
        var change = HealthSampleMerge.Upsert()
        for (kind, counts) in changes {
            change.added += counts.added
            change.updated += counts.updated
            change.unchanged += counts.unchanged
            if counts.added > 0 { answer.samplesAdded[names[kind] ?? kind.rawValue] = counts.added }
        }
        answer.samplesUpdated = change.updated
        answer.samplesAlready = change.unchanged
        var earliest = days.map(\.day).min()
        var latest = days.map(\.day).max()

        // Weight and height into the profile's history (a value typed the same day wins).
        let bodySamples = payload.samples.filter { $0.kind == .bodyMass || $0.kind == .height }
        if !bodySamples.isEmpty {
            answer.body = try await daily.applyBody(owner: nil, samples: bodySamples, for: user, importedFrom: Self.healthAutoExport, now: now)
        }

        // Workouts, once each by the app's id.
        for item in payload.workouts {
            if try await store.sync.syncedWorkout(userID: user.id, source: Self.healthAutoExport, externalID: item.id) != nil {
                answer.workoutsAlready += 1
                continue
            }
            switch try await daily.importWorkout(
                item.workout, for: user, track: item.track, heartRate: item.heartRate.isEmpty ? nil : item.heartRate,
                indoor: item.isIndoor ?? false)
            {
            case .added(let workoutID):
                answer.workoutsAdded += 1
                try await store.sync.recordSyncedWorkout(userID: user.id, source: Self.healthAutoExport, externalID: item.id, workoutID: workoutID, at: now)
            case .duplicate:
                answer.workoutsAlready += 1
                try await store.sync.recordSyncedWorkout(userID: user.id, source: Self.healthAutoExport, externalID: item.id, workoutID: nil, at: now)
            case .skipped(let why):
                answer.leftOut["workouts: \(why)", default: 0] += 1
                continue
            }
            let day = CalendarDay(item.workout.start, utcOffsetSeconds: item.workout.utcOffsetSeconds)
            earliest = min(earliest ?? day, day)
            latest = max(latest ?? day, day)
        }
        answer.firstDay = earliest
        answer.lastDay = latest
        if let earliest, change.added + change.updated + answer.workoutsAdded > 0 || answer.body.changedAnything {
            try await daily.queueRecompute(userID: user.id, from: earliest, now: now)
        }
        try await store.sync.touchToken(id: token.id, at: now)
        try await store.sync.addArrival(
            SyncArrivalRecord(
                userID: user.id, tokenName: token.name, source: Self.healthAutoExport, receivedAt: now, samplesAdded: change.added,
                samplesAlready: change.unchanged + change.updated, workoutsAdded: answer.workoutsAdded,
                leftOut: answer.leftOut.values.reduce(0, +), newestSampleAt: payload.newest),
            keep: Self.arrivalsKept)
        return answer
    }
}
