import Foundation
import HeartworkCore
import HeartworkTestSupport
import SQLKit
import Testing

@testable import HeartworkStore

/// Migration 035 (issue 26, PostgreSQL ingest that keeps up): a database at 034 gains
/// `sensor_pending`, and every sensor its `folded_seq` from its newest block, so that the first
/// readings after the upgrade are told new from resent as before; what waits in the pending rows
/// goes with its sensor and with its account.
@Suite("Migration 035, pending readings")
struct SensorPendingMigrationTests {
    static func reading(_ sequence: Int) -> SensorReading {
        SensorReading(
            sequence: sequence, atMilliseconds: 1_795_400_000_000 + sequence * 1000, beatsPerMinute: 60 + sequence % 100,
            contact: .detected, battery: 80, rssi: -60, rrIntervalTicks: [1024])
    }

    @Test(arguments: TestDatabase.all)
    func aDatabaseAt034GainsPendingReadingsAndKnowsHowFarItsBlocksGo(_ engine: TestDatabase) async throws {
        try await engine.withFreshLocation { location in
            let user = UserRecord(username: "club", fullName: "Club", email: "club@example.org", passwordHash: "$2b$04$hash")
            let gateway = GatewayRecord(userID: user.id, name: "Pi", tokenHash: String(repeating: "9", count: 64), createdAt: Date())
            let start = Date(timeIntervalSince1970: 1_795_400_000)
            let window = (from: Date(timeIntervalSince1970: 1_795_399_000), to: Date(timeIntervalSince1970: 1_795_402_000))
            // A database as 034 left it: three blocks of one strap, one block of another.
            let first = try await HeartworkStore.open(location, logger: TestDatabase.logger, connectionWaitSeconds: 60)
            do {
                try await first.users.create(user)
                try await first.gateways.create(gateway)
                _ = try await first.sensors.store(
                    userID: user.id, gatewayID: gateway.id, readings: ["long": (0..<700).map(Self.reading), "short": (0..<10).map(Self.reading)], now: start)
                try await first.shutdown()
            } catch {
                try? await first.shutdown()
                throw error
            }
            let raw = try await DatabaseConnection.open(location, logger: TestDatabase.logger)
            do {
                try await raw.sql.raw("DROP TABLE sensor_pending").run()
                try await raw.sql.raw("DROP INDEX sensors_pending_since").run()
                try await raw.sql.raw("ALTER TABLE sensors DROP COLUMN pending_since").run()
                try await raw.sql.raw("ALTER TABLE sensors DROP COLUMN folded_seq").run()
                try await raw.sql.raw("DELETE FROM schema_migrations WHERE version = 35").run()
                try await raw.shutdown()
            } catch {
                try? await raw.shutdown()
                throw error
            }
            // Opening the store runs 035.
            let store = try await HeartworkStore.open(location, logger: TestDatabase.logger, connectionWaitSeconds: 60)
            do {
                var folded = [String: Int?]()
                for row in try await store.database.sql.raw("SELECT address, folded_seq FROM sensors").all() {
                    folded[try row.decode(column: "address", as: String.self)] = try row.decode(column: "folded_seq", as: Int?.self)
                }
                #expect(folded == ["long": 699, "short": 9], "from each sensor's newest block")
                // Resends and new readings across the old blocks' end: only the new ones are new.
                let after = try await store.sensors.store(
                    userID: user.id, gatewayID: gateway.id, readings: ["long": (690..<710).map(Self.reading), "short": (5..<12).map(Self.reading)],
                    now: start.addingTimeInterval(10))
                let added = Dictionary(uniqueKeysWithValues: after.stored.map { ($0.sensor.address, $0.added.map(\.sequence)) })
                #expect(added == ["long": Array(700..<710), "short": [10, 11]])
                let sensors = try await store.sensors.list(userID: user.id)
                let long = try #require(sensors.first { $0.address == "long" })
                let short = try #require(sensors.first { $0.address == "short" })
                #expect(try await store.sensors.readings(sensorID: long.id, from: window.from, to: window.to) == (0..<710).map(Self.reading))
                if case .postgres = engine {
                    let pending = try await store.database.sql.raw("SELECT COUNT(*) AS n FROM sensor_pending").first()?.decode(column: "n", as: Int.self)
                    #expect(pending == 12, "the new readings wait in their rows (PostgreSQL)")
                }
                // A sensor deleted with its readings takes its pending rows; the account takes the rest.
                #expect(try await store.sensors.remove(id: short.id, userID: user.id, deletingReadings: true, now: start.addingTimeInterval(20)))
                if case .postgres = engine {
                    let left = try await store.database.sql.raw("SELECT COUNT(*) AS n FROM sensor_pending").first()?.decode(column: "n", as: Int.self)
                    #expect(left == 10)
                }
                #expect(try await store.deleteAccount(userID: user.id, username: user.username))
                for table in ["sensor_pending", "sensor_blocks", "sensors"] {
                    let count = try await store.database.sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first()?.decode(column: "n", as: Int.self)
                    #expect(count == 0, "\(table) after the account went")
                }
                try await store.shutdown()
            } catch {
                try? await store.shutdown()
                throw error
            }
        }
    }
}
