import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import HeartworkTestSupport
import Testing

/// The raw live feed: blocks of readings, each (sensor, seq) once, the same stored series
/// whatever the order and duplication of arrival (issue 9's property test), on both engines.
@Suite("Sensor readings store")
struct SensorStoreTests {
    static func reading(_ sequence: Int) -> SensorReading {
        SensorReading(sequence: sequence, atMilliseconds: 1_795_400_000_000 + sequence * 1000, beatsPerMinute: 60 + sequence % 120,
                      contact: sequence % 7 == 0 ? .notDetected : .detected, battery: sequence % 3 == 0 ? 90 - sequence % 50 : nil,
                      rssi: sequence % 5 == 0 ? -40 - sequence % 60 : nil, rrIntervalTicks: (0..<(sequence % 4)).map { UInt16(700 + $0 + sequence % 300) })
    }

    @Test func blocksRoundTripAndRefuseDamage() throws {
        let readings = (0..<256).map(Self.reading)
        let bytes = SensorBlockCodec.encode(readings)
        #expect(try SensorBlockCodec.decode(bytes) == readings)
        #expect(bytes.count < 256 * 30, "about 20–30 bytes a reading: \(bytes.count)")
        #expect(throws: SensorBlockError.self) { try SensorBlockCodec.decode(Array(bytes.dropLast())) }
        #expect(throws: SensorBlockError.self) { try SensorBlockCodec.decode(bytes + [0]) }
        #expect(throws: SensorBlockError.self) { try SensorBlockCodec.decode([9] + bytes.dropFirst()) }
        #expect(throws: SensorBlockError.self) { try SensorBlockCodec.decode([]) }
    }

    @Test(arguments: TestDatabase.all)
    func anyOrderAndDuplicationStoresTheSameSeries(_ engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let user = UserRecord(username: "coach", fullName: "Coach", email: "c@example.org", passwordHash: "$2b$04$hash")
            try await store.users.create(user)
            let gateway = GatewayRecord(userID: user.id, name: "Pi", tokenHash: String(repeating: "a", count: 64), createdAt: Date())
            try await store.gateways.create(gateway)
            // 700 readings across three blocks, delivered by a seeded shuffle with every third resent, in 9 frames.
            let truth = (0..<700).map(Self.reading)
            var random = SplitMix64(seed: 42)
            var deliveries = truth + truth.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
            deliveries.shuffle(using: &random)
            var added = 0
            for start in stride(from: 0, to: deliveries.count, by: 104) {
                let frame = Array(deliveries[start..<min(start + 104, deliveries.count)])
                let results = try await store.sensors.store(userID: user.id, gatewayID: gateway.id, readings: ["strap-1": frame], now: Date())
                #expect(results.count == 1 && results[0].highestSequence == frame.map(\.sequence).max())
                added += results[0].added.count
            }
            #expect(added == 700, "each reading reported new exactly once")
            let sensor = try #require(try await store.sensors.list(userID: user.id).first)
            let stored = try await store.sensors.readings(
                sensorID: sensor.id, from: Date(timeIntervalSince1970: 1_795_399_000), to: Date(timeIntervalSince1970: 1_795_402_000))
            #expect(stored == truth)
            // The sensor remembers its newest reading, not the last to arrive.
            #expect(sensor.lastBeatsPerMinute == truth[699].beatsPerMinute && sensor.lastAt == Date(timeIntervalSince1970: 1_795_400_699))
            // Three blocks of 256 sequence numbers, not 700 rows.
            let blocks = try await store.database.sql.raw("SELECT COUNT(*) AS n FROM sensor_blocks").first()?.decode(column: "n", as: Int.self)
            #expect(blocks == 3)
            // A window in the middle.
            let middle = try await store.sensors.readings(
                sensorID: sensor.id, from: Date(timeIntervalSince1970: 1_795_400_300), to: Date(timeIntervalSince1970: 1_795_400_310))
            #expect(middle.map(\.sequence) == Array(300..<310))
        }
    }
}
