import Foundation
import HeartworkCore
import HeartworkFormats

/// What the reading thread hands over: samples and workouts read since the last batch, and
/// how far into the export it got.
struct HealthExportBatch: Sendable {
    var samples: [HealthSample] = []
    var workouts: [HealthWorkout] = []
    /// The export's `Me` element (birth date, sex), in the batch it was read in.
    var owner: HealthOwner?
    /// Records of types the reader does not keep, by type, so far (the last batch has them all).
    var recordsSkipped: [String: Int] = [:]
    var bytesDone: Int64 = 0
    var bytesTotal: Int64 = 0
}

/// Reads a spooled Apple Health export — `export.zip` as the Health app writes it, or its
/// `export.xml` — on a thread of its own (inflating and the file reads block),
/// in batches of at most `batchSize` samples. At most two batches wait for the store at any
/// time, so memory stays flat whatever the export's size (docs/DAILY-HEALTH.md).
final class HealthExportSource: @unchecked Sendable {
    enum Failure: Error, CustomStringConvertible {
        case unreadable(String)
        case export(String)

        var description: String {
            switch self {
            case .unreadable(let message), .export(let message): message
            }
        }
    }

    static let batchSize = 20_000
    static let chunkBytes = 1 << 20
    /// The largest export.xml read from a zip (a large real one is 1–5 GB).
    static let maximumXMLBytes: Int64 = 32 << 30
    /// What an uploaded archive may hold and inflate to (docs/SECURITY.md).
    static let zipLimits = ZipArchive.Limits(maximumEntries: 100_000, maximumTotalBytes: 40 << 30, maximumRatio: 200)

    let path: String
    let format: String
    private let slots = DispatchSemaphore(value: 2)
    private let lock = NSLock()
    private var stopped = false
    let batches: AsyncThrowingStream<HealthExportBatch, any Error>
    private let continuation: AsyncThrowingStream<HealthExportBatch, any Error>.Continuation

    init(path: String, format: String) {
        self.path = path
        self.format = format
        (batches, continuation) = AsyncThrowingStream.makeStream(of: HealthExportBatch.self, throwing: (any Error).self)
    }

    /// Starts the reading thread.
    func start() {
        let thread = Thread { [self] in
            do {
                try read()
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = "heartwork-health-import"
        thread.start()
    }

    /// The consumer is done with a batch (lets the thread read on).
    func taken() { slots.signal() }

    /// The consumer gives up: the thread stops at its next batch.
    func stop() {
        lock.withLock { stopped = true }
        slots.signal()
        slots.signal()
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func read() throws {
        var reader = AppleHealthReader()
        var batch = HealthExportBatch()
        func emit() throws {
            slots.wait()
            if isStopped { throw CancellationError() }
            batch.recordsSkipped = reader.skipped
            continuation.yield(batch)
            batch.samples.removeAll(keepingCapacity: true)
            batch.workouts.removeAll(keepingCapacity: true)
            batch.owner = nil
        }
        func feed(_ bytes: some Collection<UInt8>) throws {
            do {
                try reader.feed(bytes) { item in
                    switch item {
                    case .sample(let sample): batch.samples.append(sample)
                    case .workout(let workout): batch.workouts.append(workout)
                    case .owner(let owner): batch.owner = owner
                    }
                }
            } catch {
                // Everything read before the fault is kept: hand it over first.
                try emit()
                throw Failure.export("export.xml \(error.description)")
            }
            if batch.samples.count >= Self.batchSize { try emit() }
        }
        if format == "zip" {
            let archive: ZipArchive
            do {
                archive = try ZipArchive(path: path, limits: Self.zipLimits)
            } catch {
                throw Failure.unreadable("\(error.description); upload export.zip as the Health app writes it, or its export.xml")
            }
            // The Health app's archive holds apple_health_export/export.xml (and export_cda.xml, routes, ECGs).
            guard let entry = archive.entry(named: "export.xml") else {
                throw Failure.export("the archive has no export.xml (is it the Health app's export.zip?)")
            }
            batch.bytesTotal = entry.uncompressedSize
            var pending = [UInt8]()
            pending.reserveCapacity(Self.chunkBytes)
            do {
                var inflated: Int64 = 0
                try archive.read(entry, limit: Self.maximumXMLBytes) { chunk in
                    if isStopped { throw CancellationError() }
                    inflated += Int64(chunk.count)
                    pending.append(contentsOf: chunk)
                    if pending.count >= Self.chunkBytes {
                        batch.bytesDone = inflated
                        try feed(pending)
                        pending.removeAll(keepingCapacity: true)
                    }
                }
                // The last bytes only once the entry's CRC has been checked.
                if !pending.isEmpty {
                    batch.bytesDone = inflated
                    try feed(pending)
                }
            } catch let failure as Failure {
                throw failure
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // Everything read before the fault is kept: hand it over first.
                try emit()
                throw Failure.unreadable("\(error) (what was read before it is kept)")
            }
        } else {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure.unreadable("the upload is not on this server's disk") }
            defer { try? handle.close() }
            batch.bytesTotal = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
            while true {
                if isStopped { throw CancellationError() }
                let data = try handle.read(upToCount: Self.chunkBytes) ?? Data()
                if data.isEmpty { break }
                batch.bytesDone += Int64(data.count)
                try feed(data)
            }
        }
        do {
            try reader.finish()
        } catch {
            try emit()
            throw Failure.export("export.xml \(error.description)")
        }
        try emit()
    }
}

/// The routes of an `export.zip`'s workouts: `workout-routes/route_….gpx` as the workout's
/// `WorkoutRoute` names it, read with the GPX reader the uploads use. The archive's directory
/// is read once (a name lookup per workout, however many entries); a route that is missing,
/// larger than 32 MB, damaged (its CRC) or unreadable leaves its workout without a track.
struct HealthExportRoutes {
    static let maximumBytes: Int64 = 32 << 20
    let archive: ZipArchive?

    init(path: String) {
        archive = try? ZipArchive(path: path, limits: HealthExportSource.zipLimits)
    }

    func track(_ routePath: String?, start: Date) -> [NewWorkout.TrackPoint] {
        guard let archive, let routePath, !routePath.isEmpty else { return [] }
        let name = routePath.hasPrefix("/") ? String(routePath.dropFirst()) : routePath
        guard let entry = archive.entry(named: name), let bytes = try? archive.bytes(of: entry, limit: Self.maximumBytes) else { return [] }
        return ActivityXMLReader.read(bytes).records.compactMap { record in
            guard let latitude = record.latitude, let longitude = record.longitude else { return nil }
            let seconds = record.time.timeIntervalSince(start)
            guard seconds >= 0, seconds.isFinite else { return nil }
            return NewWorkout.TrackPoint(latitudeDegrees: latitude, longitudeDegrees: longitude, elevationMeters: record.altitude, timeSeconds: seconds)
        }
    }
}
