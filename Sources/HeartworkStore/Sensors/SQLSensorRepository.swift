import Foundation
import HeartworkCore
import HeartworkFormats
import SQLKit
import Synchronization

/// Sensors and their raw readings. Frames are stored in groups (`IngestBatcher`: one
/// transaction for the frames that arrived while the previous one committed), and every
/// block a group changes is written by one multi-row statement, as are the sensors' last
/// values.
///
/// On SQLite (one process owns the file) the repository also remembers each sensor's row and
/// its newest block, encoded: readings that come in order are appended to those bytes with no
/// read and no decode, and the newest block is not rewritten at every group: the group appends
/// what it took to the log (`sensor_log`, one row per group, `SensorLogCodec`), and a block is
/// written when it fills (its sensor moves on to the next), when its readings have waited
/// `foldAfter` (a strap that went quiet), or on `flush` (shutdown, an account's archive). A
/// log row is deleted in the transaction that writes the last of its readings into a block;
/// what a crash leaves in the log is folded into the blocks when the store opens
/// (`recoverLog`). Before the log, appending rewrote the sensor's newest block (up to 256
/// readings) at every group, and acks fell seconds behind at 10,000 straps.
///
/// On PostgreSQL, where other instances write too, each reading is a row of `sensor_pending`
/// until its sensor's rows are folded into blocks (`PendingReadings.swift`, migration 35).
/// Measured with Benchmarks/live_benchmark.py (release, this machine): see docs/BENCHMARKS.md.
struct SQLSensorRepository: SensorRepository {
    let database: DatabaseConnection
    static let columns = "id, user_id, address, name, gateway_id, created_at, last_at, last_bpm, last_contact, battery"
    /// Not removed, or heard again since (`remove`, keeping the readings).
    static let visible = " AND (removed_at IS NULL OR last_at > removed_at)"

    /// A sensor as the repository last wrote it, with its newest block (SQLite only).
    struct Known: Sendable {
        var record: SensorRecord
        var block: Int
        var bytes: [UInt8]
        var count: Int
        var highestSequence: Int
        var firstAt: Int
        var lastAt: Int
        /// SQLite: the log rows holding readings of `block` that its row lacks, and since when
        /// (nil: the row has every reading of `bytes`).
        var logRows: [Int64] = []
        var pendingSince: Date? = nil
        /// SQLite: full blocks the sensor has moved on from, in memory until the scan writes
        /// them with the newest (so that a whole team's straps crossing a block boundary at
        /// once do not write all their blocks in one group).
        var sealed: [BlockWrite] = []
        /// Where `bytes` ends, kept while readings are appended to it (nil: work it out from
        /// `bytes` at the next append; set back to nil whenever `bytes` is replaced).
        var tail: SensorBlockCodec.Tail? = nil
        /// SQLite: the row's last values (`record`) are newer than the table's; written with the
        /// next scan (every 10 s) or `flush`, and read from here meanwhile.
        var lastValuesDirty = false
    }

    struct Job: Sendable {
        let userID: String
        let gatewayID: String
        let readings: [String: [SensorReading]]
        let now: Date
        /// Write every block the log holds readings of (`flush`).
        var foldAll = false
    }

    /// When PostgreSQL's pending rows were last looked over for folding.
    final class FoldClock: Sendable {
        let last = Mutex(Date.distantPast)
    }

    /// What the repository last wrote of each sensor, and its log (SQLite only).
    final class KnownSensors: Sendable {
        let entries = Mutex<[SensorKey: Known]>([:])
        let log = Mutex<LogState>(LogState())
    }

    /// The log's rows still needed: how many sensors' pending readings each holds.
    struct LogState: Sendable {
        var recovered = false
        var nextID: Int64 = 1
        var references: [Int64: Int] = [:]
        var lastIdleScan = Date.distantPast
    }

    /// A sensor's newest block is written once its readings have waited this long in the log
    /// (at 1 Hz a block fills in 256 s, so a streaming strap's block is written two or three
    /// times instead of 256), so the log stays a few minutes long.
    static let foldAfter: TimeInterval = 120
    /// How often the log is looked over, and how much one group writes at most, so that the
    /// writes of straps that started together spread over many groups (measured: 10,000
    /// straps started at once wrote 10,000 blocks in one group, an ack p99 of 1.4 s in that
    /// tenth of the run).
    static let scanEvery: TimeInterval = 1
    static let foldsPerScan = 1_000
    static let lastValuesPerScan = 1_000
    /// Full blocks kept in memory per sensor before they are written at once (a strap far
    /// faster than 1 Hz).
    static let sealedAtMost = 4

    private let known: KnownSensors?
    /// What this process has stored or handed on early of each sensor (`claim`).
    private let cursor = SensorCursor()
    /// A frame's outcome: stored (and which new sensors were over the limit), or its gateway
    /// was revoked.
    enum Outcome: Sendable {
        case stored(SensorStoreResult)
        case revoked
    }

    private let batcher: IngestBatcher<Job, Outcome>

    init(database: DatabaseConnection, commitSpacing: Duration = .zero) {
        self.database = database
        let known = database.engine == .sqlite ? KnownSensors() : nil
        self.known = known
        if database.engine == .postgres {
            // PostgreSQL: the readings' rows (PendingReadings.swift). After a group, at most once
            // a second, its leader folds the sensors whose rows waited `foldAfter` into their
            // blocks — once the group's other frames have their acks; a fold that fails is tried
            // again a second later (it changes nothing until it commits).
            let lastFold = FoldClock()
            batcher = IngestBatcher(
                spacing: commitSpacing, process: { jobs in try await Self.storeGroupPostgres(jobs, database: database) },
                after: { jobs in
                    let now = jobs.map(\.now).max() ?? Date()
                    let due = lastFold.last.withLock { last in
                        guard now.timeIntervalSince(last) >= Self.scanEvery else { return false }
                        last = now
                        return true
                    }
                    if due { _ = try? await Self.foldPending(database, now: now, all: false) }
                })
        } else {
            batcher = IngestBatcher(spacing: commitSpacing) { jobs in try await Self.storeGroup(jobs, database: database, known: known) }
        }
    }

    static func key(_ userID: String, _ address: String) -> SensorKey { SensorKey(userID: userID, address: address) }

    func claim(userID: String, readings: [String: [SensorReading]]) -> [StoredSensorReadings] {
        cursor.claim(userID: userID, readings)
    }

    func flush() async throws {
        if known != nil {
            _ = try await batcher.submit(Job(userID: "", gatewayID: "", readings: [:], now: Date(), foldAll: true))
        } else if database.engine == .postgres {
            // What is pending now (not what other instances add meanwhile): beside the groups,
            // under the same locks. Reads include pending rows anyway; this is for a clean stop.
            try await Self.foldPending(database, now: Date(), all: true)
        }
    }

    func forget(userID: String) async throws {
        // What the log held of the account's sensors is dropped as the blocks are written
        // (they no longer exist), and nothing of them stays in memory. (PostgreSQL: the
        // deletion took their pending rows.)
        if known != nil { try await flush() }
        cursor.forget(userID: userID)
        known?.entries.withLock { entries in entries = entries.filter { $0.value.record.userID != userID } }
    }

    func remove(id: String, userID: String, deletingReadings: Bool, now: Date) async throws -> Bool {
        guard deletingReadings else {
            // Hidden until a reading newer than every one heard so far (memory's included).
            guard let sensor = try await find(id: id, userID: userID) else { return false }
            let removedAt = max(now.millisecondsSince1970, (sensor.lastAt?.millisecondsSince1970 ?? Int64.min))
            return try await database.transaction { sql in
                guard try await sql.readFirst("SELECT id FROM sensors WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
                try await sql.raw("UPDATE players SET sensor_id = NULL WHERE sensor_id = \(bind: id) AND user_id = \(bind: userID)").run()
                try await sql.raw("UPDATE sensors SET removed_at = \(bind: removedAt) WHERE id = \(bind: id)").run()
                return true
            }
        }
        // As `forget` does for an account: the log's readings are written into their blocks
        // first (then deleted with them), and nothing of the sensor stays in memory. On
        // PostgreSQL the sensor's bucket is held exclusively first: no group is between reading
        // its row and writing its pending rows, no fold is moving them.
        if known != nil { try await flush() }
        let postgres = database.engine == .postgres
        let deleted = try await database.transaction { sql -> Bool in
            guard let row = try await sql.readFirst("SELECT address FROM sensors WHERE id = \(bind: id) AND user_id = \(bind: userID)") else { return false }
            if postgres {
                try await Self.lock(buckets: [Self.bucket(Self.key(userID, try row.string("address")))], shared: false, sql)
                guard try await sql.readFirst("SELECT id FROM sensors WHERE id = \(bind: id) FOR UPDATE") != nil else { return false }
            }
            // Spelled out rather than left to the foreign keys (SQLite files opened without them).
            try await sql.raw("UPDATE players SET sensor_id = NULL WHERE sensor_id = \(bind: id)").run()
            try await sql.raw("DELETE FROM sensor_blocks WHERE sensor_id = \(bind: id)").run()
            try await sql.raw("DELETE FROM sensor_pending WHERE sensor_id = \(bind: id)").run()
            try await sql.raw("DELETE FROM sensors WHERE id = \(bind: id)").run()
            return true
        }
        if deleted {
            cursor.forget(sensorID: id)
            known?.entries.withLock { entries in entries = entries.filter { $0.value.record.id != id } }
        }
        return deleted
    }

    func store(userID: String, gatewayID: String, readings: [String: [SensorReading]], now: Date) async throws -> SensorStoreResult {
        guard readings.values.contains(where: { !$0.isEmpty }) else { return SensorStoreResult(stored: []) }
        switch try await batcher.submit(Job(userID: userID, gatewayID: gatewayID, readings: readings, now: now)) {
        case .stored(let result):
            cursor.record(userID: userID, result.stored)
            return result
        case .revoked: throw StoreError.revoked("gateway")
        }
    }

    /// A block to write: its readings' bytes and what the row says about them.
    struct BlockWrite: Sendable {
        var sensorID: String
        var block: Int
        var bytes: [UInt8]
        var count: Int
        var firstAt: Int
        var lastAt: Int
    }

    private static func storeGroup(_ jobs: [Job], database: DatabaseConnection, known: KnownSensors?) async throws -> [Outcome] {
        if let known { try await recoverLog(database, known: known) }
        // SQLite only (PostgreSQL: `storeGroupPostgres`): one writer, no row locks.
        let lock = ""
        let logs = known != nil
        let groupStart = jobs.map(\.now).max() ?? Date()
        let foldEverything = jobs.contains(where: \.foldAll)
        let readingJobs = jobs.filter { !$0.foldAll }
        let logBefore = known?.log.withLock { $0 }
        let (results, touched, logAfter) = try await database.transaction { sql -> ([Outcome], [SensorKey: Known], LogState?) in
            // The gateways first: a revoked gateway's frames are not stored (one writer: a
            // revocation committed before is seen, one after waits for this store).
            let gatewayIDs: [any Encodable & Sendable] = Array(Set(readingJobs.map(\.gatewayID)))
            let live =
                gatewayIDs.isEmpty
                ? Set<String>()
                : Set(try await sql.readAll("SELECT id FROM gateways WHERE id IN (\(binds: gatewayIDs))").map { try $0.string("id") })
            // Read after the gateways: a deleted account's sensors are no longer remembered.
            let remembered = known.map { $0.entries.withLock { $0 } }
            let liveJobs = readingJobs.filter { live.contains($0.gatewayID) }
            // Every sensor the group names and this process does not remember, in a few queries.
            var touched = try await Self.loadAll(
                liveJobs.flatMap { job in job.readings.keys.map { (job.userID, $0, job.gatewayID, job.now) } }
                    .filter { remembered?[Self.key($0.0, $0.1)] == nil },
                sql, lock: lock)
            var blocks = [String: BlockWrite]()
            var dirty = Set<SensorKey>()
            var results = [Outcome]()
            var log = logBefore
            // SQLite: the sensors whose newest block took readings that go to the log, and what.
            var logged = [String: [SensorReading]]()
            var released = [Int64]()
            // A sensor's newest block written as it stands in memory: its log rows are free of it.
            func fold(_ sensor: inout Known) {
                for block in sensor.sealed { blocks["\(sensor.record.id)/\(block.block)"] = block }
                sensor.sealed = []
                blocks["\(sensor.record.id)/\(sensor.block)"] = BlockWrite(
                    sensorID: sensor.record.id, block: sensor.block, bytes: sensor.bytes, count: sensor.count,
                    firstAt: sensor.firstAt, lastAt: sensor.lastAt)
                released += sensor.logRows
                logged[sensor.record.id] = nil
                sensor.logRows = []
                sensor.pendingSince = nil
            }
            for job in jobs {
                if job.foldAll {
                    results.append(.stored(SensorStoreResult(stored: [])))
                    continue
                }
                guard live.contains(job.gatewayID) else {
                    results.append(.revoked)
                    continue
                }
                var jobResults = [StoredSensorReadings]()
                var refused = [(address: String, highestSequence: Int)]()
                for (address, incoming) in job.readings.sorted(by: { $0.key < $1.key }) where !incoming.isEmpty {
                    let key = Self.key(job.userID, address)
                    var sensor: Known
                    if let current = touched[key] ?? remembered?[key] {
                        sensor = current
                    } else {
                        // A new sensor past the account's limit: not created, not stored.
                        refused.append((address, incoming.map(\.sequence).max() ?? 0))
                        continue
                    }
                    var added = [SensorReading]()
                    var toLog = [SensorReading]()
                    for (block, blockReadings) in Self.byBlock(incoming) {
                        let writeKey = "\(sensor.record.id)/\(block)"
                        let ordered = blockReadings.sorted { $0.sequence < $1.sequence }
                        let isNew = ordered.indices.allSatisfy { $0 == 0 || ordered[$0].sequence > ordered[$0 - 1].sequence }
                        // The usual case: the newest block, readings after every one in it.
                        if block == sensor.block, isNew, let first = ordered.first, first.sequence > sensor.highestSequence,
                            Self.append(ordered, to: &sensor)
                        {
                            sensor.count += ordered.count
                            sensor.highestSequence = ordered[ordered.count - 1].sequence
                            sensor.firstAt = min(sensor.firstAt, ordered.map(\.atMilliseconds).min() ?? sensor.firstAt)
                            sensor.lastAt = max(sensor.lastAt, ordered.map(\.atMilliseconds).max() ?? sensor.lastAt)
                            if logs {
                                toLog += ordered
                                if sensor.pendingSince == nil { sensor.pendingSince = groupStart }
                            } else {
                                blocks[writeKey] = BlockWrite(
                                    sensorID: sensor.record.id, block: block, bytes: sensor.bytes, count: sensor.count,
                                    firstAt: sensor.firstAt, lastAt: sensor.lastAt)
                            }
                            added += ordered
                            continue
                        }
                        // SQLite, a full block still in memory: merged there, logged.
                        if logs, block < sensor.block, let index = sensor.sealed.firstIndex(where: { $0.block == block }) {
                            let (merged, new) = SensorBlockCodec.merge(try SensorBlockCodec.decode(sensor.sealed[index].bytes), blockReadings)
                            guard !new.isEmpty, let first = merged.map(\.atMilliseconds).min(), let last = merged.map(\.atMilliseconds).max() else {
                                continue
                            }
                            sensor.sealed[index] = BlockWrite(
                                sensorID: sensor.record.id, block: block, bytes: SensorBlockCodec.encode(merged), count: merged.count, firstAt: first,
                                lastAt: last)
                            toLog += new
                            if sensor.pendingSince == nil { sensor.pendingSince = groupStart }
                            added += new
                            continue
                        }
                        // SQLite, the newest block or a newer one: merged in memory, logged; a
                        // newer block seals the one it follows (written by the scan).
                        if logs, block >= sensor.block {
                            let base = block == sensor.block ? try SensorBlockCodec.decode(sensor.bytes) : []
                            let (merged, new) = SensorBlockCodec.merge(base, blockReadings)
                            guard !new.isEmpty, let first = merged.map(\.atMilliseconds).min(), let last = merged.map(\.atMilliseconds).max() else {
                                continue
                            }
                            if block > sensor.block, sensor.pendingSince != nil {
                                sensor.sealed.append(
                                    BlockWrite(
                                        sensorID: sensor.record.id, block: sensor.block, bytes: sensor.bytes, count: sensor.count,
                                        firstAt: sensor.firstAt, lastAt: sensor.lastAt))
                                if sensor.sealed.count >= Self.sealedAtMost {
                                    fold(&sensor)
                                    // What the log held of the sensor went with the blocks.
                                    toLog = []
                                }
                            }
                            sensor.block = block
                            sensor.bytes = SensorBlockCodec.encode(merged)
                            sensor.tail = nil
                            sensor.count = merged.count
                            sensor.highestSequence = merged[merged.count - 1].sequence
                            sensor.firstAt = first
                            sensor.lastAt = last
                            toLog += new
                            if sensor.pendingSince == nil { sensor.pendingSince = groupStart }
                            added += new
                            continue
                        }
                        // Otherwise: decode what the block holds and merge.
                        let stored: [SensorReading]
                        if let pending = blocks[writeKey] {
                            stored = try SensorBlockCodec.decode(pending.bytes)
                        } else if block == sensor.block {
                            stored = try SensorBlockCodec.decode(sensor.bytes)
                        } else if let row = try await sql.readFirst(
                            """
                            SELECT data FROM sensor_blocks WHERE sensor_id = \(bind: sensor.record.id) AND block = \(bind: block)
                            """)
                        {
                            stored = try SensorBlockCodec.decode([UInt8](try row.data("data")))
                        } else {
                            stored = []
                        }
                        let (merged, new) = SensorBlockCodec.merge(stored, blockReadings)
                        guard !new.isEmpty, let first = merged.map(\.atMilliseconds).min(), let last = merged.map(\.atMilliseconds).max() else { continue }
                        let bytes = SensorBlockCodec.encode(merged)
                        blocks[writeKey] = BlockWrite(sensorID: sensor.record.id, block: block, bytes: bytes, count: merged.count, firstAt: first, lastAt: last)
                        if block >= sensor.block {
                            sensor.block = block
                            sensor.bytes = bytes
                            sensor.tail = nil
                            sensor.count = merged.count
                            sensor.highestSequence = merged[merged.count - 1].sequence
                            sensor.firstAt = first
                            sensor.lastAt = last
                        }
                        added += new
                    }
                    if !toLog.isEmpty { logged[sensor.record.id, default: []] += toLog }
                    // What it said last: the newest reading, if newer than what is known.
                    if let newest = added.max(by: { $0.atMilliseconds < $1.atMilliseconds }),
                        newest.atMilliseconds >= (sensor.record.lastAt?.millisecondsSince1970 ?? Int64.min)
                    {
                        sensor.record.lastAt = Date(milliseconds: Int64(newest.atMilliseconds))
                        sensor.record.lastBeatsPerMinute = newest.beatsPerMinute
                        sensor.record.lastContact = newest.contact
                        sensor.record.battery = newest.battery ?? sensor.record.battery
                        sensor.record.gatewayID = job.gatewayID
                        if logs { sensor.lastValuesDirty = true } else { dirty.insert(key) }
                    }
                    touched[key] = sensor
                    jobResults.append(
                        StoredSensorReadings(
                            sensor: sensor.record, added: added.sorted { $0.sequence < $1.sequence },
                            highestSequence: incoming.map(\.sequence).max() ?? 0))
                }
                results.append(.stored(SensorStoreResult(stored: jobResults, refused: refused)))
            }
            // SQLite: the blocks whose readings have waited long enough (or all, on `flush`) are
            // written; the rest of what this group took is one log row.
            var lastValues = [SensorRecord]()
            if var state = log {
                // Every second: the blocks whose readings waited `foldAfter` (the longest waiting
                // first) and the sensors' last values, a bounded number of each per group.
                if foldEverything || groupStart.timeIntervalSince(state.lastIdleScan) >= Self.scanEvery {
                    state.lastIdleScan = groupStart
                    let due = groupStart.addingTimeInterval(-Self.foldAfter)
                    // What is remembered, as this group left it — looked over by key, without
                    // copying every remembered sensor into one dictionary (3.3 % of the CPU at
                    // 10,000 straps, perf).
                    func current(_ key: SensorKey) -> Known? { touched[key] ?? remembered?[key] }
                    var waiting = [(key: SensorKey, since: Date)]()
                    var lastValuesDue = [SensorKey]()
                    func consider(_ key: SensorKey, _ sensor: Known) {
                        if let since = sensor.pendingSince, foldEverything || since <= due { waiting.append((key, since)) }
                        if sensor.lastValuesDirty { lastValuesDue.append(key) }
                    }
                    for (key, sensor) in touched { consider(key, sensor) }
                    for (key, sensor) in remembered ?? [:] where touched[key] == nil { consider(key, sensor) }
                    for (key, _) in waiting.sorted(by: { $0.since < $1.since }).prefix(foldEverything ? Int.max : Self.foldsPerScan) {
                        guard var sensor = current(key) else { continue }
                        fold(&sensor)
                        touched[key] = sensor
                    }
                    for key in lastValuesDue.prefix(foldEverything ? Int.max : Self.lastValuesPerScan) {
                        guard var sensor = current(key) else { continue }
                        lastValues.append(sensor.record)
                        sensor.lastValuesDirty = false
                        touched[key] = sensor
                    }
                }
                if !logged.isEmpty {
                    let id = state.nextID
                    state.nextID += 1
                    let entries = logged.sorted { $0.key < $1.key }.map {
                        SensorLogCodec.Entry(sensorID: $0.key, readings: $0.value.sorted { $0.sequence < $1.sequence })
                    }
                    try await sql.raw("INSERT INTO sensor_log (id, data) VALUES (\(bind: id), \(bind: Data(SensorLogCodec.encode(entries))))").run()
                    state.references[id] = logged.count
                    for (key, sensor) in touched where logged[sensor.record.id] != nil {
                        touched[key]?.logRows.append(id)
                    }
                }
                var deletable = [any Encodable & Sendable]()
                for id in released {
                    guard let count = state.references[id] else { continue }
                    if count <= 1 {
                        state.references[id] = nil
                        deletable.append(id)
                    } else {
                        state.references[id] = count - 1
                    }
                }
                for start in stride(from: 0, to: deletable.count, by: 500) {
                    try await sql.raw("DELETE FROM sensor_log WHERE id IN (\(binds: Array(deletable[start..<min(deletable.count, start + 500)])))").run()
                }
                log = state
            }
            try await Self.write(Array(blocks.values), sql, onlyExisting: logs)
            try await Self.writeLastValues(dirty.compactMap { touched[$0]?.record } + lastValues, sql, onlyExisting: logs)
            return (results, touched, log)
        }
        // Committed: remember what was written.
        known?.entries.withLock { known in
            // Forgetting a sensor whose newest block is only in the log would lose it: those stay.
            if known.count + touched.count > 100_000 { known = known.filter { $0.value.pendingSince != nil || $0.value.lastValuesDirty } }
            known.merge(touched) { _, new in new }
        }
        if let logAfter { known?.log.withLock { $0 = logAfter } }
        return results
    }

    /// Appends readings that follow every one of the sensor's newest block to it, keeping its
    /// tail; false (nothing changed) when the block cannot take them as they are.
    private static func append(_ readings: [SensorReading], to sensor: inout Known) -> Bool {
        guard var tail = sensor.tail ?? SensorBlockCodec.tail(of: sensor.bytes),
            SensorBlockCodec.append(readings, to: &sensor.bytes, tail: &tail)
        else {
            sensor.tail = nil
            return false
        }
        sensor.tail = tail
        return true
    }

    /// Readings by block, in block order; the usual frame (one block) without a dictionary.
    static func byBlock(_ readings: [SensorReading]) -> [(block: Int, readings: [SensorReading])] {
        guard let first = readings.first else { return [] }
        let block = SensorBlockCodec.block(of: first.sequence)
        if readings.allSatisfy({ SensorBlockCodec.block(of: $0.sequence) == block }) { return [(block, readings)] }
        return Dictionary(grouping: readings) { SensorBlockCodec.block(of: $0.sequence) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The sensors `wanted` names that exist, the missing ones created first (each account up to
    /// `SensorLimits.maximumPerUser`; past it a new sensor is left out); one entry per sensor.
    /// A new sensor has nothing in blocks (`folded_seq` -1, migration 35).
    static func createMissing(
        _ wanted: [(userID: String, address: String, gatewayID: String, now: Date)], _ sql: any SQLDatabase
    ) async throws -> [(userID: String, address: String, gatewayID: String, now: Date)] {
        var unique = [SensorKey: (userID: String, address: String, gatewayID: String, now: Date)]()
        for entry in wanted where unique[key(entry.userID, entry.address)] == nil { unique[key(entry.userID, entry.address)] = entry }
        var entries = unique.values.sorted { ($0.userID, $0.address) < ($1.userID, $1.address) }
        guard !entries.isEmpty else { return [] }
        // New sensors only up to each account's limit: the rows that exist, then room for the rest.
        var existing = Set<SensorKey>()
        var counts = [String: Int]()
        for (userID, group) in Dictionary(grouping: entries, by: \.userID) {
            counts[userID] = try await sql.readFirst("SELECT COUNT(*) AS n FROM sensors WHERE user_id = \(bind: userID)").map { try $0.int("n") } ?? 0
            for start in stride(from: 0, to: group.count, by: 500) {
                let addresses: [any Encodable & Sendable] = group[start..<min(group.count, start + 500)].map(\.address)
                for row in try await sql.readAll("SELECT address FROM sensors WHERE user_id = \(bind: userID) AND address IN (\(binds: addresses))") {
                    existing.insert(key(userID, try row.string("address")))
                }
            }
        }
        entries = entries.filter { entry in
            if existing.contains(key(entry.userID, entry.address)) { return true }
            guard counts[entry.userID, default: 0] < SensorLimits.maximumPerUser else { return false }
            counts[entry.userID, default: 0] += 1
            return true
        }
        let missing = entries.filter { !existing.contains(key($0.userID, $0.address)) }
        for start in stride(from: 0, to: missing.count, by: 300) {
            let rows: [SQLQueryString] = missing[start..<min(missing.count, start + 300)].map { entry in
                "(\(bind: UUID().uuidString.lowercased()), \(bind: entry.userID), \(bind: entry.address), \(bind: entry.gatewayID), \(bind: entry.gatewayID), \(bind: entry.now.millisecondsSince1970), -1)"
            }
            var query: SQLQueryString = "INSERT INTO sensors (id, user_id, address, gateway_id, feed_gateway_id, created_at, folded_seq) VALUES "
            query += rows.joined(separator: ", ")
            query += " ON CONFLICT (user_id, address) DO NOTHING"
            try await sql.raw(query).run()
        }
        return entries
    }

    /// Sensors' rows (created when first heard) and their newest blocks, by key: a few
    /// statements for the whole group rather than three for each sensor.
    static func loadAll(
        _ wanted: [(userID: String, address: String, gatewayID: String, now: Date)], _ sql: any SQLDatabase,
        lock: String
    ) async throws -> [SensorKey: Known] {
        let entries = try await createMissing(wanted, sql)
        guard !entries.isEmpty else { return [:] }
        var records = [SensorKey: SensorRecord]()
        for (userID, group) in Dictionary(grouping: entries, by: \.userID) {
            for start in stride(from: 0, to: group.count, by: 500) {
                let addresses: [any Encodable & Sendable] = group[start..<min(group.count, start + 500)].map(\.address)
                // Locking the sensors' rows serializes writers of their blocks (PostgreSQL;
                // SQLite has one writer anyway).
                for row in try await sql.readAll(
                    """
                    SELECT \(unsafeRaw: columns) FROM sensors WHERE user_id = \(bind: userID) AND address IN (\(binds: addresses))\(unsafeRaw: lock)
                    """)
                {
                    let record = try Self.record(row)
                    records[key(record.userID, record.address)] = record
                }
            }
        }
        var newest = [String: (block: Int, firstAt: Int, lastAt: Int, bytes: [UInt8])]()
        let ids = records.values.map(\.id)
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk: [any Encodable & Sendable] = Array(ids[start..<min(ids.count, start + 500)])
            for row in try await sql.readAll(
                """
                SELECT sensor_id, block, first_at, last_at, data FROM sensor_blocks b
                WHERE sensor_id IN (\(binds: chunk)) AND block = (SELECT MAX(block) FROM sensor_blocks m WHERE m.sensor_id = b.sensor_id)
                """)
            {
                newest[try row.string("sensor_id")] = (try row.int("block"), try row.int("first_at"), try row.int("last_at"), [UInt8](try row.data("data")))
            }
        }
        var known = [SensorKey: Known]()
        for (key, record) in records {
            guard let block = newest[record.id] else {
                known[key] = Known(record: record, block: -1, bytes: SensorBlockCodec.encode([]), count: 0, highestSequence: -1, firstAt: Int.max, lastAt: Int.min)
                continue
            }
            let summary = try SensorBlockCodec.summary(block.bytes)
            known[key] = Known(
                record: record, block: block.block, bytes: block.bytes, count: summary.count,
                highestSequence: summary.highestSequence ?? -1, firstAt: block.firstAt, lastAt: block.lastAt)
        }
        return known
    }

    /// The rows of a multi-row upsert whose first column is a sensor id: all of them, or
    /// (`onlyExisting`, SQLite) those whose sensor still exists, so that a block or last values
    /// written after an account's deletion neither fail the group nor bring the sensor back.
    static func values(_ rows: [SQLQueryString], onlyExisting: Bool) -> SQLQueryString {
        var query: SQLQueryString = onlyExisting ? "SELECT * FROM (VALUES " : "VALUES "
        query += rows.joined(separator: ", ")
        if onlyExisting { query += ") WHERE column1 IN (SELECT id FROM sensors)" }
        return query
    }

    /// Every changed block in multi-row upserts (at most 500 rows, 3,000 parameters, each).
    /// `onlyExisting`: blocks of sensors deleted since they were remembered are not written
    /// (SQLite, where a block may be written minutes after its readings came).
    static func write(_ blocks: [BlockWrite], _ sql: any SQLDatabase, onlyExisting: Bool = false) async throws {
        for start in stride(from: 0, to: blocks.count, by: 500) {
            let chunk = blocks[start..<min(blocks.count, start + 500)]
            let rows: [SQLQueryString] = chunk.map { block in
                "(\(bind: block.sensorID), \(bind: block.block), \(bind: block.count), \(bind: Int64(block.firstAt)), \(bind: Int64(block.lastAt)), \(bind: Data(block.bytes)))"
            }
            var query: SQLQueryString = "INSERT INTO sensor_blocks (sensor_id, block, reading_count, first_at, last_at, data) "
            query += Self.values(rows, onlyExisting: onlyExisting)
            query += """
                 ON CONFLICT (sensor_id, block) DO UPDATE SET reading_count = excluded.reading_count,
                    first_at = excluded.first_at, last_at = excluded.last_at, data = excluded.data
                """
            try await sql.raw(query).run()
        }
    }

    /// The sensors' last values, in multi-row upserts keyed by id (`onlyExisting`: not for
    /// sensors deleted since, on SQLite where they are written up to 10 s later).
    static func writeLastValues(_ sensors: [SensorRecord], _ sql: any SQLDatabase, onlyExisting: Bool = false) async throws {
        for start in stride(from: 0, to: sensors.count, by: 300) {
            let chunk = sensors[start..<min(sensors.count, start + 300)]
            let rows: [SQLQueryString] = chunk.map { sensor in
                """
                (\(bind: sensor.id), \(bind: sensor.userID), \(bind: sensor.address), \(bind: sensor.createdAt.millisecondsSince1970), \(bind: sensor.gatewayID),
                 \(bind: sensor.lastAt?.millisecondsSince1970), \(bind: sensor.lastBeatsPerMinute), \(bind: sensor.lastContact?.rawValue), \(bind: sensor.battery))
                """
            }
            var query: SQLQueryString = "INSERT INTO sensors (id, user_id, address, created_at, gateway_id, last_at, last_bpm, last_contact, battery) "
            query += Self.values(rows, onlyExisting: onlyExisting)
            query += """
                 ON CONFLICT (id) DO UPDATE SET gateway_id = excluded.gateway_id, last_at = excluded.last_at, last_bpm = excluded.last_bpm,
                    last_contact = excluded.last_contact, battery = excluded.battery
                """
            try await sql.raw(query).run()
        }
    }

    func list(userID: String) async throws -> [SensorRecord] {
        let unwritten = unwrittenLastValues(userID: userID)
        return overlay(
            try await database.all(
                """
                SELECT \(unsafeRaw: Self.columns) FROM sensors WHERE user_id = \(bind: userID)\(unsafeRaw: Self.visible) ORDER BY created_at, address
                """
            ).map(Self.record), unwritten)
    }

    /// SQLite: the last values not yet written (see `Known.lastValuesDirty`), taken before the
    /// query that reads the rows.
    private func unwrittenLastValues(userID: String) -> [String: SensorRecord] {
        guard let known else { return [:] }
        return known.entries.withLock { entries in
            var newer = [String: SensorRecord]()
            for entry in entries.values where entry.lastValuesDirty && entry.record.userID == userID { newer[entry.record.id] = entry.record }
            return newer
        }
    }

    /// The rows with the newer of their last values and those of memory.
    private func overlay(_ records: [SensorRecord], _ newer: [String: SensorRecord]) -> [SensorRecord] {
        guard !newer.isEmpty else { return records }
        return records.map { record in
            guard let memory = newer[record.id], (memory.lastAt ?? .distantPast) >= (record.lastAt ?? .distantPast) else { return record }
            var record = record
            record.gatewayID = memory.gatewayID
            record.lastAt = memory.lastAt
            record.lastBeatsPerMinute = memory.lastBeatsPerMinute
            record.lastContact = memory.lastContact
            record.battery = memory.battery
            return record
        }
    }

    func list(userID: String, limit: Int, offset: Int) async throws -> (sensors: [SensorRecord], more: Bool) {
        let unwritten = unwrittenLastValues(userID: userID)
        let rows = try await database.all(
            """
            SELECT \(unsafeRaw: Self.columns) FROM sensors WHERE user_id = \(bind: userID)\(unsafeRaw: Self.visible) ORDER BY created_at, address
            LIMIT \(bind: limit + 1) OFFSET \(bind: offset)
            """
        ).map(Self.record)
        return (overlay(Array(rows.prefix(limit)), unwritten), rows.count > limit)
    }

    func find(id: String, userID: String) async throws -> SensorRecord? {
        let unwritten = unwrittenLastValues(userID: userID)
        return try await database.first(
            """
            SELECT \(unsafeRaw: Self.columns) FROM sensors WHERE id = \(bind: id) AND user_id = \(bind: userID)\(unsafeRaw: Self.visible)
            """
        ).map { overlay([try Self.record($0)], unwritten)[0] }
    }

    func feeds(userID: String, addresses: [String]) async throws -> [String: StrapFeeds.Stored] {
        var result = [String: StrapFeeds.Stored]()
        for start in stride(from: 0, to: addresses.count, by: 500) {
            let chunk: [any Encodable & Sendable] = Array(addresses[start..<min(addresses.count, start + 500)])
            var idsByAddress = [String: String]()
            var feeds = [String: StrapFeeds.Feed]()
            for row in try await database.all(
                "SELECT id, address, feed_gateway_id, feed_offset, feed_base, feed_shift FROM sensors WHERE user_id = \(bind: userID) AND address IN (\(binds: chunk))")
            {
                let address = try row.string("address")
                idsByAddress[address] = try row.string("id")
                if let gateway = try row.optionalString("feed_gateway_id") {
                    feeds[address] = StrapFeeds.Feed(
                        gatewayID: gateway, offset: try row.optionalInt("feed_offset") ?? 0, base: try row.optionalInt("feed_base") ?? Int.min,
                        shift: try row.optionalInt("feed_shift") ?? 0)
                }
            }
            guard !idsByAddress.isEmpty else { continue }
            // Above every sequence number held: the blocks (whole blocks of 256), the pending
            // rows (PostgreSQL), what this process remembers (SQLite's log, claims).
            var floor = [String: Int]()
            let ids: [any Encodable & Sendable] = Array(idsByAddress.values)
            for row in try await database.all("SELECT sensor_id, MAX(block) AS b FROM sensor_blocks WHERE sensor_id IN (\(binds: ids)) GROUP BY sensor_id") {
                let block = try row.int("b")
                let (next, overflow) = (block + 1).multipliedReportingOverflow(by: SensorBlockCodec.readingsPerBlock)
                floor[try row.string("sensor_id")] = overflow ? Int.max : next
            }
            if database.engine == .postgres {
                for row in try await database.all("SELECT sensor_id, MAX(seq) AS s FROM sensor_pending WHERE sensor_id IN (\(binds: ids)) GROUP BY sensor_id") {
                    let id = try row.string("sensor_id")
                    floor[id] = max(floor[id] ?? 0, try row.int("s") &+ 1)
                }
            }
            let remembered = known?.entries.withLock { entries in
                idsByAddress.keys.compactMap { address in entries[SensorKey(userID: userID, address: address)].map { (address, $0.highestSequence) } }
            }
            for (address, id) in idsByAddress {
                var sensorFloor = floor[id] ?? 0
                if let highest = remembered?.first(where: { $0.0 == address })?.1 { sensorFloor = max(sensorFloor, highest &+ 1) }
                if let highest = cursor.highest(userID: userID, address: address) { sensorFloor = max(sensorFloor, highest &+ 1) }
                result[address] = StrapFeeds.Stored(feed: feeds[address], sequenceFloor: sensorFloor)
            }
        }
        return result
    }

    func setFeed(userID: String, address: String, _ feed: StrapFeeds.Feed) async throws {
        let base: Int64? = feed.base == Int.min ? nil : Int64(feed.base)
        try await database.execute(
            """
            UPDATE sensors SET feed_gateway_id = \(bind: feed.gatewayID), feed_offset = \(bind: Int64(feed.offset)),
            feed_base = \(bind: base), feed_shift = \(bind: Int64(feed.shift)) WHERE user_id = \(bind: userID) AND address = \(bind: address)
            """)
    }

    func rename(id: String, userID: String, to name: String?) async throws -> Bool {
        let renamed = try await database.transaction { sql -> Bool in
            guard try await sql.readFirst("SELECT id FROM sensors WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            try await sql.raw("UPDATE sensors SET name = \(bind: name) WHERE id = \(bind: id)").run()
            return true
        }
        // The remembered row carries the name to viewers: it takes the new one.
        cursor.rename(id: id, to: name)
        known?.entries.withLock { known in
            for (key, entry) in known where entry.record.id == id { known[key]?.record.name = name }
        }
        return renamed
    }

    func readings(sensorID: String, from: Date, to: Date) async throws -> [SensorReading] {
        let start = from.millisecondsSince1970
        let end = to.millisecondsSince1970
        // SQLite: a newest block whose readings are (partly) still in the log is taken from
        // memory, as it stood before the query, and merged with its row: a group committing
        // in between (writing the block, moving on) loses nothing.
        let pendingInMemory = known?.entries.withLock { entries in entries.values.first { $0.record.id == sensorID && $0.pendingSince != nil } }
        let pending = database.engine == .postgres ? try await Self.pendingReadings(sensorID: sensorID, start: start, end: end, database) : []
        let rows = try await database.all(
            """
            SELECT block, data FROM sensor_blocks
            WHERE sensor_id = \(bind: sensorID) AND last_at >= \(bind: start) AND first_at < \(bind: end)
            ORDER BY block
            """)
        var blocks = [Int: [SensorReading]]()
        for row in rows { blocks[try row.int("block")] = try SensorBlockCodec.decode([UInt8](try row.data("data"))) }
        if let pending = pendingInMemory {
            for block in pending.sealed + [
                BlockWrite(sensorID: sensorID, block: pending.block, bytes: pending.bytes, count: pending.count, firstAt: pending.firstAt, lastAt: pending.lastAt)
            ] where Int64(block.lastAt) >= start && Int64(block.firstAt) < end {
                blocks[block.block] = SensorBlockCodec.merge(blocks[block.block] ?? [], try SensorBlockCodec.decode(block.bytes)).merged
            }
        }
        var readings = [SensorReading]()
        for (_, block) in blocks {
            readings += block.filter { Int64($0.atMilliseconds) >= start && Int64($0.atMilliseconds) < end }
        }
        if !pending.isEmpty {
            // PostgreSQL: what waits in the pending rows, read before the blocks (a fold in
            // between leaves it in both, never in neither); each sequence once.
            let inBlocks = Set(readings.map(\.sequence))
            readings += pending.filter { !inBlocks.contains($0.sequence) }
        }
        return readings.sorted { ($0.atMilliseconds, $0.sequence) < ($1.atMilliseconds, $1.sequence) }
    }

    /// Folds what the log holds into the blocks (SQLite, once per process, before the first
    /// group: the rows a crash or kill left behind; after a clean shutdown the log is empty),
    /// and brings the sensors' last values up to their newest reading (written every 10 s, so
    /// a kill may have left them behind). Returns how many log rows could not be read (damage
    /// on disk): they are dropped with the rest, so that the log starts empty.
    @discardableResult
    static func recoverLog(_ database: DatabaseConnection, known: KnownSensors) async throws -> Int {
        guard !known.log.withLock({ $0.recovered }) else { return 0 }
        let unreadable = try await database.transaction { sql -> Int in
            var bySensor = [String: [SensorReading]]()
            var unreadable = 0
            for row in try await sql.readAll("SELECT id, data FROM sensor_log ORDER BY id") {
                guard let entries = try? SensorLogCodec.decode([UInt8](try row.data("data"))) else {
                    unreadable += 1
                    continue
                }
                for entry in entries { bySensor[entry.sensorID, default: []] += entry.readings }
            }
            var writes = [BlockWrite]()
            for (sensorID, readings) in bySensor.sorted(by: { $0.key < $1.key }) {
                for (block, blockReadings) in Dictionary(grouping: readings, by: { SensorBlockCodec.block(of: $0.sequence) }) {
                    let stored =
                        try await sql.readFirst(
                            "SELECT data FROM sensor_blocks WHERE sensor_id = \(bind: sensorID) AND block = \(bind: block)"
                        ).map { try SensorBlockCodec.decode([UInt8](try $0.data("data"))) } ?? []
                    let (merged, new) = SensorBlockCodec.merge(stored, blockReadings)
                    guard !new.isEmpty, let first = merged.map(\.atMilliseconds).min(), let last = merged.map(\.atMilliseconds).max() else { continue }
                    writes.append(
                        BlockWrite(sensorID: sensorID, block: block, bytes: SensorBlockCodec.encode(merged), count: merged.count, firstAt: first, lastAt: last))
                }
                // What it said last, when newer than the row's.
                if let newest = readings.max(by: { $0.atMilliseconds < $1.atMilliseconds }) {
                    try await sql.raw(
                        """
                        UPDATE sensors SET last_at = \(bind: Int64(newest.atMilliseconds)), last_bpm = \(bind: newest.beatsPerMinute),
                            last_contact = \(bind: newest.contact.rawValue), battery = COALESCE(\(bind: newest.battery), battery)
                        WHERE id = \(bind: sensorID) AND (last_at IS NULL OR last_at <= \(bind: Int64(newest.atMilliseconds)))
                        """
                    ).run()
                }
            }
            try await Self.write(writes, sql, onlyExisting: true)
            try await sql.raw("DELETE FROM sensor_log").run()
            return unreadable
        }
        known.log.withLock { $0 = LogState(recovered: true) }
        known.entries.withLock { $0.removeAll() }
        return unreadable
    }

    /// Opens the log (SQLite): folds what a previous process left in it; the number of rows
    /// that could not be read.
    func recover() async throws -> Int {
        guard let known else { return 0 }
        return try await Self.recoverLog(database, known: known)
    }

    static func record(_ row: any ColumnReader) throws -> SensorRecord {
        SensorRecord(
            id: try row.string("id"), userID: try row.string("user_id"), address: try row.string("address"),
            name: try row.optionalString("name"), gatewayID: try row.optionalString("gateway_id"), createdAt: try row.date("created_at"),
            lastAt: try row.optionalDate("last_at"), lastBeatsPerMinute: try row.optionalInt("last_bpm"),
            lastContact: try row.optionalString("last_contact").flatMap(SensorContact.init(rawValue:)), battery: try row.optionalInt("battery"))
    }
}
