import Foundation
import HeartworkCore
import HeartworkFormats
import ZIPFoundation

/// What the reading thread hands over: samples and workouts read since the last batch, and
/// how far into the export it got.
struct HealthExportBatch: Sendable {
    var samples: [HealthSample] = []
    var workouts: [HealthWorkout] = []
    var bytesDone: Int64 = 0
    var bytesTotal: Int64 = 0
}

/// Reads a spooled Apple Health export — `export.zip` as the Health app writes it, or its
/// `export.xml` — on a thread of its own (ZIPFoundation's inflater and the file reads block),
/// in batches of at most `batchSize` samples. At most two batches wait for the store at any
/// time, so memory stays flat whatever the export's size (README "Daily health").
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
            continuation.yield(batch)
            batch.samples.removeAll(keepingCapacity: true)
            batch.workouts.removeAll(keepingCapacity: true)
        }
        func feed(_ bytes: some Collection<UInt8>) throws {
            do {
                try reader.feed(bytes) { item in
                    switch item {
                    case .sample(let sample): batch.samples.append(sample)
                    case .workout(let workout): batch.workouts.append(workout)
                    case .owner: break
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
            let archive: Archive
            do {
                archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
            } catch {
                throw Failure.unreadable("not a readable zip archive (\(error)); upload export.zip as the Health app writes it, or its export.xml")
            }
            // The Health app's archive holds apple_health_export/export.xml (and export_cda.xml, routes, ECGs).
            guard let entry = archive.first(where: { $0.type == .file && ($0.path == "export.xml" || $0.path.hasSuffix("/export.xml")) }) else {
                throw Failure.export("the archive has no export.xml (is it the Health app's export.zip?)")
            }
            batch.bytesTotal = Int64(clamping: entry.uncompressedSize)
            do {
                _ = try archive.extract(entry, bufferSize: Self.chunkBytes, skipCRC32: false) { data in
                    batch.bytesDone += Int64(data.count)
                    try feed(data)
                }
            } catch let failure as Failure {
                throw failure
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw Failure.unreadable("\(entry.path) cannot be inflated after \(batch.bytesDone) bytes: \(error) (is the zip cut short?)")
            }
        } else {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure.unreadable("the upload is not on this server's disk") }
            defer { try? handle.close() }
            batch.bytesTotal = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
            while true {
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
/// `WorkoutRoute` names it, read with the GPX reader the uploads use. A route that is missing,
/// too large (over 32 MB) or unreadable leaves its workout without a track.
struct HealthExportRoutes {
    static let maximumBytes = 32 << 20
    let archive: Archive?

    init(path: String) {
        archive = try? Archive(url: URL(fileURLWithPath: path), accessMode: .read)
    }

    func track(_ routePath: String?, start: Date) -> [NewWorkout.TrackPoint] {
        guard let archive, let routePath, !routePath.isEmpty else { return [] }
        let name = routePath.hasPrefix("/") ? String(routePath.dropFirst()) : routePath
        guard let entry = archive.first(where: { $0.type == .file && ($0.path == name || $0.path.hasSuffix("/" + name)) }),
              entry.uncompressedSize <= UInt64(Self.maximumBytes) else { return [] }
        var bytes = [UInt8]()
        do {
            _ = try archive.extract(entry, bufferSize: 1 << 16, skipCRC32: false) { data in bytes.append(contentsOf: data) }
        } catch {
            return []
        }
        return ActivityXMLReader.read(bytes).records.compactMap { record in
            guard let latitude = record.latitude, let longitude = record.longitude else { return nil }
            let seconds = record.time.timeIntervalSince(start)
            guard seconds >= 0, seconds.isFinite else { return nil }
            return NewWorkout.TrackPoint(latitudeDegrees: latitude, longitudeDegrees: longitude, elevationMeters: record.altitude, timeSeconds: seconds)
        }
    }
}
