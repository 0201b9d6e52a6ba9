import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// Strong and Hevy imports as jobs (issue 40: a 200,000-row export held its request for 105 s
/// of CPU, and one line of 20 million commas took the server to 720 MiB). The upload takes one
/// of the user's open-import places (the same two as Apple Health and Gadgetbridge imports),
/// streams to a file in the import directory — its header is checked as it arrives, so a file
/// that is not an export is refused at once — and is queued as a `strength-import` job on the
/// one queue, where it takes turns with everyone's work. The job reads the file 64 KiB at a
/// time (`LiftingLogReader`: rows bounded, memory within a budget), stores each workout in its
/// own transaction (the same workout twice is recognised) and keeps its summary and progress
/// in the import row, so a run after kill -9 goes on from where the last stopped. A caller that
/// can wait gets the summary within `inlineWait` when the import is done by then.
public struct StrengthImportService: Sendable {
    public static let format = "strength-csv"
    /// How long a request waits for its import to finish before it answers 202 (a usual export
    /// of a few thousand rows takes well under a second).
    public static let inlineWait: Duration = .seconds(10)

    struct Job: JobParameters {
        static let jobName = "strength-import"
        var importID: String
        var file: String
    }

    /// What the upload came to: the import's summary (done within the wait), or the import
    /// still queued or running.
    public enum Outcome: Sendable {
        case done(StrengthService.ImportSummary, HealthImportRecord)
        case accepted(HealthImportRecord)
    }

    /// An import as its status shows it.
    public struct Status: Sendable {
        public let record: HealthImportRecord
        public let summary: StrengthService.ImportSummary?

        public init(record: HealthImportRecord, summary: StrengthService.ImportSummary?) {
            self.record = record
            self.summary = summary
        }
    }

    let strength: StrengthService
    let daily: DailyHealthService
    var store: HeartworkStore { strength.store }
    /// Whether a job runner works in this process (the request waits for small imports then).
    let processing: @Sendable () -> Bool

    init(strength: StrengthService, daily: DailyHealthService, processing: @escaping @Sendable () -> Bool) {
        self.strength = strength
        self.daily = daily
        self.processing = processing
    }

    /// Receives an export from its first byte to the queued job, then waits for it up to
    /// `wait` (when a runner works here).
    public func receive<Body: AsyncSequence>(
        _ body: Body, for user: UserRecord, wait: Duration = StrengthImportService.inlineWait, now: Date = Date()
    ) async throws -> Outcome where Body.Element: Collection<UInt8> {
        let path = URL(fileURLWithPath: daily.importDirectory).appendingPathComponent("upload-\(UUID().uuidString.lowercased())").path
        var record = HealthImportRecord(userID: user.id, format: Self.format, filePath: path, bytesTotal: 0, createdAt: now)
        record.state = .receiving
        do {
            switch try await store.daily.admitImport(record, maximumOpen: DailyHealthService.maximumOpenImports) {
            case .admitted: break
            case .refused(let open):
                throw AppError(.throttled, "\(open) of your imports are still arriving, waiting or running; send the next when one has finished", retryAfterSeconds: 60)
            }
        } catch StoreError.notFound {
            throw AppError.notSignedIn
        }
        var spool: DailyHealthService.Spool?
        do {
            let file = try daily.openSpool(path: path)
            spool = file
            // The header is read as it comes: a file that is not an export is refused now.
            var header = LiftingLogReader(timeZone: TimeZones.zone(user.timeZone))
            var headerRead = false
            var lastProgress = ContinuousClock.now
            for try await chunk in body {
                guard file.bytes + Int64(chunk.count) <= Int64(StrengthService.maximumImportBytes) else {
                    throw AppError.invalid("the export is larger than \(StrengthService.maximumImportBytes >> 20) MB, more than Strong or Hevy write", field: "file")
                }
                try file.write(chunk)
                if !headerRead {
                    try Self.checkHeader(&header, chunk)
                    headerRead = header.rowsRead > 0
                }
                if ContinuousClock.now - lastProgress > .seconds(10) {
                    lastProgress = ContinuousClock.now
                    record.bytesDone = file.bytes
                    record.updatedAt = Date()
                    guard try await store.daily.updateImport(record) else { throw AppError.notSignedIn }
                }
            }
            guard file.bytes > 0 else { throw AppError.invalid("the file is empty: send the CSV file Strong or Hevy exports", field: "file") }
            if !headerRead {
                do { _ = try header.finish() } catch { throw AppError.invalid("\(error)", field: "file") }
            }
            try await Blocking.run { () throws in try file.close() }
            let job = Jobs.record(Job(importID: record.id, file: URL(fileURLWithPath: path).lastPathComponent), userID: user.id, attempts: 3, runAfter: now, now: now)
            guard try await store.daily.queueImport(id: record.id, bytesTotal: file.bytes, job: job, now: Date()) else { throw AppError.notSignedIn }
            record.state = .queued
            record.bytesTotal = file.bytes
        } catch {
            spool?.discard()
            try? await store.daily.deleteImport(id: record.id)
            throw error
        }
        guard processing() else { return .accepted(record) }
        let deadline = ContinuousClock.now + wait
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            guard let current = try await store.daily.findImport(id: record.id, userID: user.id) else { throw AppError.notFound("import") }
            switch current.state {
            case .done: if let summary = Self.summary(current) { return .done(summary, current) }
            case .failed: throw AppError.invalid(current.error ?? "the import failed", field: "file")
            default: break
            }
        }
        return .accepted(try await store.daily.findImport(id: record.id, userID: user.id) ?? record)
    }

    /// The same for an export already in memory (a pasted one).
    public func receive(bytes: [UInt8], for user: UserRecord, wait: Duration = StrengthImportService.inlineWait, now: Date = Date()) async throws -> Outcome {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.yield(bytes)
        continuation.finish()
        return try await receive(stream, for: user, wait: wait, now: now)
    }

    /// Refuses a file whose header row is not a Strong or Hevy export's.
    static func checkHeader(_ reader: inout LiftingLogReader, _ chunk: some Collection<UInt8>) throws {
        do {
            try reader.feed(chunk)
        } catch {
            throw AppError.invalid("\(error)", field: "file")
        }
    }

    public func status(_ id: String, for user: UserRecord) async throws -> Status {
        guard let record = try await store.daily.findImport(id: id, userID: user.id), record.format == Self.format else { throw AppError.notFound("import") }
        return Status(record: record, summary: Self.summary(record))
    }

    static func summary(_ record: HealthImportRecord) -> StrengthService.ImportSummary? {
        record.summary.flatMap { try? JSONDecoder().decode(StrengthService.ImportSummary.self, from: Data($0.utf8)) }
    }

    static func encode(_ summary: StrengthService.ImportSummary) -> String? {
        (try? JSONEncoder().encode(summary)).map { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: The job

    var jobDefinitions: [JobDefinition] {
        [
            JobDefinition(Job.self, retry: RetryStrategy(attempts: 3), timeLimit: .seconds(10 * 60)) { job, context in
                try await run(job, context: context)
            }
        ]
    }

    /// Reads the spooled export and stores its workouts. A run after a crash (the row still
    /// `running`) skips the workouts the last one went through and goes on with its summary.
    func run(_ job: Job, context: JobContext) async throws {
        guard var record = try await store.daily.findImport(id: job.importID) else {
            if !job.file.contains("/"), job.file.hasPrefix("upload-") {
                DailyHealthService.removeUploads([URL(fileURLWithPath: daily.importDirectory).appendingPathComponent(job.file).path])
            }
            return
        }
        guard record.state == .queued || record.state == .running else { return }
        guard let user = try await store.users.find(id: record.userID) else { return }
        let resumed = record.state == .running ? Self.summary(record).map { (summary: $0, processed: Int(record.samplesRead)) } : nil
        record.state = .running
        record.updatedAt = Date()
        guard try await store.daily.updateImport(record) else { return DailyHealthService.removeUploads([record.filePath]) }
        do {
            let parsed = try await read(record.filePath, user: user, context: context) { done in
                record.bytesDone = done
            }
            var lastWrite = ContinuousClock.now
            let summary = try await strength.importSessions(parsed, for: user, now: Date(), importID: record.id, resume: resumed, context: context) { summary, processed in
                // Progress (and what a run after a crash goes on from), every second at most.
                guard ContinuousClock.now - lastWrite >= .seconds(1) else { return }
                lastWrite = ContinuousClock.now
                record.summary = Self.encode(summary)
                record.samplesRead = Int64(processed)
                record.workoutsAdded = summary.imported
                record.workoutsDuplicate = summary.duplicates
                record.updatedAt = Date()
                guard try await store.daily.updateImport(record) else { throw CancellationError() }
            }
            record.summary = Self.encode(summary)
            record.samplesRead = Int64(parsed.sessions.count)
            record.workoutsAdded = summary.imported
            record.workoutsDuplicate = summary.duplicates
            record.state = .done
        } catch let error as AppError where error.kind == .invalid {
            record.state = .failed
            record.error = error.message
        } catch let error as JobExpired {
            record.state = .failed
            record.error = error.message
        } catch is CancellationError {
            // The account went while it ran.
            return DailyHealthService.removeUploads([record.filePath])
        }
        record.bytesDone = record.bytesTotal
        record.finishedAt = Date()
        record.updatedAt = Date()
        _ = try await store.daily.updateImport(record)
        DailyHealthService.removeUploads([record.filePath])
    }

    /// The export read from its file in 64 KiB pieces, other users' work taking its turn
    /// between them.
    func read(_ path: String, user: UserRecord, context: JobContext, progress: (Int64) -> Void) async throws -> LiftingLogImport {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw AppError.invalid("the uploaded file is gone; send it again", field: "file") }
        defer { try? handle.close() }
        var reader = LiftingLogReader(timeZone: TimeZones.zone(user.timeZone), poundsByDefault: user.units == .imperial)
        do {
            while let chunk = try handle.read(upToCount: 64 << 10), !chunk.isEmpty {
                try reader.feed(chunk)
                progress(reader.bytesRead)
                await context.checkpoint()
                if reader.stopped != nil { break }
            }
            return try reader.finish()
        } catch let error as TextFormatError {
            throw AppError.invalid("\(error)", field: "file")
        }
    }
}
