import Foundation
import HeartworkCore
import HeartworkFormats
import SQLKit

struct SQLSensorRepository: SensorRepository {
    let database: DatabaseConnection
    static let columns = "id, user_id, address, name, gateway_id, created_at, last_at, last_bpm, last_contact, battery"

    func store(userID: String, gatewayID: String, readings: [String: [SensorReading]], now: Date) async throws -> [StoredSensorReadings] {
        let lock = database.engine == .postgres ? " FOR UPDATE" : ""
        return try await database.transaction { sql in
            var results = [StoredSensorReadings]()
            for (address, incoming) in readings.sorted(by: { $0.key < $1.key }) where !incoming.isEmpty {
                try await sql.raw("""
                    INSERT INTO sensors (id, user_id, address, gateway_id, created_at)
                    VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: userID), \(bind: address), \(bind: gatewayID),
                        \(bind: now.millisecondsSince1970))
                    ON CONFLICT (user_id, address) DO NOTHING
                    """).run()
                // Locking the sensor's row serializes writers of its blocks (PostgreSQL; SQLite
                // has one writer anyway).
                guard let row = try await sql.readFirst("""
                    SELECT \(unsafeRaw: Self.columns) FROM sensors WHERE user_id = \(bind: userID) AND address = \(bind: address)\(unsafeRaw: lock)
                    """) else { throw StoreError.corruptData("sensor \(address) vanished while being stored") }
                var sensor = try Self.record(row)
                var added = [SensorReading]()
                let byBlock = Dictionary(grouping: incoming) { SensorBlockCodec.block(of: $0.sequence) }
                for (block, blockReadings) in byBlock.sorted(by: { $0.key < $1.key }) {
                    let existing = try await sql.readFirst("""
                        SELECT data FROM sensor_blocks WHERE sensor_id = \(bind: sensor.id) AND block = \(bind: block)
                        """)
                    let stored = try existing.map { try SensorBlockCodec.decode([UInt8](try $0.data("data"))) } ?? []
                    let (merged, new) = SensorBlockCodec.merge(stored, blockReadings)
                    guard !new.isEmpty, let first = merged.map(\.atMilliseconds).min(), let last = merged.map(\.atMilliseconds).max() else { continue }
                    try await sql.raw("""
                        INSERT INTO sensor_blocks (sensor_id, block, reading_count, first_at, last_at, data)
                        VALUES (\(bind: sensor.id), \(bind: block), \(bind: merged.count), \(bind: first), \(bind: last),
                            \(bind: Data(SensorBlockCodec.encode(merged))))
                        ON CONFLICT (sensor_id, block) DO UPDATE SET reading_count = excluded.reading_count,
                            first_at = excluded.first_at, last_at = excluded.last_at, data = excluded.data
                        """).run()
                    added += new
                }
                // What it said last: the newest reading, if newer than what is known.
                if let newest = added.max(by: { $0.atMilliseconds < $1.atMilliseconds }),
                   newest.atMilliseconds >= (sensor.lastAt?.millisecondsSince1970 ?? Int64.min) {
                    sensor.lastAt = Date(milliseconds: Int64(newest.atMilliseconds))
                    sensor.lastBeatsPerMinute = newest.beatsPerMinute
                    sensor.lastContact = newest.contact
                    sensor.battery = newest.battery ?? sensor.battery
                    sensor.gatewayID = gatewayID
                    try await sql.raw("""
                        UPDATE sensors SET last_at = \(bind: Int64(newest.atMilliseconds)), last_bpm = \(bind: newest.beatsPerMinute),
                            last_contact = \(bind: newest.contact.rawValue), battery = \(bind: sensor.battery), gateway_id = \(bind: gatewayID)
                        WHERE id = \(bind: sensor.id)
                        """).run()
                }
                results.append(StoredSensorReadings(
                    sensor: sensor, added: added.sorted { $0.sequence < $1.sequence },
                    highestSequence: incoming.map(\.sequence).max() ?? 0))
            }
            return results
        }
    }

    func list(userID: String) async throws -> [SensorRecord] {
        try await database.all("""
            SELECT \(unsafeRaw: Self.columns) FROM sensors WHERE user_id = \(bind: userID) ORDER BY created_at, address
            """).map(Self.record)
    }

    func find(id: String, userID: String) async throws -> SensorRecord? {
        try await database.first("""
            SELECT \(unsafeRaw: Self.columns) FROM sensors WHERE id = \(bind: id) AND user_id = \(bind: userID)
            """).map(Self.record)
    }

    func rename(id: String, userID: String, to name: String?) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM sensors WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            try await sql.raw("UPDATE sensors SET name = \(bind: name) WHERE id = \(bind: id)").run()
            return true
        }
    }

    func readings(sensorID: String, from: Date, to: Date) async throws -> [SensorReading] {
        let start = from.millisecondsSince1970, end = to.millisecondsSince1970
        let rows = try await database.all("""
            SELECT data FROM sensor_blocks
            WHERE sensor_id = \(bind: sensorID) AND last_at >= \(bind: start) AND first_at < \(bind: end)
            ORDER BY block
            """)
        var readings = [SensorReading]()
        for row in rows {
            readings += try SensorBlockCodec.decode([UInt8](try row.data("data"))).filter {
                Int64($0.atMilliseconds) >= start && Int64($0.atMilliseconds) < end
            }
        }
        return readings.sorted { ($0.atMilliseconds, $0.sequence) < ($1.atMilliseconds, $1.sequence) }
    }

    static func record(_ row: any ColumnReader) throws -> SensorRecord {
        SensorRecord(
            id: try row.string("id"), userID: try row.string("user_id"), address: try row.string("address"),
            name: try row.optionalString("name"), gatewayID: try row.optionalString("gateway_id"), createdAt: try row.date("created_at"),
            lastAt: try row.optionalDate("last_at"), lastBeatsPerMinute: try row.optionalInt("last_bpm"),
            lastContact: try row.optionalString("last_contact").flatMap(SensorContact.init(rawValue:)), battery: try row.optionalInt("battery"))
    }
}
