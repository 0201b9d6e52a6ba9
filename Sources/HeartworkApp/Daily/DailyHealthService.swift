import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import Logging

/// Daily health (issue 11; README "Daily health"): Apple Health imports, the per-day metrics
/// worked out in the background and read from the store, and what the user says about a day.
public struct DailyHealthService: Sendable {
    /// Job kinds this service runs (see `jobHandlers`).
    public static let importJob = "health-import"
    public static let recomputeJob = "recompute-days"
    /// The longest range `GET /api/days` answers at once.
    public static let maximumRangeDays = 366

    let store: HeartworkStore
    let workouts: WorkoutService
    /// Where alerts go (nil in tools that only compute days).
    let inbox: InboxService?
    /// Where uploads wait for their import job (shared by instances sharing a database).
    public let importDirectory: String
    let logger: Logger

    public init(store: HeartworkStore, workouts: WorkoutService, inbox: InboxService? = nil, importDirectory: String, logger: Logger) {
        self.store = store
        self.workouts = workouts
        self.inbox = inbox
        self.importDirectory = importDirectory
        self.logger = logger
    }

    // MARK: Imports

    /// An upload being written to the import directory.
    public final class Spool: @unchecked Sendable {
        public let path: String
        let handle: FileHandle
        public private(set) var bytes: Int64 = 0
        let limit: Int64

        init(path: String, handle: FileHandle, limit: Int64) {
            self.path = path
            self.handle = handle
            self.limit = limit
        }

        public func write(_ data: some DataProtocol) throws {
            bytes += Int64(data.count)
            guard bytes <= limit else {
                throw AppError.invalid("the export is larger than this server takes (\(limit / 1_048_576) MB)", field: nil)
            }
            try handle.write(contentsOf: data)
        }

        func close() throws { try handle.close() }

        public func discard() {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// At most this many imports of one user wait or run at once (each may hold gigabytes on disk).
    public static let maximumOpenImports = 2

    /// Refuses a new upload while the user already has `maximumOpenImports` waiting or running.
    public func checkCanImport(for user: UserRecord) async throws {
        let open = try await store.daily.imports(userID: user.id, limit: 20).filter { $0.state == .queued || $0.state == .running }
        guard open.count < Self.maximumOpenImports else {
            throw AppError(.throttled, "\(open.count) of your imports are still waiting or running; send the next when one has finished", retryAfterSeconds: 60)
        }
    }

    /// Opens a file for an upload (readable by the server's user only).
    public func openSpool(limit: Int64) throws -> Spool {
        let manager = FileManager.default
        if !manager.fileExists(atPath: importDirectory) {
            try manager.createDirectory(atPath: importDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let path = URL(fileURLWithPath: importDirectory).appendingPathComponent("upload-\(UUID().uuidString.lowercased())").path
        guard manager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw AppError(.unavailable, "the server cannot store the upload (its import directory is not writable)")
        }
        return Spool(path: path, handle: handle, limit: limit)
    }

    /// Queues the import of a complete upload; `format` is "zip" or "xml".
    public func submit(_ spool: Spool, format: String, for user: UserRecord, now: Date = Date()) async throws -> HealthImportRecord {
        try spool.close()
        guard spool.bytes > 0 else {
            spool.discard()
            throw AppError.invalid("the upload is empty: send export.zip or export.xml as the request body", field: nil)
        }
        let record = HealthImportRecord(userID: user.id, format: format, filePath: spool.path, bytesTotal: spool.bytes, createdAt: now)
        do {
            try await store.daily.createImport(record)
            try await store.jobs.enqueue(JobRecord(kind: Self.importJob, userID: user.id, payload: #"{"importID":"\#(record.id)","file":"\#(URL(fileURLWithPath: spool.path).lastPathComponent)"}"#,
                                                   maxAttempts: 3, runAfter: now, createdAt: now))
        } catch {
            spool.discard()
            throw error
        }
        return record
    }

    public func importStatus(_ id: String, for user: UserRecord) async throws -> HealthImportRecord {
        guard let record = try await store.daily.findImport(id: id, userID: user.id) else { throw AppError.notFound("import") }
        return record
    }

    public func imports(for user: UserRecord) async throws -> [HealthImportRecord] {
        try await store.daily.imports(userID: user.id, limit: 20)
    }

    /// The import job: reads the spooled export in batches, stores every sample (exact
    /// repeats once), turns its workouts into Heartwork workouts with the heart rate of their
    /// time, and queues the recomputation of the days it touched. A fault in the export ends
    /// the import as failed with the fault's line or entry; everything before it stays stored.
    /// Running it again (after a crash) reads the file again and adds only what is missing.
    func runImport(_ job: JobRecord) async throws {
        guard let id = Self.payloadString(job.payload, "importID"), var record = try await store.daily.findImport(id: id) else {
            // The account was deleted while its import waited: its upload goes too.
            if let file = Self.payloadString(job.payload, "file"), !file.contains("/"), file.hasPrefix("upload-") {
                try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: importDirectory).appendingPathComponent(file).path)
            }
            return
        }
        guard record.state == .queued || record.state == .running else { return }
        guard let user = try await store.users.find(id: record.userID) else { return }
        record.state = .running
        record.updatedAt = Date()
        try await store.daily.updateImport(record)

        let source = HealthExportSource(path: record.filePath, format: record.format)
        source.start()
        var earliest: CalendarDay?, latest: CalendarDay?
        var healthWorkouts = [HealthWorkout]()
        var failure: String?
        var read: Int64 = 0
        var added: Int64 = 0
        do {
            defer { source.stop() }
            for try await batch in source.batches {
                let result = try await store.health.add(userID: user.id, batch.samples, now: Date())
                source.taken()
                read += Int64(batch.samples.count)
                added += Int64(result.added)
                for key in result.days {
                    earliest = min(earliest ?? key.day, key.day)
                    latest = max(latest ?? key.day, key.day)
                }
                healthWorkouts += batch.workouts
                record.bytesDone = batch.bytesDone
                if batch.bytesTotal > 0 { record.bytesTotal = batch.bytesTotal }
                record.samplesRead = read
                record.samplesAdded = max(record.samplesAdded, added)
                record.firstDay = earliest.map { min(record.firstDay ?? $0, $0) }
                record.lastDay = latest.map { max(record.lastDay ?? $0, $0) }
                record.updatedAt = Date()
                try await store.daily.updateImport(record)
            }
        } catch let error as HealthExportSource.Failure {
            failure = error.description
        }
        // Workouts, with the heart rate of their time and, from a zip, their route.
        var workoutsAdded = 0, duplicates = 0
        let routes = record.format == "zip" ? HealthExportRoutes(path: record.filePath) : nil
        for workout in healthWorkouts {
            switch try await importWorkout(workout, for: user, track: routes?.track(workout.routePath, start: workout.start) ?? []) {
            case .added: workoutsAdded += 1
            case .duplicate: duplicates += 1
            case .skipped: break
            }
            let day = CalendarDay(workout.start, utcOffsetSeconds: workout.utcOffsetSeconds)
            earliest = min(earliest ?? day, day)
        }
        record.workoutsAdded = max(record.workoutsAdded, workoutsAdded)
        record.workoutsDuplicate = duplicates
        if let earliest {
            try await queueRecompute(userID: user.id, from: earliest)
        }
        record.state = failure == nil ? .done : .failed
        record.error = failure
        record.finishedAt = Date()
        record.updatedAt = Date()
        try await store.daily.updateImport(record)
        try? FileManager.default.removeItem(atPath: record.filePath)
    }

    enum WorkoutOutcome { case added, duplicate, skipped }

    func importWorkout(_ workout: HealthWorkout, for user: UserRecord, track: [NewWorkout.TrackPoint] = []) async throws -> WorkoutOutcome {
        let duration = Int(workout.end.timeIntervalSince(workout.start).rounded())
        guard duration > 0, duration <= 48 * 3600 else { return .skipped }
        let first = CalendarDay(workout.start, utcOffsetSeconds: workout.utcOffsetSeconds).adding(days: -1)
        let last = CalendarDay(workout.end, utcOffsetSeconds: workout.utcOffsetSeconds).adding(days: 1)
        let samples = HealthSourcePriority().resolve(
            try await store.health.samples(userID: user.id, kind: .heartRate, from: first, through: last)
                .filter { $0.start >= workout.start && $0.start < workout.end })
        // One value a second: the latest reading, for at most 10 s after it.
        var heartRate = [Int?](repeating: nil, count: duration)
        var index = 0
        for second in 0..<duration {
            let time = workout.start.addingTimeInterval(Double(second))
            while index + 1 < samples.count, samples[index + 1].start <= time { index += 1 }
            guard index < samples.count else { break }
            let sample = samples[index]
            if sample.start <= time, time.timeIntervalSince(sample.start) <= 10, sample.value.isFinite {
                heartRate[second] = Int(sample.value.rounded())
            }
        }
        let new = NewWorkout(sport: workout.sport, startTime: workout.start, heartRate: heartRate, track: track, distanceMeters: workout.distanceMeters,
                             kilocalories: workout.kilocalories, device: workout.device ?? workout.source)
        do {
            _ = try await workouts.record(new, for: user, recomputeDays: false)
            return .added
        } catch let error as AppError where error.kind == .conflict {
            return .duplicate
        } catch let error as AppError where error.kind == .invalid {
            // A route that does not fit (times past the end, a jump) must not cost the workout.
            if !track.isEmpty { return try await importWorkout(workout, for: user, track: []) }
            logger.info("an imported workout was not stored", metadata: ["reason": "\(error.detail)"])
            return .skipped
        }
    }

    // MARK: Days

    /// Queues the recomputation of a user's days from `from` on (later days depend on earlier
    /// ones: the 6-month maximum, the baselines, the load).
    public func queueRecompute(userID: String, from: CalendarDay, now: Date = Date()) async throws {
        try await Self.queueRecompute(in: store, userID: userID, from: from, now: now)
    }

    /// The same, for services that hold only the store (`WorkoutService`).
    static func queueRecompute(in store: HeartworkStore, userID: String, from: CalendarDay, now: Date) async throws {
        _ = try await store.jobs.enqueueUnlessQueued(JobRecord(
            kind: recomputeJob, userID: userID, payload: #"{"userID":"\#(userID)","from":"\#(from)"}"#, runAfter: now, createdAt: now))
    }

    func runRecompute(_ job: JobRecord) async throws {
        guard let userID = Self.payloadString(job.payload, "userID"), let from = Self.payloadString(job.payload, "from").flatMap(CalendarDay.init(iso:)),
              let user = try await store.users.find(id: userID) else { return }
        guard let range = try await store.daily.dataRange(userID: user.id) else { return }
        _ = try await recompute(user, from: max(from, range.first), through: max(range.last, from))
    }

    /// Works out and stores the days `from...through` (oldest first, each on the ones before);
    /// returns how many.
    @discardableResult
    public func recompute(_ user: UserRecord, from: CalendarDay, through: CalendarDay, now: Date = Date()) async throws -> Int {
        guard from <= through else { return 0 }
        var history = try await store.daily.days(userID: user.id, from: from.adding(days: -DailyCalculator.maximumWindowDays), through: from.adding(days: -1))
        let marks = Dictionary(try await store.daily.marks(userID: user.id, from: from, through: through).map { ($0.day, $0) }) { a, _ in a }
        let profile = try await workouts.snapshot(for: user, at: through.start())
        let settings = try await store.daily.settings(userID: user.id)
        let priority = HealthSourcePriority(order: settings.sourceOrder)
        var recent = [(day: CalendarDay, offset: Int)]()
        var count = 0
        var windowStart = from
        while windowStart <= through {
            let windowEnd = min(through, windowStart.adding(days: 30))
            // One read per kind for the window (and the night before its first day).
            var byKind = [HealthSample.Kind: [CalendarDay: [HealthSample]]]()
            for kind in [HealthSample.Kind.heartRate, .restingHeartRate, .heartRateVariabilitySDNN, .steps, .sleep] {
                let samples = try await store.health.samples(userID: user.id, kind: kind, from: windowStart.adding(days: -1), through: windowEnd)
                byKind[kind] = Dictionary(grouping: samples, by: \.day)
            }
            let workoutRecords = try await workouts.all(for: user, from: windowStart.start(utcOffsetSeconds: 14 * 3600),
                                                        to: windowEnd.adding(days: 1).start(utcOffsetSeconds: -14 * 3600))
            var day = windowStart
            while day <= windowEnd {
                let heart = priority.resolve(byKind[.heartRate]?[day] ?? [])
                let offset = Self.offset(of: heart, day: day, user: user)
                let night = DailyCalculator.nightWindow(day, utcOffsetSeconds: offset)
                let sleep = priority.resolve(((byKind[.sleep]?[day.adding(days: -1)] ?? []) + (byKind[.sleep]?[day] ?? [])).filter { night.contains($0.end) })
                let start = day.start(utcOffsetSeconds: offset), end = start.addingTimeInterval(86_400)
                let dayWorkouts = workoutRecords.compactMap { record -> (id: String, name: String, start: Date, end: Date)? in
                    let finish = record.startedAt.addingTimeInterval(Double(record.metrics.durationSeconds))
                    guard finish > start, record.startedAt < end else { return nil }
                    return (record.id, record.sport.rawValue, record.startedAt, finish)
                }
                let mark = marks[day]
                let summary = DailyCalculator.summary(DailyInput(
                    day: day, utcOffsetSeconds: offset, heartRate: heart,
                    restingHeartRate: priority.resolve(byKind[.restingHeartRate]?[day] ?? []),
                    hrv: priority.resolve(byKind[.heartRateVariabilitySDNN]?[day] ?? []),
                    steps: priority.resolve(byKind[.steps]?[day] ?? []), sleep: sleep, workouts: dayWorkouts,
                    history: history, sleepQuality: mark?.sleepQuality, mark: mark?.mark.flatMap(Readiness.Status.init(rawValue:)),
                    profileMaximumHeartRate: profile.maximumHeartRate, profileRestingHeartRate: profile.restingHeartRate, sex: user.sex))
                try await store.daily.putDay(userID: user.id, summary, now: now)
                // Alerts are for what is happening now: the last two days, not an imported past.
                if summary.heartRate != nil, day >= CalendarDay(now, utcOffsetSeconds: offset).adding(days: -1) { recent.append((day, offset)) }
                history.append(summary)
                if history.count > DailyCalculator.maximumWindowDays + 1 { history.removeFirst(history.count - DailyCalculator.maximumWindowDays - 1) }
                count += 1
                day = day.adding(days: 1)
            }
            windowStart = windowEnd.adding(days: 1)
        }
        for (day, offset) in recent {
            try await checkAnomalies(user, day: day, offset: offset, settings: settings, now: now)
        }
        return count
    }

    /// The UTC offset a day is cut at: where most of its heart-rate samples were taken, else
    /// the profile's time zone, else UTC.
    static func offset(of samples: [HealthSample], day: CalendarDay, user: UserRecord) -> Int {
        if !samples.isEmpty {
            var counts = [Int: Int]()
            for sample in samples { counts[sample.utcOffsetSeconds, default: 0] += 1 }
            return counts.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? 0
        }
        return TimeZones.zone(user.timeZone).secondsFromGMT(for: day.start().addingTimeInterval(12 * 3600))
    }

    /// A day never worked out: "no data", with the user's mark and rating if any.
    static func emptyDay(_ day: CalendarDay, mark: DayMarkRecord?, user: UserRecord) -> DailySummary {
        DailyCalculator.summary(DailyInput(
            day: day, utcOffsetSeconds: offset(of: [], day: day, user: user), sleepQuality: mark?.sleepQuality,
            mark: mark?.mark.flatMap(Readiness.Status.init(rawValue:))))
    }

    /// A day as stored; a day never computed answers "no data" (with the user's marks).
    public func day(_ day: CalendarDay, for user: UserRecord) async throws -> DailySummary {
        if let stored = try await store.daily.day(userID: user.id, day) { return stored }
        return Self.emptyDay(day, mark: try await store.daily.marks(userID: user.id, from: day, through: day).first, user: user)
    }

    /// Every day of `from...through` (at most `maximumRangeDays`), stored or "no data".
    public func days(from: CalendarDay, through: CalendarDay, for user: UserRecord) async throws -> [DailySummary] {
        guard from <= through else { throw AppError.invalid("from must not be after to", field: "from") }
        guard through.daysSinceEpoch - from.daysSinceEpoch < Self.maximumRangeDays else {
            throw AppError.invalid("a range is at most \(Self.maximumRangeDays) days", field: "to")
        }
        let stored = Dictionary(try await store.daily.days(userID: user.id, from: from, through: through).map { ($0.date, $0) }) { a, _ in a }
        let marks = Dictionary(try await store.daily.marks(userID: user.id, from: from, through: through).map { ($0.day, $0) }) { a, _ in a }
        var days = [DailySummary]()
        var day = from
        while day <= through {
            days.append(stored[day.description] ?? Self.emptyDay(day, mark: marks[day], user: user))
            day = day.adding(days: 1)
        }
        return days
    }

    /// The user's sleep rating for the night before `day` (1–10), editable until the day is
    /// over where the user is. The day is worked out again at once.
    public func setSleepQuality(_ quality: Int, day: CalendarDay, for user: UserRecord, now: Date = Date()) async throws -> DailySummary {
        guard (1...10).contains(quality) else { throw AppError.invalid("quality is a whole number from 1 to 10", field: "quality") }
        let stored = try await store.daily.day(userID: user.id, day)
        let offset = stored?.utcOffsetSeconds ?? Self.offset(of: [], day: day, user: user)
        guard now < day.adding(days: 1).start(utcOffsetSeconds: offset) else {
            throw AppError.conflict("\(day) is over: its sleep quality can no longer be changed", field: "quality")
        }
        guard now >= day.start(utcOffsetSeconds: offset).addingTimeInterval(-6 * 3600) else {
            throw AppError.invalid("\(day) has not begun: rate a night once it is over", field: "quality")
        }
        let existing = try await store.daily.marks(userID: user.id, from: day, through: day).first
        try await store.daily.putMark(userID: user.id, DayMarkRecord(day: day, sleepQuality: quality, mark: existing?.mark, updatedAt: now))
        try await recompute(user, from: day, through: day, now: now)
        return try await self.day(day, for: user)
    }

    /// Marks a day sick or traveling (or normal again, with nil): the day is left out of the
    /// baselines. The day is worked out again at once, the days after it in the background.
    public func setMark(_ mark: Readiness.Status?, day: CalendarDay, for user: UserRecord, now: Date = Date()) async throws -> DailySummary {
        if let mark, mark != .sick, mark != .traveling { throw AppError.invalid("mark is sick, traveling or null", field: "mark") }
        let existing = try await store.daily.marks(userID: user.id, from: day, through: day).first
        try await store.daily.putMark(userID: user.id, DayMarkRecord(day: day, sleepQuality: existing?.sleepQuality, mark: mark?.rawValue, updatedAt: now))
        try await recompute(user, from: day, through: day, now: now)
        try await queueRecompute(userID: user.id, from: day.adding(days: 1), now: now)
        return try await self.day(day, for: user)
    }

    // MARK: Jobs

    /// The handlers of this service's job kinds, for the job runner.
    public var jobHandlers: [String: @Sendable (JobRecord) async throws -> Void] {
        [Self.importJob: { try await runImport($0) }, Self.recomputeJob: { try await runRecompute($0) }]
    }

    static func payloadString(_ payload: String, _ key: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] else { return nil }
        return object[key] as? String
    }
}
