import Foundation
import HeartworkCore
import HeartworkFormats
import SQLKit
import Synchronization

/// PostgreSQL's live feed (issue 26, migration 35): each reading is one row of
/// `sensor_pending`, keyed by its sensor and sequence, so the insert itself says which readings
/// are new; a sensor's rows are folded into its blocks once the oldest has waited
/// `SQLSensorRepository.foldAfter` (`sensors.pending_since`). Several instances write: a group
/// holds the advisory locks of its sensors' buckets shared, a fold holds its sensors' buckets
/// exclusively, so a fold never runs beside a group that could add to what it folds. A reading
/// at or below its sensor's `folded_seq` (late, or a resend of one already folded) is merged
/// into its block at once under the sensor's row lock, as every reading was before; a sensor
/// whose `folded_seq` is not known yet (stored before migration 35) takes that path once, which
/// sets it.
///
/// Measured before (every changed block rewritten under its row lock at every group): one
/// instance kept up with 3,000 straps, not 5,000 (docs/BENCHMARKS.md, "Live ingest").
extension SQLSensorRepository {
    /// Advisory-lock buckets: a group takes at most this many locks whatever its size (one per
    /// account it stores for, in practice; PostgreSQL's shared lock table holds
    /// `max_locks_per_transaction` 64 × 100 connections = 6,400 by default).
    static let lockBuckets = 1024
    /// The advisory locks' first key ("HW"), apart from the migrations' lock.
    static let lockSpace = 18_519
    /// Sensors one fold transaction takes, and at most per second: three times what 10,000
    /// straps need (10,000 / 120 s = 83). A fold holds its sensors' buckets exclusively, and a
    /// group of a few hundred straps spans most buckets, so groups wait while a fold runs: at
    /// 1,000 a second, 10,000 straps that started together (all due at once) held acks back
    /// 5 s (ack p99 of that tenth of the run); spread over 40 s, the folds then stay spread.
    static let foldBatch = 50
    static let foldsPerSecondAtMost = 250

    /// A sensor's bucket: FNV-1a of its account, the same in every instance. By account, not
    /// by strap: a group holds the buckets of the one or two clubs whose frames it stores, and a
    /// fold (sensors that started together: one club's, mostly) those of one or two clubs, so
    /// they seldom meet. Measured: with a bucket per strap, a group of a few hundred straps held
    /// most buckets, every fold held up every group, and at 10,000 straps on one instance the
    /// acks fell behind once the folds began (ack p99 295 ms, then 3.8 s, growing).
    static func bucket(_ key: SensorKey) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in key.userID.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % UInt32(lockBuckets))
    }

    /// Takes the buckets' advisory locks until the transaction ends, in bucket order (every
    /// transaction takes them in that order: no deadlock between them).
    static func lock(buckets: Set<Int>, shared: Bool, _ sql: any SQLDatabase) async throws {
        guard !buckets.isEmpty else { return }
        let function = shared ? "pg_advisory_xact_lock_shared" : "pg_advisory_xact_lock"
        let list = buckets.sorted().map(String.init).joined(separator: ",")
        try await sql.raw(
            "SELECT \(unsafeRaw: function)(\(unsafeRaw: String(lockSpace)), b) FROM unnest(ARRAY[\(unsafeRaw: list)]::int[]) WITH ORDINALITY AS t(b, n) ORDER BY n"
        ).run()
    }

    /// A sensor's row as a PostgreSQL group reads it.
    struct PendingRow {
        var record: SensorRecord
        var foldedSequence: Int?
        var pendingSince: Int64?
    }

    static func storeGroupPostgres(_ jobs: [Job], database: DatabaseConnection) async throws -> [Outcome] {
        let groupStart = jobs.map(\.now).max() ?? Date()
        let readingJobs = jobs.filter { !$0.foldAll }
        return try await database.transaction { sql -> [Outcome] in
            // The gateways first (held until the commit: a revocation waits for this store).
            let gatewayIDs: [any Encodable & Sendable] = Array(Set(readingJobs.map(\.gatewayID)))
            let live =
                gatewayIDs.isEmpty
                ? Set<String>()
                : Set(try await sql.readAll("SELECT id FROM gateways WHERE id IN (\(binds: gatewayIDs)) FOR SHARE").map { try $0.string("id") })
            let liveJobs = readingJobs.filter { live.contains($0.gatewayID) }
            var wanted = [(userID: String, address: String, gatewayID: String, now: Date)]()
            for job in liveJobs {
                for (address, readings) in job.readings where !readings.isEmpty { wanted.append((job.userID, address, job.gatewayID, job.now)) }
            }
            // Shared bucket locks before the rows are read: a fold that moved `folded_seq` on
            // has committed, and none starts on these sensors until this group has.
            try await Self.lock(buckets: Set(wanted.map { Self.bucket(Self.key($0.userID, $0.address)) }), shared: true, sql)
            let entries = try await Self.createMissing(wanted, sql)
            var rows = [SensorKey: PendingRow]()
            for (userID, group) in Dictionary(grouping: entries, by: \.userID) {
                for start in stride(from: 0, to: group.count, by: 500) {
                    let addresses: [any Encodable & Sendable] = group[start..<min(group.count, start + 500)].map(\.address)
                    for row in try await sql.readAll(
                        """
                        SELECT \(unsafeRaw: Self.columns), folded_seq, pending_since FROM sensors WHERE user_id = \(bind: userID) AND address IN (\(binds: addresses))
                        """)
                    {
                        let record = try Self.record(row)
                        rows[Self.key(userID, record.address)] = PendingRow(
                            record: record, foldedSequence: try row.optionalInt("folded_seq"),
                            pendingSince: try row.optionalInt("pending_since").map { Int64($0) })
                    }
                }
            }
            // Each reading goes to the pending rows (above `folded_seq`) or straight to its block.
            var inserts = [(sensorID: String, reading: SensorReading)]()
            var direct = [String: [SensorReading]]()
            var unknownFolded = Set<String>()
            var upsert = Set<SensorKey>()
            for job in liveJobs {
                for (address, incoming) in job.readings where !incoming.isEmpty {
                    let key = Self.key(job.userID, address)
                    guard var row = rows[key] else { continue }
                    if let folded = row.foldedSequence {
                        for reading in incoming {
                            if reading.sequence > folded {
                                inserts.append((row.record.id, reading))
                                if row.pendingSince == nil {
                                    // The fold's clock starts (a sensor whose rows all turn out
                                    // to be resends is simply found empty by the fold).
                                    row.pendingSince = groupStart.millisecondsSince1970
                                    upsert.insert(key)
                                }
                            } else {
                                direct[row.record.id, default: []].append(reading)
                                upsert.insert(key)
                            }
                        }
                    } else {
                        direct[row.record.id, default: []] += incoming
                        unknownFolded.insert(row.record.id)
                        upsert.insert(key)
                    }
                    // What it said last: the newest reading, if newer than the row's (a resend
                    // says what the row says already).
                    if let newest = incoming.max(by: { $0.atMilliseconds < $1.atMilliseconds }),
                        newest.atMilliseconds > (row.record.lastAt?.millisecondsSince1970 ?? Int64.min)
                    {
                        row.record.lastAt = Date(milliseconds: Int64(newest.atMilliseconds))
                        row.record.lastBeatsPerMinute = newest.beatsPerMinute
                        row.record.lastContact = newest.contact
                        row.record.battery = newest.battery ?? row.record.battery
                        row.record.gatewayID = job.gatewayID
                        upsert.insert(key)
                    }
                    rows[key] = row
                }
            }
            // One pass of row locks, in id order, for every row the group writes (last values,
            // the fold's clock, the late readings' blocks): no two groups wait on each other.
            try await Self.writeRows(upsert.compactMap { rows[$0] }.sorted { $0.record.id < $1.record.id }, sql)
            // A sensor whose `folded_seq` was not known: now that its row is locked, another
            // group may have learnt it (and sent readings above it to the pending rows): read
            // again, and route its readings by it as any other sensor's.
            if !unknownFolded.isEmpty {
                let ids: [any Encodable & Sendable] = unknownFolded.sorted()
                for row in try await sql.readAll("SELECT id, folded_seq FROM sensors WHERE id IN (\(binds: ids)) AND folded_seq IS NOT NULL") {
                    let sensorID = try row.string("id")
                    let folded = try row.int("folded_seq")
                    unknownFolded.remove(sensorID)
                    let readings = direct[sensorID] ?? []
                    direct[sensorID] = readings.filter { $0.sequence <= folded }
                    let above = readings.filter { $0.sequence > folded }
                    guard !above.isEmpty else { continue }
                    inserts += above.map { (sensorID, $0) }
                    // Its row is locked already (above): the fold's clock starts.
                    try await sql.raw(
                        "UPDATE sensors SET pending_since = \(bind: groupStart.millisecondsSince1970) WHERE id = \(bind: sensorID) AND pending_since IS NULL"
                    ).run()
                }
            }
            var added = [String: [SensorReading]]()
            // The pending rows: a resend is refused by the key (one reading twice in the group
            // is sent once), and what was inserted is what is new.
            var seen = Set<PendingKey>()
            inserts = inserts.filter { seen.insert(PendingKey(sensorID: $0.sensorID, sequence: $0.reading.sequence)).inserted }
            // In key order: two groups inserting the same keys wait on each other in one order.
            inserts.sort { ($0.sensorID, $0.reading.sequence) < ($1.sensorID, $1.reading.sequence) }
            var byKey = [PendingKey: SensorReading]()
            for insert in inserts { byKey[PendingKey(sensorID: insert.sensorID, sequence: insert.reading.sequence)] = insert.reading }
            for start in stride(from: 0, to: inserts.count, by: 1_000) {
                let chunk = inserts[start..<min(inserts.count, start + 1_000)]
                let values: [SQLQueryString] = chunk.map { insert in
                    "(\(bind: insert.sensorID), \(bind: Int64(insert.reading.sequence)), \(bind: Int64(insert.reading.atMilliseconds)), \(bind: Data(SensorBlockCodec.encode([insert.reading]))))"
                }
                var query: SQLQueryString = "INSERT INTO sensor_pending (sensor_id, seq, at, data) VALUES "
                query += values.joined(separator: ", ")
                query += " ON CONFLICT (sensor_id, seq) DO NOTHING RETURNING sensor_id, seq"
                for row in try await sql.readAll(query) {
                    let key = PendingKey(sensorID: try row.string("sensor_id"), sequence: try row.int("seq"))
                    if let reading = byKey[key] { added[key.sensorID, default: []].append(reading) }
                }
            }
            // Late readings (and every reading of a sensor whose `folded_seq` is not known yet):
            // into their blocks now; their rows are locked above.
            if !direct.isEmpty {
                for (sensorID, new) in try await Self.mergeIntoBlocks(direct, setFolded: unknownFolded, sql) {
                    added[sensorID, default: []] += new
                }
            }
            // The answers frame by frame: each new reading to the first frame of the group that sent it.
            var results = [Outcome]()
            for job in jobs {
                if job.foldAll {
                    results.append(.stored(SensorStoreResult(stored: [])))
                    continue
                }
                guard live.contains(job.gatewayID) else {
                    results.append(.revoked)
                    continue
                }
                var stored = [StoredSensorReadings]()
                var refused = [(address: String, highestSequence: Int)]()
                for (address, incoming) in job.readings.sorted(by: { $0.key < $1.key }) where !incoming.isEmpty {
                    guard let row = rows[Self.key(job.userID, address)] else {
                        refused.append((address, incoming.map(\.sequence).max() ?? 0))
                        continue
                    }
                    var mine = [SensorReading]()
                    if var new = added[row.record.id] {
                        let sequences = Set(incoming.map(\.sequence))
                        mine = new.filter { sequences.contains($0.sequence) }
                        new.removeAll { sequences.contains($0.sequence) }
                        added[row.record.id] = new
                    }
                    mine.sort { $0.sequence < $1.sequence }
                    stored.append(StoredSensorReadings(sensor: row.record, added: mine, highestSequence: incoming.map(\.sequence).max() ?? 0))
                }
                results.append(.stored(SensorStoreResult(stored: stored, refused: refused)))
            }
            return results
        }
    }

    /// The sensors' last values and fold clocks, in multi-row upserts keyed by id, in the order
    /// given (which locks the rows in that order). Last values only move forward: a group that
    /// read the row before another instance's newer commit does not undo it.
    static func writeRows(_ rows: [PendingRow], _ sql: any SQLDatabase) async throws {
        let newer = "(sensors.last_at IS NULL OR (excluded.last_at IS NOT NULL AND excluded.last_at >= sensors.last_at))"
        for start in stride(from: 0, to: rows.count, by: 300) {
            let chunk = rows[start..<min(rows.count, start + 300)]
            let values: [SQLQueryString] = chunk.map { row in
                let sensor = row.record
                return """
                    (\(bind: sensor.id), \(bind: sensor.userID), \(bind: sensor.address), \(bind: sensor.createdAt.millisecondsSince1970), \(bind: sensor.gatewayID),
                     \(bind: sensor.lastAt?.millisecondsSince1970), \(bind: sensor.lastBeatsPerMinute), \(bind: sensor.lastContact?.rawValue), \(bind: sensor.battery),
                     \(bind: row.pendingSince))
                    """
            }
            var query: SQLQueryString =
                "INSERT INTO sensors (id, user_id, address, created_at, gateway_id, last_at, last_bpm, last_contact, battery, pending_since) VALUES "
            query += values.joined(separator: ", ")
            query += """
                 ON CONFLICT (id) DO UPDATE SET
                    gateway_id = CASE WHEN \(unsafeRaw: newer) THEN excluded.gateway_id ELSE sensors.gateway_id END,
                    last_bpm = CASE WHEN \(unsafeRaw: newer) THEN excluded.last_bpm ELSE sensors.last_bpm END,
                    last_contact = CASE WHEN \(unsafeRaw: newer) THEN excluded.last_contact ELSE sensors.last_contact END,
                    battery = CASE WHEN \(unsafeRaw: newer) THEN excluded.battery ELSE sensors.battery END,
                    last_at = CASE WHEN \(unsafeRaw: newer) THEN excluded.last_at ELSE sensors.last_at END,
                    pending_since = COALESCE(sensors.pending_since, excluded.pending_since)
                """
            try await sql.raw(query).run()
        }
    }

    struct PendingKey: Hashable {
        let sensorID: String
        let sequence: Int
    }

    /// Merges readings into their blocks (the caller holds the sensors' row locks); for the
    /// sensors of `setFolded`, then sets `folded_seq` to the highest sequence their newest block
    /// holds. Returns what each sensor gained.
    static func mergeIntoBlocks(_ readings: [String: [SensorReading]], setFolded: Set<String>, _ sql: any SQLDatabase) async throws -> [String: [SensorReading]] {
        let ids = readings.keys.sorted()
        var added = [String: [SensorReading]]()
        var writes = [BlockWrite]()
        // The blocks they fall in, read a few hundred at a time (a fold takes 100 sensors).
        let wanted = ids.flatMap { sensorID in byBlock(readings[sensorID] ?? []).map { (sensorID: sensorID, block: $0.block, readings: $0.readings) } }
        var existing = [String: [UInt8]]()
        for start in stride(from: 0, to: wanted.count, by: 300) {
            let pairs: [SQLQueryString] = wanted[start..<min(wanted.count, start + 300)].map { "(\(bind: $0.sensorID), \(bind: Int64($0.block)))" }
            var query: SQLQueryString = "SELECT sensor_id, block, data FROM sensor_blocks WHERE (sensor_id, block) IN (VALUES "
            query += pairs.joined(separator: ", ")
            query += ")"
            for row in try await sql.readAll(query) {
                existing["\(try row.string("sensor_id"))/\(try row.int("block"))"] = [UInt8](try row.data("data"))
            }
        }
        for (sensorID, block, blockReadings) in wanted {
            let stored = try existing["\(sensorID)/\(block)"].map { try SensorBlockCodec.decode($0) } ?? []
            let (merged, new) = SensorBlockCodec.merge(stored, blockReadings)
            guard !new.isEmpty, let first = merged.map(\.atMilliseconds).min(), let last = merged.map(\.atMilliseconds).max() else { continue }
            writes.append(BlockWrite(sensorID: sensorID, block: block, bytes: SensorBlockCodec.encode(merged), count: merged.count, firstAt: first, lastAt: last))
            added[sensorID, default: []] += new
        }
        try await write(writes, sql)
        let unknown = setFolded.sorted()
        for start in stride(from: 0, to: unknown.count, by: 500) {
            let chunk: [any Encodable & Sendable] = Array(unknown[start..<min(unknown.count, start + 500)])
            var highest = [String: Int]()
            for row in try await sql.readAll(
                """
                SELECT sensor_id, data FROM sensor_blocks b
                WHERE sensor_id IN (\(binds: chunk)) AND block = (SELECT MAX(block) FROM sensor_blocks m WHERE m.sensor_id = b.sensor_id)
                """)
            {
                highest[try row.string("sensor_id")] = try SensorBlockCodec.summary([UInt8](try row.data("data"))).highestSequence
            }
            for case let sensorID as String in chunk {
                try await sql.raw("UPDATE sensors SET folded_seq = \(bind: Int64(highest[sensorID] ?? -1)) WHERE id = \(bind: sensorID) AND folded_seq IS NULL").run()
            }
        }
        return added
    }

    /// Folds the pending rows of sensors whose oldest has waited `foldAfter` (or, `all`, of
    /// every sensor pending at `now`) into their blocks, `foldBatch` sensors a transaction, at most
    /// `foldsPerSecondAtMost` sensors a call unless `all`. Returns how many sensors it folded.
    @discardableResult
    static func foldPending(_ database: DatabaseConnection, now: Date, all: Bool) async throws -> Int {
        // `all` folds what was pending when asked, not what other instances add meanwhile (else
        // it would not end while they stream).
        let asked = now.millisecondsSince1970
        var folded = 0
        while all || folded < foldsPerSecondAtMost {
            let cutoff = now.addingTimeInterval(-foldAfter).millisecondsSince1970
            let due = try await database.all(
                "SELECT id, user_id, address FROM sensors WHERE pending_since IS NOT NULL AND pending_since <= \(bind: all ? asked : cutoff) ORDER BY pending_since LIMIT \(bind: foldBatch)"
            )
            guard !due.isEmpty else { break }
            let sensors = try due.map { (id: try $0.string("id"), key: Self.key(try $0.string("user_id"), try $0.string("address"))) }
            folded += try await database.transaction { sql -> Int in
                try await Self.lock(buckets: Set(sensors.map { Self.bucket($0.key) }), shared: false, sql)
                let ids: [any Encodable & Sendable] = sensors.map(\.id).sorted()
                // Another instance may have folded them meanwhile: only those still pending.
                var foldedSequence = [String: Int]()
                for row in try await sql.readAll(
                    "SELECT id, folded_seq FROM sensors WHERE id IN (\(binds: ids)) AND pending_since IS NOT NULL ORDER BY id FOR UPDATE")
                {
                    foldedSequence[try row.string("id")] = try row.optionalInt("folded_seq") ?? -1
                }
                guard !foldedSequence.isEmpty else { return 0 }
                let pendingIDs: [any Encodable & Sendable] = foldedSequence.keys.sorted()
                var readings = [String: [SensorReading]]()
                for row in try await sql.readAll("SELECT sensor_id, data FROM sensor_pending WHERE sensor_id IN (\(binds: pendingIDs))") {
                    readings[try row.string("sensor_id"), default: []] += try SensorBlockCodec.decode([UInt8](try row.data("data")))
                }
                _ = try await Self.mergeIntoBlocks(readings, setFolded: [], sql)
                try await sql.raw("DELETE FROM sensor_pending WHERE sensor_id IN (\(binds: pendingIDs))").run()
                for (sensorID, before) in foldedSequence {
                    let highest = max(before, readings[sensorID]?.map(\.sequence).max() ?? before)
                    try await sql.raw("UPDATE sensors SET folded_seq = \(bind: Int64(highest)), pending_since = NULL WHERE id = \(bind: sensorID)").run()
                }
                return foldedSequence.count
            }
            if due.count < foldBatch { break }
        }
        return folded
    }

    /// What a sensor's pending rows hold in [start, end) (PostgreSQL).
    static func pendingReadings(sensorID: String, start: Int64, end: Int64, _ database: DatabaseConnection) async throws -> [SensorReading] {
        try await database.all(
            "SELECT data FROM sensor_pending WHERE sensor_id = \(bind: sensorID) AND at >= \(bind: start) AND at < \(bind: end)"
        ).flatMap { try SensorBlockCodec.decode([UInt8](try $0.data("data"))) }
    }
}
