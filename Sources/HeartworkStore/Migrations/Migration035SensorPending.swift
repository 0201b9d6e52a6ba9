import Foundation
import HeartworkFormats
import SQLKit

extension Migration {
    /// Issue 26, PostgreSQL ingest that keeps up: each reading is one row in `sensor_pending`
    /// (its sensor and sequence the key, so a resend is refused by the database and "is it
    /// new?" is the insert's answer), rather than its sensor's newest block read and rewritten
    /// under the sensor's row lock at every group; a sensor's rows are folded into its blocks
    /// once the oldest has waited two minutes (`sensors.pending_since`), under an exclusive
    /// advisory lock on the sensor's bucket that the inserting groups hold shared. A sensor's
    /// `folded_seq` is the highest sequence the fold has moved into blocks: a reading at or
    /// below it (late) is merged into its block at once, as before. The migration sets it
    /// for every sensor from its newest block (`FoldedSequences`); NULL (a sensor an older
    /// instance made during a rolling upgrade) sends its readings down that path once, which sets
    /// it. SQLite (one
    /// writer, its log of migration 24) does not use the table. No foreign key: its check would
    /// lock the sensor's row for every reading; deletions name the table (AccountData, `remove`).
    static let sensorPending = Migration(version: 35, name: "live feed pending readings") { engine in
        [
            """
            CREATE TABLE sensor_pending (
                sensor_id TEXT NOT NULL,
                seq BIGINT NOT NULL,
                at BIGINT NOT NULL,
                data \(engine.blobType) NOT NULL,
                PRIMARY KEY (sensor_id, seq)
            )
            """,
            "ALTER TABLE sensors ADD COLUMN folded_seq BIGINT",
            "ALTER TABLE sensors ADD COLUMN pending_since BIGINT",
            "CREATE INDEX sensors_pending_since ON sensors (pending_since) WHERE pending_since IS NOT NULL",
        ]
    }
}

/// Migration 35's work: each sensor's `folded_seq` from its newest block (the highest sequence
/// it holds; -1 without blocks), a batch of sensors at a time by id, so that no sensor is left
/// for the slow path of an unknown `folded_seq` (which stays for a sensor an older instance
/// makes during a rolling upgrade). A block that does not decode leaves its sensor's NULL.
enum FoldedSequences {
    static let batchSize = 250

    /// How many sensors were given their `folded_seq`.
    static func run(_ sql: any SQLDatabase, batchSize: Int = batchSize) async throws -> Int {
        try await sql.raw(
            "UPDATE sensors SET folded_seq = -1 WHERE folded_seq IS NULL AND NOT EXISTS (SELECT 1 FROM sensor_blocks b WHERE b.sensor_id = sensors.id)"
        ).run()
        var after = ""
        var set = 0
        while true {
            let ids = try await sql.readAll(
                "SELECT id FROM sensors WHERE folded_seq IS NULL AND id > \(bind: after) ORDER BY id LIMIT \(unsafeRaw: String(batchSize))"
            ).map { try $0.string("id") }
            guard let last = ids.last else { break }
            after = last
            let chunk: [any Encodable & Sendable] = ids
            for row in try await sql.readAll(
                """
                SELECT sensor_id, data FROM sensor_blocks b
                WHERE sensor_id IN (\(binds: chunk)) AND block = (SELECT MAX(block) FROM sensor_blocks m WHERE m.sensor_id = b.sensor_id)
                """)
            {
                guard let highest = try? SensorBlockCodec.summary([UInt8](try row.data("data"))).highestSequence else { continue }
                try await sql.raw("UPDATE sensors SET folded_seq = \(bind: Int64(highest)) WHERE id = \(bind: try row.string("sensor_id"))").run()
                set += 1
            }
        }
        return set
    }
}
