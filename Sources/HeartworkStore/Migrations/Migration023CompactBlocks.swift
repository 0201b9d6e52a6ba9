import Foundation
import HeartworkFormats
import SQLKit

extension Migration {
    /// Issue 26, a compact raw feed: every sensor block still in `SensorBlockCodec`'s format 1
    /// (about 24 bytes a reading) is re-encoded in format 2 (about 5–6), in Swift after the
    /// (no) statements, in the migration's transaction; `first_at`, `last_at` and
    /// `reading_count` stay as they were.
    static let compactBlocks = Migration(version: 23, name: "compact sensor blocks") { _ in [] }

    /// What a migration does in Swift after its statements, in its transaction, by version.
    static let work: [Int: @Sendable (any SQLDatabase) async throws -> Void] = [
        23: { sql in _ = try await CompactSensorBlocks.run(sql) },
        28: { sql in _ = try await SplitPlayerNames.run(sql) },
        35: { sql in _ = try await FoldedSequences.run(sql) },
    ]
}

/// Re-encodes the stored sensor blocks of format 1 in format 2, a batch of rows at a time
/// (keyset pagination by sensor and block, so each statement reads at most `batchSize` rows
/// whatever the table holds). Blocks already in format 2 are left alone, so running it again
/// changes nothing; a block that does not decode is left as it was (its reads report it).
enum CompactSensorBlocks {
    static let batchSize = 250

    /// How many blocks were re-encoded.
    static func run(_ sql: any SQLDatabase, batchSize: Int = batchSize) async throws -> Int {
        var after: (sensorID: String, block: Int)?
        var converted = 0
        while true {
            let rows: [any ColumnReader]
            if let after {
                rows = try await sql.readAll(
                    """
                    SELECT sensor_id, block, reading_count, first_at, last_at, data FROM sensor_blocks
                    WHERE (sensor_id, block) > (\(bind: after.sensorID), \(bind: after.block))
                    ORDER BY sensor_id, block LIMIT \(unsafeRaw: String(batchSize))
                    """)
            } else {
                rows = try await sql.readAll(
                    """
                    SELECT sensor_id, block, reading_count, first_at, last_at, data FROM sensor_blocks
                    ORDER BY sensor_id, block LIMIT \(unsafeRaw: String(batchSize))
                    """)
            }
            guard let last = rows.last else { break }
            after = (try last.string("sensor_id"), try last.int("block"))
            var writes = [SQLQueryString]()
            for row in rows {
                let data = [UInt8](try row.data("data"))
                guard data.first == 1, let readings = try? SensorBlockCodec.decode(data) else { continue }
                let bytes = Data(SensorBlockCodec.encode(readings))
                writes.append(
                    """
                    (\(bind: try row.string("sensor_id")), \(bind: try row.int("block")), \(bind: try row.int("reading_count")), \
                    \(bind: try row.int("first_at")), \(bind: try row.int("last_at")), \(bind: bytes))
                    """)
            }
            if !writes.isEmpty {
                var query: SQLQueryString = "INSERT INTO sensor_blocks (sensor_id, block, reading_count, first_at, last_at, data) VALUES "
                query += writes.joined(separator: ", ")
                query += " ON CONFLICT (sensor_id, block) DO UPDATE SET data = excluded.data"
                try await sql.raw(query).run()
                converted += writes.count
            }
            if rows.count < batchSize { break }
        }
        return converted
    }
}
