import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// Workouts: recording one from any source (the owner's profile snapshot and everything
/// derived from it), listing, reading with its streams, deleting and sharing. A workout is
/// visible to its owner, and to the owner's friends while it is shared.
public struct WorkoutService: Sendable {
    let store: HeartworkStore
    /// Daily health's recomputation, which a new or deleted workout asks for.
    let days: any DayRecomputation

    /// The profile as it stood at `date`: age then, the latest weight and resting heart rate
    /// measured up to then (or the earliest one after, if none was measured before).
    public func snapshot(for user: UserRecord, at date: Date) async throws -> ProfileSnapshot {
        func asOf(_ kind: MeasurementKind) async throws -> Double? {
            if let before = try await store.measurements.latest(userID: user.id, kind: kind, atOrBefore: date) { return before.value }
            return try await store.measurements.list(userID: user.id, kind: kind).first?.value
        }
        return ProfileHistories.snapshot(for: user, at: date, resting: try await asOf(.restingHeartRate), weight: try await asOf(.weight))
    }

    /// An uploaded file (FIT, TCX, GPX or Heartwork's JSON; sniffed when `format` is nil)
    /// stored as a workout: one call from the body's bytes to the record, whose `notes` say
    /// what was left out or where the file was cut. A file that makes no workout at all is
    /// refused with a sentence saying why.
    public func upload(_ bytes: [UInt8], format: ActivityFileFormat?, for user: UserRecord, now: Date = Date()) async throws -> UploadedWorkout {
        guard let format = format ?? ActivityFileFormat(sniffing: bytes) else {
            throw AppError.invalid(Self.notAWorkout(bytes), field: "file")
        }
        // A file of more than 64 KiB is decoded on a thread of its own, not on the cooperative
        // pool every request shares (issue 40).
        let offThread = bytes.count > 64 * 1024
        if format == .json {
            let workout = offThread ? try await Blocking.run { try WorkoutJSON.read(bytes) } : try WorkoutJSON.read(bytes)
            return try await stored(workout, for: user, now: now, fileWarnings: [])
        }
        let read: (workout: NewWorkout, warnings: [FileWarning])
        do {
            read = offThread ? try await Blocking.run { try ActivityFiles.read(bytes, format: format) } : try ActivityFiles.read(bytes, format: format)
        } catch let error as ActivityFileError {
            throw AppError.invalid(error.description, field: "file")
        }
        return try await stored(read.workout, for: user, now: now, fileWarnings: read.warnings)
    }

    /// Why a file is no workout, pointing files that have an import of their own to it (issue
    /// 41: a Strong CSV or an Apple Health zip uploaded as a workout got no pointer).
    static func notAWorkout(_ bytes: [UInt8]) -> String {
        let start = "this file is not a workout Heartwork can read"
        let head = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased()
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return
                "\(start): it is a ZIP archive. An Apple Health export (export.zip) is imported on Health → Import (/health/import, or POST /api/imports/apple-health); for workouts, send the FIT, TCX or GPX files inside it one by one"
        }
        if GadgetbridgeSchema.looksLikeSQLite(Array(bytes.prefix(32))) {
            return "\(start): it is a database. A Gadgetbridge database is imported on Health → Import (/health/import, or POST /api/imports/gadgetbridge)"
        }
        let firstLine = head.prefix { $0 != "\n" && $0 != "\r" }
        if firstLine.contains("exercise") || firstLine.contains("set order") || firstLine.contains("exercise_title") || firstLine.contains(",reps") {
            return "\(start): it is a workout log. A Strong or Hevy export (.csv) is imported on Strength → Import (/strength/import, or POST /api/strength/import)"
        }
        if head.contains("<healthdata") {
            return "\(start): it is Apple Health's export.xml. It is imported on Health → Import (/health/import, or POST /api/imports/apple-health)"
        }
        return "\(start): send a FIT, TCX or GPX file from your watch or app (or Heartwork's JSON)"
    }

    /// An uploaded file's workout stored, or put in place of a cut copy of it (issue 41).
    private func stored(_ workout: NewWorkout, for user: UserRecord, now: Date, fileWarnings: [FileWarning]) async throws -> UploadedWorkout {
        let (record, timeZone, replaced) = try await insert(workout, for: user, now: now, fileWarnings: fileWarnings, replacingShorter: true)
        await queueDailyRecompute(userID: user.id, at: record.startedAt, timeZone: timeZone)
        if let replaced, replaced.startedAt != record.startedAt {
            await queueDailyRecompute(userID: user.id, at: replaced.startedAt, timeZone: timeZone)
        }
        return UploadedWorkout(workout: record, replaced: replaced.map { .init(durationSeconds: $0.metrics.durationSeconds) })
    }

    /// Cleans (`WorkoutCleaning`: artifacts left out and noted), validates and stores a
    /// workout for `user`, and queues the recomputation of the user's days from it; the
    /// record carries the notes of both the file and the cleaning.
    public func record(_ workout: NewWorkout, for user: UserRecord, now: Date = Date(), fileWarnings: [FileWarning] = []) async throws -> WorkoutRecord {
        let (record, timeZone, _) = try await insert(workout, for: user, now: now, fileWarnings: fileWarnings)
        await queueDailyRecompute(userID: user.id, at: record.startedAt, timeZone: timeZone)
        return record
    }

    /// `record` without the recomputation: for an import, which queues one for everything it
    /// brought. Returns the record and the owner's time zone. `replacingShorter` (a file
    /// uploaded): the same activity stored shorter — a cut copy, uploaded first — is replaced
    /// by this one, which keeps its id, sharing and creation time, and is returned as
    /// `replaced`; anything else the same is a conflict.
    func insert(
        _ workout: NewWorkout, for user: UserRecord, now: Date = Date(), fileWarnings: [FileWarning] = [], replacingShorter: Bool = false
    ) async throws -> (WorkoutRecord, String?, replaced: WorkoutRecord?) {
        let (workout, cleaning) = WorkoutCleaning.clean(workout)
        let notes =
            fileWarnings.map { warning in
                WorkoutNote(line: warning.line, byte: warning.line == nil && warning.offset > 0 ? warning.offset : nil, message: warning.message)
            } + cleaning
        let streams = try WorkoutValidation.streams(of: workout, now: now)
        // The stored profile, not a cached identity's: its settings decide what is shared.
        guard let user = try await store.users.find(id: user.id) else { throw AppError.notSignedIn }
        let snapshot = try await snapshot(for: user, at: workout.startTime)
        let record = WorkoutRecord(
            userID: user.id, sport: workout.sport, startedAt: workout.startTime, indoor: workout.indoor,
            metrics: WorkoutMetrics(streams: streams, snapshot: snapshot, givenDistanceMeters: workout.distanceMeters, givenKilocalories: workout.kilocalories),
            profile: snapshot, rrCount: streams.rrIntervalsMilliseconds.count, trackCount: streams.track.count,
            shared: user.autoShareWorkouts, sharedAt: user.autoShareWorkouts ? now : nil, createdAt: now, device: workout.device,
            title: workout.title, notes: notes)
        do {
            try await store.workouts.insert(record, streams: streams)
        } catch StoreError.duplicate(let existing) {
            if replacingShorter, let stored = try await store.workouts.find(id: existing), stored.userID == user.id,
                stored.metrics.durationSeconds + Self.longerBySeconds <= record.metrics.durationSeconds
            {
                var replacement = record
                replacement.id = stored.id
                replacement.shared = stored.shared
                replacement.sharedAt = stored.sharedAt
                replacement.createdAt = stored.createdAt
                if try await store.workouts.replaceShorter(id: stored.id, with: replacement, streams: streams) {
                    replacement.title = replacement.title ?? stored.title
                    return (replacement, user.timeZone, stored)
                }
            }
            let same = workout.device.map { "the same start time and device (\($0))" } ?? "the same start time"
            var error = AppError.conflict("this activity is already stored as workout \(existing) (\(same)); it was not stored twice")
            error.location = "/api/workouts/\(existing)"
            throw error
        }
        return (record, user.timeZone, nil)
    }

    /// A copy replaces the one stored when it is at least this much longer: a cut file lacks
    /// its end, while two writers of one activity differ by a second or two of rounding.
    public static let longerBySeconds = 5

    /// The job that completes a user's workout snapshots (see `completeSnapshots`).
    struct CompleteSnapshotsJob: JobParameters {
        static let jobName = "complete-snapshots"
        var userID: String
    }

    /// Queues the completion of the user's workout snapshots (once, however many edits come
    /// before it runs): a profile or measurement edit answers at once, whatever the history.
    public func queueSnapshotCompletion(userID: String, now: Date = Date()) async throws {
        _ = try await store.jobs.enqueueUnlessQueued(Jobs.record(CompleteSnapshotsJob(userID: userID), userID: userID, runAfter: now, now: now))
    }

    public var jobDefinitions: [JobDefinition] {
        [
            JobDefinition(CompleteSnapshotsJob.self, retry: RetryStrategy(attempts: 5), timeLimit: .seconds(600)) { job, _ in
                guard let user = try await store.users.find(id: job.userID) else { return }
                try await completeSnapshots(for: user)
            }
        ]
    }

    /// Fills in what workouts' profile snapshots lacked (a birth date, a resting heart rate, a
    /// weight… set only later) from the profile as it stood at each workout, and derives zones
    /// and energy again; what a snapshot had stays as it was. Returns how many changed. The
    /// measurement histories are read once (not per workout). Run as a job.
    @discardableResult
    public func completeSnapshots(for user: UserRecord) async throws -> Int {
        let histories = ProfileHistories(
            resting: try await store.measurements.list(userID: user.id, kind: .restingHeartRate),
            weights: try await store.measurements.list(userID: user.id, kind: .weight))
        // What the profile can give at all (a history gives its first value to earlier workouts).
        let today = histories.snapshot(for: user, at: Date())
        var fillable = SnapshotFields()
        if today.ageYears != nil { fillable.insert(.age) }
        if today.restingHeartRate != nil { fillable.insert(.restingHeartRate) }
        if today.restingHeartRate != nil, today.maximumHeartRate != nil { fillable.insert(.maximumHeartRate) }
        if today.weightKilograms != nil { fillable.insert(.weight) }
        if today.sex != nil { fillable.insert(.sex) }
        let incomplete = try await store.workouts.withIncompleteSnapshot(userID: user.id, fillable: fillable, limit: 5000)
        guard !incomplete.isEmpty else { return 0 }
        var changed = 0
        for workout in incomplete {
            let now = histories.snapshot(for: user, at: workout.startedAt)
            var completed = workout.profile
            if completed.ageYears == nil { completed.ageYears = now.ageYears }
            if completed.restingHeartRate == nil || completed.maximumHeartRate == nil, completed.zoneProfile == nil {
                completed.restingHeartRate = completed.restingHeartRate ?? now.restingHeartRate
                completed.maximumHeartRate = completed.maximumHeartRate ?? now.maximumHeartRate
                completed.maximumHeartRateSource = completed.maximumHeartRateSource ?? now.maximumHeartRateSource
                if completed.zoneProfile == nil { completed.maximumHeartRate = nil }
            }
            if completed.weightKilograms == nil { completed.weightKilograms = now.weightKilograms }
            if completed.sex == nil { completed.sex = now.sex }
            guard completed != workout.profile, let streams = try await store.workouts.streams(workoutID: workout.id) else { continue }
            let derived = WorkoutMetrics(
                streams: streams, snapshot: completed, givenDistanceMeters: workout.metrics.distanceMeters,
                givenKilocalories: workout.metrics.kilocalories)
            try await store.workouts.updateDerived(id: workout.id, userID: user.id, profile: completed, metrics: derived)
            changed += 1
        }
        return changed
    }

    public func list(for user: UserRecord, from: Date? = nil, to: Date? = nil, page: Page) async throws -> [WorkoutRecord] {
        try await store.workouts.list(userID: user.id, from: from, to: to, sharedOnly: false, page: page)
    }

    /// Every workout of the user that started in [from, to), newest first.
    public func all(for user: UserRecord, from: Date, to: Date) async throws -> [WorkoutRecord] {
        var workouts = [WorkoutRecord]()
        while true {
            let page = try await store.workouts.list(userID: user.id, from: from, to: to, sharedOnly: false, page: Page(limit: 100, offset: workouts.count))
            workouts += page
            if page.count < 100 || workouts.count >= 10_000 { return workouts }
        }
    }

    /// The newest workouts the user's friends share with them.
    public func friendsFeed(for user: UserRecord, limit: Int = 10) async throws -> [WorkoutRecord] {
        try await store.workouts.sharedByFriends(of: user.id, limit: limit)
    }

    public func count(for user: UserRecord) async throws -> Int {
        try await store.workouts.count(userID: user.id)
    }

    /// A friend's shared workouts; "not found" unless they are a friend.
    public func shared(by friendID: String, to viewer: UserRecord, page: Page) async throws -> [WorkoutRecord] {
        guard try await store.friends.areFriends(viewer.id, friendID) else { throw AppError.notFound("friend") }
        return try await store.workouts.list(userID: friendID, from: nil, to: nil, sharedOnly: true, page: page)
    }

    /// A workout the viewer owns, or one a friend of theirs shares; otherwise "not found"
    /// (never "forbidden": the answer must not reveal that the workout exists).
    public func workout(_ id: String, viewer: UserRecord) async throws -> VisibleWorkout {
        guard let workout = try await store.workouts.find(id: id) else { throw AppError.notFound("workout") }
        if workout.userID == viewer.id { return VisibleWorkout(record: workout, viewerIsOwner: true) }
        if workout.shared, try await store.friends.areFriends(viewer.id, workout.userID) {
            return VisibleWorkout(record: workout, viewerIsOwner: false)
        }
        throw AppError.notFound("workout")
    }

    public func streams(of workout: VisibleWorkout) async throws -> WorkoutStreams {
        guard let streams = try await store.workouts.streams(workoutID: workout.record.id) else { throw AppError.notFound("workout") }
        return streams
    }

    /// A workout of the owner's as a file (`ActivityFileFormat`): what was stored, written back
    /// (heart rate, RR intervals, track, sport, start, distance, energy, device). Only the owner
    /// may export; for anyone else it does not exist.
    public func export(_ id: String, owner: UserRecord, format: ActivityFileFormat) async throws -> ExportedWorkout {
        guard let record = try await store.workouts.find(id: id), record.userID == owner.id,
            let streams = try await store.workouts.streams(workoutID: id)
        else { throw AppError.notFound("workout") }
        let workout = Self.newWorkout(record, streams: streams)
        let bytes: [UInt8]
        do {
            bytes = try ActivityFiles.bytes(
                of: workout, format: format, name: "\(record.sport.rawValue.capitalized) \(ExportedWorkout.day(record.startedAt, zone: TimeZones.zone(owner.timeZone)))")
        } catch {
            throw AppError.conflict(error.description, field: "format")
        }
        return ExportedWorkout(
            bytes: bytes, format: format,
            fileName: "heartwork-\(record.sport.rawValue)-\(ExportedWorkout.stamp(record.startedAt, zone: TimeZones.zone(owner.timeZone))).\(format.rawValue)")
    }

    /// A stored workout as the document it was made from (for files: exports, the account archive).
    static func newWorkout(_ record: WorkoutRecord, streams: WorkoutStreams) -> NewWorkout {
        NewWorkout(
            sport: record.sport, startTime: record.startedAt, indoor: record.indoor, heartRate: streams.heartRate,
            rrIntervalsMilliseconds: streams.rrIntervalsMilliseconds,
            track: streams.track.map {
                NewWorkout.TrackPoint(
                    latitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees, elevationMeters: $0.elevationMeters,
                    timeSeconds: $0.timeSeconds ?? 0)
            },
            distanceMeters: record.metrics.distanceMeters, kilocalories: record.metrics.kilocalories, device: record.device)
    }

    public func delete(_ id: String, owner: UserRecord) async throws {
        let startedAt = try await store.workouts.find(id: id).flatMap { $0.userID == owner.id ? $0.startedAt : nil }
        guard try await store.workouts.delete(id: id, userID: owner.id) else { throw AppError.notFound("workout") }
        if let startedAt { await queueDailyRecompute(userID: owner.id, at: startedAt, timeZone: owner.timeZone) }
    }

    /// A workout changes its day's RISE metrics and TRIMP, and the load of the days after it:
    /// their recomputation is queued (daily health's job; nothing happens for a user without
    /// watch data). A failure to queue never fails the upload.
    func queueDailyRecompute(userID: String, at start: Date, timeZone: String?) async {
        let zone = TimeZones.zone(timeZone)
        let day = CalendarDay(start, utcOffsetSeconds: zone.secondsFromGMT(for: start)).adding(days: -1)
        guard (try? await store.daily.dataRange(userID: userID)) != nil else { return }
        try? await days.queueRecompute(userID: userID, from: day, now: Date())
    }

    /// Shares or unshares; sharing beyond the owner's cap unshares their oldest shared workouts.
    public func setShared(_ id: String, _ shared: Bool, owner: UserRecord, now: Date = Date()) async throws -> WorkoutRecord {
        let updated: WorkoutRecord?
        do {
            updated = try await store.workouts.setShared(id: id, userID: owner.id, shared: shared, at: now)
        } catch StoreError.limitReached(let cap) {
            throw AppError.conflict(
                "you share \(cap) workout\(cap == 1 ? "" : "s"), your limit, and this one is older than all of them, so it would be unshared at once: unshare one or raise the limit in your settings"
            )
        }
        guard let workout = updated else { throw AppError.notFound("workout") }
        return workout
    }
}

/// A user's resting heart rate and weight histories, read once, for many snapshots.
struct ProfileHistories {
    let resting: [MeasurementRecord]
    let weights: [MeasurementRecord]

    /// The profile at `date`: as `WorkoutService.snapshot` (the latest value measured up to
    /// then, else the earliest after).
    func snapshot(for user: UserRecord, at date: Date) -> ProfileSnapshot {
        Self.snapshot(for: user, at: date, resting: Self.asOf(resting, date), weight: Self.asOf(weights, date))
    }

    /// `history` is oldest first: a binary search for the last at or before `date`.
    static func asOf(_ history: [MeasurementRecord], _ date: Date) -> Double? {
        var low = 0
        var high = history.count
        while low < high {
            let middle = (low + high) / 2
            if history[middle].measuredAt <= date { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? history[low - 1].value : history.first?.value
    }

    static func snapshot(for user: UserRecord, at date: Date, resting: Double?, weight: Double?) -> ProfileSnapshot {
        let age = user.dateOfBirth.map { $0.wholeYears(until: CalendarDay(date)) }
        var maximum = user.maxHeartRateSource.maximumHeartRate(ageYears: age, measured: user.measuredMaxHeartRate)
        // A snapshot keeps only anchors that make valid zones.
        if let resting, let value = maximum, (try? ZoneProfile(restingHeartRate: resting, maximumHeartRate: value)) == nil { maximum = nil }
        return ProfileSnapshot(
            ageYears: age, restingHeartRate: resting, maximumHeartRate: maximum,
            maximumHeartRateSource: user.maxHeartRateSource, weightKilograms: weight, sex: user.sex)
    }
}
