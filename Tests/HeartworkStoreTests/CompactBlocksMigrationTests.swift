import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkTestSupport
import SQLKit
import Testing

@testable import HeartworkStore

/// Migration 023 (issue 26): sensor blocks written in format 1 are re-encoded in format 2,
/// a batch at a time, on both engines; the readings read back are the same, the rows'
/// counts and times unchanged, the bytes fewer, and a block already in format 2 untouched.
@Suite("Migration 023, compact sensor blocks")
struct CompactBlocksMigrationTests {
    struct Row: Hashable {
        let sensorID: String
        let block: Int
        let count: Int
        let firstAt: Int
        let lastAt: Int
        let data: [UInt8]
    }

    static func rows(_ sql: any SQLDatabase) async throws -> [Row] {
        try await sql.raw("SELECT sensor_id, block, reading_count, first_at, last_at, data FROM sensor_blocks ORDER BY sensor_id, block").all().map { row in
            Row(
                sensorID: try row.decode(column: "sensor_id", as: String.self), block: try row.decode(column: "block", as: Int.self),
                count: try row.decode(column: "reading_count", as: Int.self), firstAt: try row.decode(column: "first_at", as: Int.self),
                lastAt: try row.decode(column: "last_at", as: Int.self), data: [UInt8](try row.decode(column: "data", as: Data.self)))
        }
    }

    @Test(arguments: TestDatabase.all)
    func format1BlocksAreReencodedAndReadTheSame(_ engine: TestDatabase) async throws {
        try await engine.withFreshLocation { location in
            // Per sensor 150 blocks of 1–12 readings (300 rows: two batches), times out of
            // order within a block here and there, battery and RSSI sometimes missing.
            var random = SplitMix64(seed: 23)
            func truth(_ sensor: Int) -> [SensorReading] {
                (0..<150).flatMap { block in
                    (0..<(1 + block % 12)).map { index in
                        let sequence = block * 256 + index * 3
                        return SensorReading(
                            sequence: sequence, atMilliseconds: 1_795_400_000_000 + sequence * 1000 + Int(random.next() % 1500) + sensor,
                            beatsPerMinute: 60 + Int(random.next() % 90), contact: index % 5 == 0 ? .notDetected : .detected,
                            battery: index % 4 == 0 ? nil : 80, rssi: index % 3 == 0 ? nil : -70 + Int(random.next() % 9),
                            rrIntervalTicks: (0..<(index % 4)).map { _ in UInt16(600 + random.next() % 400) })
                    }
                }
            }
            let series = [truth(0), truth(1)]
            // The sensors are made the usual way.
            let user = UserRecord(username: "keeper", fullName: "Keeper", email: "k@example.org", passwordHash: "$2b$04$hash")
            let first = try await HeartworkStore.open(location, logger: TestDatabase.logger, connectionWaitSeconds: 60)
            let sensorIDs: [String]
            do {
                try await first.users.create(user)
                let gateway = GatewayRecord(userID: user.id, name: "Pi", tokenHash: String(repeating: "b", count: 64), createdAt: Date())
                try await first.gateways.create(gateway)
                _ = try await first.sensors.store(
                    userID: user.id, gatewayID: gateway.id, readings: ["strap-a": [series[0][0]], "strap-b": [series[1][0]]], now: Date())
                let listed = try await first.sensors.list(userID: user.id)
                sensorIDs = ["strap-a", "strap-b"].compactMap { address in listed.first { $0.address == address }?.id }
                try await first.shutdown()
            } catch {
                try? await first.shutdown()
                throw error
            }
            try #require(sensorIDs.count == 2)
            // Their blocks as format 1 wrote them, but for one already in format 2; migration 023 not yet run.
            let raw = try await DatabaseConnection.open(location, logger: TestDatabase.logger)
            let before: [Row]
            do {
                try await raw.sql.raw("DELETE FROM sensor_blocks").run()
                var rows = [SQLQueryString]()
                for (sensor, readings) in series.enumerated() {
                    for (block, inBlock) in Dictionary(grouping: readings, by: { SensorBlockCodec.block(of: $0.sequence) }) {
                        let bytes = sensor == 1 && block == 149 ? SensorBlockCodec.encode(inBlock) : SensorBlockFormat1.encode(inBlock)
                        let times = inBlock.map(\.atMilliseconds)
                        rows.append(
                            """
                            (\(bind: sensorIDs[sensor]), \(bind: block), \(bind: inBlock.count), \(bind: times.min() ?? 0), \(bind: times.max() ?? 0), \
                            \(bind: Data(bytes)))
                            """)
                    }
                }
                for start in stride(from: 0, to: rows.count, by: 100) {
                    var query: SQLQueryString = "INSERT INTO sensor_blocks (sensor_id, block, reading_count, first_at, last_at, data) VALUES "
                    query += rows[start..<min(rows.count, start + 100)].joined(separator: ", ")
                    try await raw.sql.raw(query).run()
                }
                try await raw.sql.raw("DELETE FROM schema_migrations WHERE version = 23").run()
                before = try await Self.rows(raw.sql)
                try await raw.shutdown()
            } catch {
                try? await raw.shutdown()
                throw error
            }
            #expect(before.count == 300 && before.filter { $0.data.first == 1 }.count == 299)
            // Opening the store runs migration 023.
            let store = try await HeartworkStore.open(location, logger: TestDatabase.logger, connectionWaitSeconds: 60)
            do {
                let after = try await Self.rows(store.database.sql)
                #expect(after.count == before.count && after.allSatisfy { $0.data.first == 2 })
                for (old, new) in zip(before, after) {
                    #expect(old.sensorID == new.sensorID && old.block == new.block && old.count == new.count && old.firstAt == new.firstAt && old.lastAt == new.lastAt)
                    #expect(try SensorBlockCodec.decode(old.data) == SensorBlockCodec.decode(new.data))
                    if old.data.first == 2 { #expect(old.data == new.data) }
                }
                let oldBytes = before.map(\.data.count).reduce(0, +)
                let newBytes = after.map(\.data.count).reduce(0, +)
                let readingCount = series.map(\.count).reduce(0, +)
                print(
                    "migration 023 (\(engine)): \(before.count) blocks, \(readingCount) readings, \(oldBytes) → \(newBytes) bytes "
                        + String(format: "(%.1f → %.1f a reading)", Double(oldBytes) / Double(readingCount), Double(newBytes) / Double(readingCount)))
                #expect(newBytes * 2 < oldBytes)
                for (sensor, readings) in series.enumerated() {
                    let read = try await store.sensors.readings(
                        sensorID: sensorIDs[sensor], from: Date(timeIntervalSince1970: 1_795_300_000), to: Date(timeIntervalSince1970: 1_795_500_000))
                    #expect(read == readings.sorted { ($0.atMilliseconds, $0.sequence) < ($1.atMilliseconds, $1.sequence) })
                }
                // Running it again, in small batches, finds nothing to do and changes nothing.
                #expect(try await CompactSensorBlocks.run(store.database.sql, batchSize: 7) == 0)
                #expect(try await Self.rows(store.database.sql) == after)
                try await store.shutdown()
            } catch {
                try? await store.shutdown()
                throw error
            }
        }
    }

    @Test(arguments: TestDatabase.all)
    func smallBatchesVisitEveryRow(_ engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let user = UserRecord(username: "pager", fullName: "Pager", email: "p@example.org", passwordHash: "$2b$04$hash")
            try await store.users.create(user)
            let gateway = GatewayRecord(userID: user.id, name: "Pi", tokenHash: String(repeating: "c", count: 64), createdAt: Date())
            try await store.gateways.create(gateway)
            let addresses = ["a", "b", "c"]
            let reading = SensorReading(sequence: 0, atMilliseconds: 1_795_400_000_000, beatsPerMinute: 70, contact: .detected)
            _ = try await store.sensors.store(
                userID: user.id, gatewayID: gateway.id, readings: Dictionary(uniqueKeysWithValues: addresses.map { ($0, [reading]) }), now: Date())
            let ids = try await store.sensors.list(userID: user.id).map(\.id)
            try await store.database.sql.raw("DELETE FROM sensor_blocks").run()
            // 3 sensors × 20 blocks of one reading, in format 1: batches of 7 end mid-sensor.
            for id in ids {
                for block in 0..<20 {
                    var one = reading
                    one.sequence = block * 256
                    try await store.database.sql.raw(
                        """
                        INSERT INTO sensor_blocks (sensor_id, block, reading_count, first_at, last_at, data)
                        VALUES (\(bind: id), \(bind: block), 1, \(bind: one.atMilliseconds), \(bind: one.atMilliseconds), \(bind: Data(SensorBlockFormat1.encode([one]))))
                        """
                    ).run()
                }
            }
            #expect(try await CompactSensorBlocks.run(store.database.sql, batchSize: 7) == 60)
            let rows = try await Self.rows(store.database.sql)
            #expect(rows.count == 60 && rows.allSatisfy { $0.data.first == 2 && (try? SensorBlockCodec.decode($0.data))?.first?.sequence == $0.block * 256 })
            #expect(try await CompactSensorBlocks.run(store.database.sql, batchSize: 7) == 0)
        }
    }
}
