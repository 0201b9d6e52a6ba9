import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import Logging

/// Daily health (issue 11; docs/DAILY-HEALTH.md): Apple Health imports, the per-day metrics
/// worked out in the background and read from the store, and what the user says about a day.
public struct DailyHealthService: Sendable {
    /// The longest range `GET /api/days` answers at once.
    public static let maximumRangeDays = 366

    let store: HeartworkStore
    let workouts: WorkoutService
    /// The recomputation queue, shared with the workouts it is given.
    var recomputation: any DayRecomputation { workouts.days }
    /// Where alerts go (nil in tools that only compute days).
    let inbox: InboxService?
    /// Where uploads wait for their import job (shared by instances sharing a database).
    public let importDirectory: String
    let logger: Logger
    /// The sessions' cache, told when an import fills the profile (nil in tools).
    var sessionCache: SessionCache?

    public init(store: HeartworkStore, workouts: WorkoutService, inbox: InboxService? = nil, importDirectory: String, logger: Logger) {
        self.store = store
        self.workouts = workouts
        self.inbox = inbox
        self.importDirectory = importDirectory
        self.logger = logger
    }

    // MARK: Imports

    /// The two shapes of an Apple Health export the import takes.
    public enum ExportFormat: String, Sendable {
        /// The Health app's `export.zip`.
        case zip
        /// Its `export.xml`.
        case xml
        /// Gadgetbridge's database (an SQLite file; `DailyHealthService+Gadgetbridge`).
        case gadgetbridge
    }

    /// The import job's parameters.
    struct ImportJob: JobParameters {
        static let jobName = "health-import"
        var importID: String
        /// The spooled upload's file name in the import directory.
        var file: String
    }

    /// The recomputation job's parameters.
    struct RecomputeJob: JobParameters {
        static let jobName = "recompute-days"
        var userID: String
        var from: String
    }

    /// At most this many imports of one user are receiving, waiting or running at once (each
    /// may hold gigabytes on disk).
    public static let maximumOpenImports = 2
    /// The largest upload taken (a large Apple Health export.zip is 0.1–1 GB, its export.xml 1–5 GB).
    public static let maximumUploadBytes: Int64 = 8 << 30
    /// How long an import may run before it is stopped (a 1 GB export takes about 25 s here).
    public static let importTimeLimit: Duration = .seconds(30 * 60)

    /// Imports an uploaded export: one call from the first byte to the queued job.
    ///
    /// The upload takes one of the user's open-import places first (counted and taken in one
    /// transaction, so concurrent uploads cannot all pass), then streams to a file in the
    /// import directory. Its first bytes must be what `format` says (a zip's local header, an
    /// XML document's "<"), so a body that is not fails at once, not in the worker; a zip's
    /// directory must name an export.xml. The import row and its job are then written in one
    /// transaction. Whatever fails, the place and the file are given back.
    public func importExport<Body: AsyncSequence>(
        _ body: Body, format: ExportFormat, for user: UserRecord, now: Date = Date()
    ) async throws
        -> HealthImportRecord where Body.Element: Collection<UInt8>
    {
        let path = URL(fileURLWithPath: importDirectory).appendingPathComponent("upload-\(UUID().uuidString.lowercased())").path
        var record = HealthImportRecord(userID: user.id, format: format.rawValue, filePath: path, bytesTotal: 0, createdAt: now)
        record.state = .receiving
        do {
            switch try await store.daily.admitImport(record, maximumOpen: Self.maximumOpenImports) {
            case .admitted: break
            case .refused(let open):
                throw AppError(.throttled, "\(open) of your imports are still arriving, waiting or running; send the next when one has finished", retryAfterSeconds: 60)
            }
        } catch StoreError.notFound {
            throw AppError.notSignedIn
        }
        var spool: Spool?
        do {
            let file = try openSpool(path: path)
            spool = file
            var lastProgress = ContinuousClock.now
            for try await chunk in body {
                try file.write(chunk)
                if !file.checkedStart, file.bytes >= 8 {
                    try Self.checkStart(file.head, format: format)
                    file.checkedStart = true
                }
                // Progress, and a sign of life for the sweep of uploads whose sender died.
                if ContinuousClock.now - lastProgress > .seconds(10) {
                    lastProgress = ContinuousClock.now
                    record.bytesDone = file.bytes
                    record.updatedAt = Date()
                    guard try await store.daily.updateImport(record) else { throw AppError.notSignedIn }
                }
            }
            guard file.bytes > 0 else {
                throw AppError.invalid("the upload is empty: send export.zip or export.xml as the request body", field: nil)
            }
            if !file.checkedStart { try Self.checkStart(file.head, format: format) }
            // The file's last bytes to disk, and a zip's directory read (its end record is in the
            // last 64 KiB): a zip without an export.xml, or not a zip at all, is refused here
            // rather than in the worker. Both block, so on a thread of their own.
            try await Blocking.run { () throws in
                try file.close()
                guard format == .zip else { return }
                let archive: ZipArchive
                do {
                    archive = try ZipArchive(path: path, limits: HealthExportSource.zipLimits)
                } catch {
                    throw AppError.invalid("\(error); upload export.zip as the Health app writes it, or its export.xml", field: nil)
                }
                guard archive.entry(named: "export.xml") != nil else {
                    throw AppError.invalid("the archive has no export.xml (is it the Health app's export.zip?)", field: nil)
                }
            }
            if format == .gadgetbridge { try await checkGadgetbridge(path: path) }
            let job = Jobs.record(ImportJob(importID: record.id, file: URL(fileURLWithPath: path).lastPathComponent), userID: user.id, attempts: 3, runAfter: now, now: now)
            guard try await store.daily.queueImport(id: record.id, bytesTotal: file.bytes, job: job, now: Date()) else { throw AppError.notSignedIn }
            record.state = .queued
            record.bytesTotal = file.bytes
            return record
        } catch {
            spool?.discard()
            try? await store.daily.deleteImport(id: record.id)
            throw error
        }
    }

    /// Refuses a body whose first bytes are not what its media type says.
    static func checkStart(_ head: [UInt8], format: ExportFormat) throws {
        switch format {
        case .gadgetbridge:
            guard head.prefix(16).elementsEqual(GadgetbridgeSchema.sqliteHeader.prefix(head.count)) else {
                throw AppError.invalid("the body is not an SQLite database (it does not begin with \"SQLite format 3\"): upload the file Gadgetbridge exports", field: nil)
            }
        case .zip:
            guard ZipArchive.looksLikeZip(head) else {
                throw AppError.invalid("the body is not a zip archive (it does not begin like one): send export.zip as the Health app writes it", field: nil)
            }
        case .xml:
            var rest = head[...]
            if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
            rest = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            guard rest.isEmpty || rest.first == UInt8(ascii: "<") else {
                throw AppError.invalid("the body is not an XML document (it does not begin with \"<\"): send export.xml as the Health app writes it", field: nil)
            }
        }
    }

    /// An upload being written to the import directory (POSIX writes: chunks are written where
    /// they lie, never copied).
    final class Spool: @unchecked Sendable {
        let path: String
        private var descriptor: Int32
        private(set) var bytes: Int64 = 0
        /// The first bytes, for the format check.
        private(set) var head: [UInt8] = []
        var checkedStart = false

        init(path: String, descriptor: Int32) {
            self.path = path
            self.descriptor = descriptor
        }

        func write(_ chunk: some Collection<UInt8>) throws {
            bytes += Int64(chunk.count)
            guard bytes <= DailyHealthService.maximumUploadBytes else {
                throw AppError.invalid("the export is larger than this server takes (\(DailyHealthService.maximumUploadBytes >> 30) GB)", field: nil)
            }
            if head.count < 64 { head += chunk.prefix(64 - head.count) }
            let written: Bool? = chunk.withContiguousStorageIfAvailable { buffer in Self.writeAll(descriptor, buffer) }
            let ok = written ?? Array(chunk).withUnsafeBufferPointer { Self.writeAll(descriptor, $0) }
            guard ok else { throw AppError(.unavailable, "the server cannot store the upload (its disk refused: \(String(cString: strerror(errno))))") }
        }

        private static func writeAll(_ descriptor: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
            var done = 0
            while done < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }

        func close() throws {
            guard descriptor >= 0 else { return }
            let result = fsync(descriptor)
            Foundation.close(descriptor)
            descriptor = -1
            guard result == 0 else { throw AppError(.unavailable, "the server cannot store the upload (its disk refused the last bytes)") }
        }

        func discard() {
            if descriptor >= 0 {
                Foundation.close(descriptor)
                descriptor = -1
            }
            unlink(path)
        }
    }

    /// Opens a new file for an upload (readable by the server's user only).
    func openSpool(path: String) throws -> Spool {
        let manager = FileManager.default
        if !manager.fileExists(atPath: importDirectory) {
            try manager.createDirectory(atPath: importDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw AppError(.unavailable, "the server cannot store the upload (its import directory is not writable)")
        }
        return Spool(path: path, descriptor: descriptor)
    }

    /// Removes what no import needs any more: uploads whose sender stopped sending 10
    /// minutes ago (failed), and files of the import directory that no receiving, queued or
    /// running import names — a deleted account's, a crashed process's. Run at start and
    /// every hour; returns how many files it removed.
    @discardableResult
    public func sweepUploads(now: Date = Date()) async throws -> Int {
        var removed = 0
        for file in try await store.daily.failStaleUploads(updatedBefore: now.addingTimeInterval(-600), now: now) where unlink(file) == 0 {
            removed += 1
        }
        // The files first, then the rows: a file exists only after its row does.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: importDirectory) else { return removed }
        let files = names.filter { $0.hasPrefix("upload-") }.map { URL(fileURLWithPath: importDirectory).appendingPathComponent($0).path }
        guard !files.isEmpty else { return removed }
        let open = try await store.daily.openImportFiles()
        for file in files where !open.contains(file) && unlink(file) == 0 {
            removed += 1
        }
        return removed
    }

    /// Removes uploads from disk (an import whose account is gone).
    func removeUploads(_ files: [String]) {
        Self.removeUploads(files)
    }

    /// Removes uploads from disk: only spooled uploads (`upload-…` files), whatever a row says.
    static func removeUploads(_ files: [String]) {
        for file in files where URL(fileURLWithPath: file).lastPathComponent.hasPrefix("upload-") { unlink(file) }
    }

    /// An Apple Health or Gadgetbridge import (a Strong or Hevy import is `StrengthImportService`'s).
    public func importStatus(_ id: String, for user: UserRecord) async throws -> HealthImportRecord {
        guard let record = try await store.daily.findImport(id: id, userID: user.id), record.format != StrengthImportService.format else {
            throw AppError.notFound("import")
        }
        return record
    }

    public func imports(for user: UserRecord) async throws -> [HealthImportRecord] {
        try await store.daily.imports(userID: user.id, limit: 40).filter { $0.format != StrengthImportService.format }.prefix(20).map { $0 }
    }

    /// The import job: reads the spooled export in batches, stores every sample (exact
    /// repeats once), turns its workouts into Heartwork workouts with the heart rate of their
    /// time, and queues the recomputation of the days it touched. A fault in the export ends
    /// the import as failed with the fault's line or entry; everything before it stays stored.
    /// Running it again (after a crash) reads the file again and adds only what is missing;
    /// its counts go on from where the first run left them. An import past its time limit
    /// stops, keeps what it read, and says so.
    func runImport(_ job: ImportJob, context: JobContext) async throws {
        guard var record = try await store.daily.findImport(id: job.importID) else {
            // The account was deleted while its import waited: its upload goes too.
            if !job.file.contains("/"), job.file.hasPrefix("upload-") {
                unlink(URL(fileURLWithPath: importDirectory).appendingPathComponent(job.file).path)
            }
            return
        }
        guard record.state == .queued || record.state == .running else { return }
        guard let user = try await store.users.find(id: record.userID) else { return }
        let resumed = record.state == .running
        record.state = .running
        record.updatedAt = Date()
        guard try await store.daily.updateImport(record) else { return removeUploads([record.filePath]) }
        if record.format == ExportFormat.gadgetbridge.rawValue {
            return try await runGadgetbridgeImport(record, user: user, resumed: resumed, context: context)
        }
        // A run that takes over from a crashed one: what it had counted stays counted.
        let previous = (samplesAdded: record.samplesAdded, workoutsAdded: record.workoutsAdded)

        let source = HealthExportSource(path: record.filePath, format: record.format)
        source.start()
        var earliest: CalendarDay?
        var latest: CalendarDay?
        var healthWorkouts = [HealthWorkout]()
        var failure: String?
        var read: Int64 = 0
        var added: Int64 = 0
        // The owner and the body samples, for the profile and its histories (a few per day).
        var owner: HealthOwner?
        var body = [HealthSample]()
        do {
            defer { source.stop() }
            for try await batch in source.batches {
                await context.checkpoint()
                if context.isExpired {
                    failure = "the import took longer than \(JobRunner.describe(Self.importTimeLimit)) and was stopped; what was read before is kept"
                    break
                }
                let result = try await store.health.add(userID: user.id, batch.samples, now: Date())
                source.taken()
                read += Int64(batch.samples.count)
                added += Int64(result.added)
                // The days read (not only those that changed: a resumed run changes none).
                for sample in batch.samples {
                    earliest = min(earliest ?? sample.day, sample.day)
                    latest = max(latest ?? sample.day, sample.day)
                }
                healthWorkouts += batch.workouts
                owner = batch.owner ?? owner
                body += batch.samples.filter { $0.kind == .bodyMass || $0.kind == .height }
                record.recordsSkipped = batch.recordsSkipped
                record.bytesDone = batch.bytesDone
                if batch.bytesTotal > 0 { record.bytesTotal = batch.bytesTotal }
                record.samplesRead = read
                record.samplesAdded = (resumed ? previous.samplesAdded : 0) + added
                if let earliest { record.firstDay = min(record.firstDay ?? earliest, earliest) }
                if let latest { record.lastDay = max(record.lastDay ?? latest, latest) }
                record.updatedAt = Date()
                guard try await store.daily.updateImport(record) else { return removeUploads([record.filePath]) }
            }
        } catch let error as HealthExportSource.Failure {
            failure = error.description
        } catch {
            // The account went while it ran (its rows are gone): so does its upload.
            if try await store.daily.findImport(id: record.id) == nil { return removeUploads([record.filePath]) }
            throw error
        }
        // The profile's empty fields and the weight and height histories, before the workouts
        // (their snapshots take the age, sex and weight). A run that takes over keeps what its
        // predecessor counted as added.
        let previousBody = record.body
        record.body = try await applyBody(owner: owner, samples: body, for: user, importedFrom: "Apple Health", now: Date())
        if resumed {
            let carried = previousBody.weightsAdded + previousBody.heightsAdded
            record.body.alreadyStored = max(0, record.body.alreadyStored - carried)
            record.body.weightsAdded += previousBody.weightsAdded
            record.body.heightsAdded += previousBody.heightsAdded
            for field in previousBody.profileFilled where !record.body.profileFilled.contains(field) { record.body.profileFilled.append(field) }
        }
        record.updatedAt = Date()
        guard try await store.daily.updateImport(record) else { return removeUploads([record.filePath]) }
        // Workouts, with the heart rate of their time and, from a zip, their route. Each one
        // added is counted in the row at once, so a resumed run knows which of the duplicates
        // it meets were its predecessor's own.
        var duplicates = 0
        record.workoutsAdded = resumed ? previous.workoutsAdded : 0
        record.workoutsSkipped = [:]
        let routes = record.format == "zip" && failure == nil ? HealthExportRoutes(path: record.filePath) : nil
        for workout in healthWorkouts {
            switch try await importWorkout(workout, for: user, track: routes?.track(workout.routePath, start: workout.start) ?? []) {
            case .added:
                record.workoutsAdded += 1
                record.updatedAt = Date()
                guard try await store.daily.updateImport(record) else { return removeUploads([record.filePath]) }
            case .duplicate: duplicates += 1
            case .skipped(let why): record.workoutsSkipped[why, default: 0] += 1
            }
            let day = CalendarDay(workout.start, utcOffsetSeconds: workout.utcOffsetSeconds)
            earliest = min(earliest ?? day, day)
            record.firstDay = min(record.firstDay ?? day, day)
            record.lastDay = max(record.lastDay ?? day, day)
        }
        record.workoutsDuplicate = max(0, duplicates - (resumed ? previous.workoutsAdded : 0))
        if let earliest {
            try await queueRecompute(userID: user.id, from: earliest)
        }
        record.state = failure == nil ? .done : .failed
        record.error = failure
        record.finishedAt = Date()
        record.updatedAt = Date()
        try await store.daily.updateImport(record)
        unlink(record.filePath)
    }

    enum WorkoutOutcome: Equatable {
        /// Stored, with the new workout's id.
        case added(String)
        case duplicate
        case skipped(String)
    }

    /// Stores a watch workout as a Heartwork workout (not queueing a recomputation: the
    /// caller queues one for everything it brought), for the Apple Health import and the
    /// phone syncs.
    ///
    /// - Parameters:
    ///   - track: its route, seconds from its start; a route that does not fit is dropped, not the workout.
    ///   - heartRate: the workout's own heart rate (seconds from its start), used instead of the
    ///     stored heart-rate samples of its time when given (a sync whose workouts carry it).
    /// - Returns: added, a duplicate (same start and device), or skipped with the reason. A
    ///   workout with no heart rate at all is added without one (time, sport, energy,
    ///   distance, route, device).
    func importWorkout(
        _ workout: HealthWorkout, for user: UserRecord, track: [NewWorkout.TrackPoint] = [], heartRate given: [TimedHeartRate]? = nil,
        indoor: Bool = false
    ) async throws -> WorkoutOutcome {
        let duration = Int(workout.end.timeIntervalSince(workout.start).rounded())
        guard duration > 0 else { return .skipped("it has no length (it ends when it starts)") }
        guard duration <= 24 * 3600 else { return .skipped("it is longer than 24 hours") }
        let readings: [(start: Date, value: Double)]
        if let given {
            readings = given.filter { $0.timeSeconds.isFinite && $0.timeSeconds >= 0 && $0.timeSeconds < Double(duration) }
                .sorted { $0.timeSeconds < $1.timeSeconds }
                .map { (workout.start.addingTimeInterval($0.timeSeconds), $0.beatsPerMinute) }
        } else {
            let first = CalendarDay(workout.start, utcOffsetSeconds: workout.utcOffsetSeconds).adding(days: -1)
            let last = CalendarDay(workout.end, utcOffsetSeconds: workout.utcOffsetSeconds).adding(days: 1)
            readings = HealthSourcePriority().resolve(
                try await store.health.samples(userID: user.id, kind: .heartRate, from: first, through: last)
                    .filter { $0.start >= workout.start && $0.start < workout.end }
            ).map { ($0.start, $0.value) }
        }
        // One value a second: the latest reading, for at most 10 s after it (a watch's samples
        // during a workout come every few seconds) — or, for a sync's own per-minute entries,
        // until the next one, at most 120 s; none at all is a workout without heart rate.
        let hold: TimeInterval = given == nil ? 10 : 120
        var heartRate = [Int?](repeating: nil, count: duration)
        var index = 0
        for second in 0..<duration {
            let time = workout.start.addingTimeInterval(Double(second))
            while index + 1 < readings.count, readings[index + 1].start <= time { index += 1 }
            guard index < readings.count else { break }
            let reading = readings[index]
            if reading.start <= time, time.timeIntervalSince(reading.start) <= hold, reading.value.isFinite, (1...250).contains(reading.value.rounded()) {
                heartRate[second] = Int(reading.value.rounded())
            }
        }
        let new = NewWorkout(
            sport: workout.sport, startTime: workout.start, indoor: indoor, heartRate: heartRate, track: track, distanceMeters: workout.distanceMeters,
            kilocalories: workout.kilocalories, device: workout.device ?? (workout.source.isEmpty ? nil : workout.source))
        do {
            let (record, _, _) = try await workouts.insert(new, for: user)
            return .added(record.id)
        } catch let error as AppError where error.kind == .conflict {
            return .duplicate
        } catch let error as AppError where error.kind == .invalid {
            // A route that does not fit (times past the end, a jump) must not cost the workout.
            if !track.isEmpty { return try await importWorkout(workout, for: user, track: [], heartRate: given, indoor: indoor) }
            logger.info("an imported workout was not stored", metadata: ["reason": "\(error.detail)"])
            return .skipped(error.detail)
        }
    }

    // MARK: Days

    /// Queues the recomputation of a user's days from `from` on (later days depend on earlier
    /// ones: the 6-month maximum, the baselines, the load).
    public func queueRecompute(userID: String, from: CalendarDay, now: Date = Date()) async throws {
        try await recomputation.queueRecompute(userID: userID, from: from, now: now)
    }

    /// Queues the days stored by older formulas (`DailyCalculator.formulaVersion`) to be
    /// worked out again, for every user who has them; returns how many users. Run at start:
    /// after an upgrade that changes a formula nobody sees yesterday's numbers by the old one.
    @discardableResult
    public func recomputeOutdated(now: Date = Date()) async throws -> Int {
        let outdated = try await store.daily.outdatedDays(formula: DailyCalculator.formulaVersion)
        for (userID, from) in outdated { try await queueRecompute(userID: userID, from: from, now: now) }
        return outdated.count
    }

    func runRecompute(_ job: RecomputeJob, context: JobContext) async throws {
        guard let from = CalendarDay(iso: job.from), let user = try await store.users.find(id: job.userID) else { return }
        guard let range = try await store.daily.dataRange(userID: user.id) else { return }
        _ = try await recompute(user, from: max(from, range.first), through: max(range.last, from), context: context)
    }

    /// Works out and stores the days `from...through` (oldest first, each on the ones before);
    /// returns how many.
    @discardableResult
    public func recompute(_ user: UserRecord, from: CalendarDay, through: CalendarDay, now: Date = Date(), context: JobContext? = nil) async throws -> Int {
        guard from <= through else { return 0 }
        var history = try await store.daily.days(userID: user.id, from: from.adding(days: -DailyCalculator.maximumWindowDays), through: from.adding(days: -1))
        let marks = Dictionary(try await store.daily.marks(userID: user.id, from: from, through: through).map { ($0.day, $0) }) { a, _ in a }
        let manualNights = try await store.daily.manualSleep(userID: user.id, from: from, through: through)
        let profile = try await workouts.snapshot(for: user, at: through.start())
        let settings = try await store.daily.settings(userID: user.id)
        let priority = HealthSourcePriority(order: settings.sourceOrder)
        var recent = [(day: CalendarDay, offset: Int)]()
        var count = 0
        var windowStart = from
        while windowStart <= through {
            // A month of days at a time, then other users' work gets its turn (issue 40: three
            // recomputations from 2000 held a fourth user's one day for 30 s).
            await context?.checkpoint()
            if let context, context.isExpired {
                throw JobExpired("stopped: working out the days from \(from) took longer than \(JobRunner.describe(context.timeLimit)); they stay as they were from \(windowStart)")
            }
            let windowEnd = min(through, windowStart.adding(days: 30))
            // One read per kind for the window (and the night before its first day).
            var byKind = [HealthSample.Kind: [CalendarDay: [HealthSample]]]()
            for kind in [HealthSample.Kind.heartRate, .restingHeartRate, .heartRateVariabilitySDNN, .steps, .sleep] {
                let samples = try await store.health.samples(userID: user.id, kind: kind, from: windowStart.adding(days: -1), through: windowEnd)
                byKind[kind] = Dictionary(grouping: samples, by: \.day)
            }
            let workoutRecords = try await workouts.all(
                for: user, from: windowStart.start(utcOffsetSeconds: 14 * 3600),
                to: windowEnd.adding(days: 1).start(utcOffsetSeconds: -14 * 3600))
            var day = windowStart
            while day <= windowEnd {
                let heart = priority.resolve(byKind[.heartRate]?[day] ?? [])
                let offset = Self.offset(of: heart, day: day, user: user)
                let night = DailyCalculator.nightWindow(day, utcOffsetSeconds: offset)
                let sleep = priority.resolveSleep(((byKind[.sleep]?[day.adding(days: -1)] ?? []) + (byKind[.sleep]?[day] ?? [])).filter { night.contains($0.end) })
                let start = day.start(utcOffsetSeconds: offset)
                let end = start.addingTimeInterval(86_400)
                let dayWorkouts = workoutRecords.compactMap { record -> (id: String, name: String, start: Date, end: Date)? in
                    let finish = record.startedAt.addingTimeInterval(Double(record.metrics.durationSeconds))
                    guard finish > start, record.startedAt < end else { return nil }
                    return (record.id, record.sport.rawValue, record.startedAt, finish)
                }
                let mark = marks[day]
                let summary = DailyCalculator.summary(
                    DailyInput(
                        day: day, utcOffsetSeconds: offset, heartRate: heart,
                        restingHeartRate: priority.resolve(byKind[.restingHeartRate]?[day] ?? []),
                        hrv: priority.resolve(byKind[.heartRateVariabilitySDNN]?[day] ?? []),
                        steps: priority.resolve(byKind[.steps]?[day] ?? []), sleep: sleep, workouts: dayWorkouts,
                        history: history, sleepQuality: mark?.sleepQuality, mark: mark?.mark.flatMap(Readiness.Status.init(rawValue:)),
                        profileMaximumHeartRate: profile.maximumHeartRate, profileRestingHeartRate: profile.restingHeartRate, sex: user.sex,
                        manualSleep: manualNights[day]))
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
        DailyCalculator.summary(
            DailyInput(
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
        _ = try await editableNight(day, for: user, now: now, what: "sleep quality", field: "quality")
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

    /// The kinds of job this service runs, for the job runner.
    public var jobDefinitions: [JobDefinition] {
        [
            JobDefinition(ImportJob.self, retry: RetryStrategy(attempts: 3), timeLimit: Self.importTimeLimit) { job, context in
                try await runImport(job, context: context)
            },
            JobDefinition(RecomputeJob.self, retry: RetryStrategy(attempts: 5), timeLimit: .seconds(600)) { job, context in
                try await runRecompute(job, context: context)
            },
        ]
    }
}
