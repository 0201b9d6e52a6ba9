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
        SensorReading(
            sequence: sequence, atMilliseconds: 1_795_400_000_000 + sequence * 1000, beatsPerMinute: 60 + sequence % 120,
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
        // Stepping over a block gives what decoding it would, and refuses the same damage.
        let encoded = SensorBlockCodec.encode((0..<300).map(Self.reading).shuffled())
        #expect(try SensorBlockCodec.summary(encoded).count == 300 && SensorBlockCodec.summary(encoded).highestSequence == 299)
        #expect(throws: SensorBlockError.self) { try SensorBlockCodec.summary(Array(encoded.dropLast())) }
        #expect(throws: SensorBlockError.self) { try SensorBlockCodec.summary(encoded + [0]) }
        // Appending equals encoding the whole.
        let ordered = (0..<40).map(Self.reading)
        #expect(SensorBlockCodec.appending(Array(ordered[25...]), to: SensorBlockCodec.encode(Array(ordered[..<25]))) == SensorBlockCodec.encode(ordered))
        #expect(SensorBlockCodec.appending(ordered, to: [7, 0, 0]) == nil)
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
                let results = try await store.sensors.store(userID: user.id, gatewayID: gateway.id, readings: ["strap-1": frame], now: Date()).stored
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
            // Three blocks of 256 sequence numbers, not 700 rows (once the log is folded: SQLite).
            try await store.sensors.flush()
            let blocks = try await store.database.sql.raw("SELECT COUNT(*) AS n FROM sensor_blocks").first()?.decode(column: "n", as: Int.self)
            #expect(blocks == 3)
            // A window in the middle.
            let middle = try await store.sensors.readings(
                sensorID: sensor.id, from: Date(timeIntervalSince1970: 1_795_400_300), to: Date(timeIntervalSince1970: 1_795_400_310))
            #expect(middle.map(\.sequence) == Array(300..<310))
        }
    }

    /// Many gateways at once, as the live path sees them: frames are grouped into shared
    /// transactions and the newest block of each sensor is appended to in memory (SQLite); a
    /// store opened again on the same database continues where the first left off.
    @Test(arguments: TestDatabase.all)
    func concurrentFramesAndARestartKeepEveryReadingOnce(_ engine: TestDatabase) async throws {
        try await engine.withFreshLocation { location in
            let user = UserRecord(username: "club", fullName: "Club", email: "club@example.org", passwordHash: "$2b$04$hash")
            let gateway = GatewayRecord(userID: user.id, name: "Pi", tokenHash: String(repeating: "b", count: 64), createdAt: Date())
            func frames(_ seconds: Range<Int>, gatewayIndex: Int) -> [[String: [SensorReading]]] {
                seconds.map { second in
                    Dictionary(uniqueKeysWithValues: (0..<5).map { strap in ("g\(gatewayIndex)-s\(strap)", [Self.reading(second)]) })
                }
            }
            let first = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            try await first.users.create(user)
            try await first.gateways.create(gateway)
            let added = try await withThrowingTaskGroup(of: Int.self) { group in
                // Eight gateways are concurrency enough (twenty made this the suite's longest
                // test on two cores); 300 s crosses a block boundary (256 readings).
                for gatewayIndex in 0..<8 {
                    group.addTask {
                        var count = 0
                        for frame in frames(0..<300, gatewayIndex: gatewayIndex) {
                            count += try await first.sensors.store(userID: user.id, gatewayID: gateway.id, readings: frame, now: Date()).stored.reduce(0) { $0 + $1.added.count }
                        }
                        return count
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(added == 8 * 5 * 300)
            try await first.shutdown()

            // Reopened: the newest blocks are read back, resends are still recognised, new readings follow.
            let second = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            let resent = try await second.sensors.store(userID: user.id, gatewayID: gateway.id, readings: ["g0-s0": (290..<300).map(Self.reading)], now: Date())
            #expect(resent.stored.first?.added.isEmpty == true, "resent readings are stored once")
            let more = try await second.sensors.store(userID: user.id, gatewayID: gateway.id, readings: ["g0-s0": (300..<520).map(Self.reading)], now: Date())
            #expect(more.stored.first?.added.count == 220)
            let sensors = try await second.sensors.list(userID: user.id)
            #expect(sensors.count == 40)
            let strap = try #require(sensors.first { $0.address == "g0-s0" })
            let stored = try await second.sensors.readings(
                sensorID: strap.id, from: Date(timeIntervalSince1970: 1_795_399_000), to: Date(timeIntervalSince1970: 1_795_402_000))
            #expect(stored == (0..<520).map(Self.reading))
            #expect(strap.lastBeatsPerMinute == Self.reading(519).beatsPerMinute)
            let other = try #require(sensors.first { $0.address == "g7-s4" })
            #expect(
                try await second.sensors.readings(
                    sensorID: other.id, from: Date(timeIntervalSince1970: 1_795_399_000), to: Date(timeIntervalSince1970: 1_795_402_000)
                ).count == 300)
            try await second.shutdown()
        }
    }

    /// The log (SQLite): a streaming sensor's newest block is not rewritten at every group; its
    /// readings are one log row a group, read back from memory, written into the block when it
    /// fills, when its readings have waited `foldAfter`, or on `flush`; a killed process's log
    /// is folded into the blocks when the store opens. PostgreSQL does the same with one row a
    /// reading in `sensor_pending` (migration 35), which a kill leaves for the next fold.
    @Test(arguments: TestDatabase.all)
    func theLogKeepsEveryReadingThroughFoldsAndAKill(_ engine: TestDatabase) async throws {
        try await engine.withFreshLocation { location in
            let user = UserRecord(username: "club", fullName: "Club", email: "club@example.org", passwordHash: "$2b$04$hash")
            let gateway = GatewayRecord(userID: user.id, name: "Pi", tokenHash: String(repeating: "c", count: 64), createdAt: Date())
            let start = Date(timeIntervalSince1970: 1_795_400_000)
            let isSQLite: Bool = if case .sqlite = engine { true } else { false }
            func count(_ store: HeartworkStore, _ table: String) async throws -> Int {
                try await store.database.sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first()?.decode(column: "n", as: Int.self) ?? -1
            }
            func blockRow(_ store: HeartworkStore, _ block: Int) async throws -> Int? {
                try await store.database.sql.raw("SELECT reading_count FROM sensor_blocks WHERE block = \(bind: block)").first()?.decode(column: "reading_count", as: Int.self)
            }
            let window = (from: Date(timeIntervalSince1970: 1_795_399_000), to: Date(timeIntervalSince1970: 1_795_402_000))
            let first = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            try await first.users.create(user)
            try await first.gateways.create(gateway)
            // 100 frames of one reading each, a second apart (frame time = reading time).
            for second in 0..<100 {
                let added = try await first.sensors.store(
                    userID: user.id, gatewayID: gateway.id, readings: ["strap": [Self.reading(second)]], now: start.addingTimeInterval(Double(second)))
                #expect(added.stored.first?.added.count == 1)
            }
            let strap = try #require(try await first.sensors.list(userID: user.id).first)
            #expect(try await first.sensors.readings(sensorID: strap.id, from: window.from, to: window.to) == (0..<100).map(Self.reading))
            // The last values come from memory until the next scan writes them (SQLite).
            #expect(strap.lastBeatsPerMinute == Self.reading(99).beatsPerMinute)
            #expect(try await first.sensors.find(id: strap.id, userID: user.id)?.lastAt == Date(milliseconds: Int64(Self.reading(99).atMilliseconds)))
            if isSQLite {
                // Nothing written to the block yet, one log row a group.
                #expect(try await blockRow(first, 0) == nil)
                #expect(try await count(first, "sensor_log") == 100)
            } else {
                #expect(try await blockRow(first, 0) == nil)
                #expect(try await count(first, "sensor_pending") == 100)
            }
            // 200 s on: the readings have waited past `foldAfter`, so the next group writes the block
            // with what it brings, and the log rows it empties go.
            _ = try await first.sensors.store(
                userID: user.id, gatewayID: gateway.id, readings: ["strap": [Self.reading(100)]], now: start.addingTimeInterval(300))
            #expect(try await blockRow(first, 0) == 101)
            #expect(try await first.sensors.readings(sensorID: strap.id, from: window.from, to: window.to) == (0..<101).map(Self.reading))
            #expect(try await count(first, isSQLite ? "sensor_log" : "sensor_pending") == 0)
            // Crossing into the next block seals the one it leaves (in memory until the scan writes
            // it with the newest, SQLite); it reads whole, and a resend into it is recognised.
            _ = try await first.sensors.store(
                userID: user.id, gatewayID: gateway.id, readings: ["strap": (101..<300).map(Self.reading)], now: start.addingTimeInterval(301))
            #expect(try await blockRow(first, 0) == 101)
            #expect(try await first.sensors.readings(sensorID: strap.id, from: window.from, to: window.to) == (0..<300).map(Self.reading))
            let resent = try await first.sensors.store(
                userID: user.id, gatewayID: gateway.id, readings: ["strap": (250..<260).map(Self.reading)], now: start.addingTimeInterval(302))
            #expect(resent.stored.first?.added.map(\.sequence) == [])
            // Killed: the store's connections close without `shutdown` (no flush); its log stays behind.
            let logged = try await count(first, "sensor_log")
            if isSQLite { #expect(logged == 1) }
            try await first.database.shutdown()
            let second = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            #expect(try await count(second, "sensor_log") == 0, "folded when the store opened")
            // PostgreSQL: the pending rows are the durable copy; read with the blocks, folded later.
            #expect(try await count(second, "sensor_pending") == (isSQLite ? 0 : 199))
            #expect(try await blockRow(second, 0) == (isSQLite ? 256 : 101))
            // The last values follow the newest reading, though the killed process had not written them.
            #expect(try await second.sensors.list(userID: user.id).first?.lastBeatsPerMinute == Self.reading(299).beatsPerMinute)
            #expect(try await blockRow(second, 1) == (isSQLite ? 44 : nil))
            #expect(try await second.sensors.readings(sensorID: strap.id, from: window.from, to: window.to) == (0..<300).map(Self.reading))
            let again = try await second.sensors.store(
                userID: user.id, gatewayID: gateway.id, readings: ["strap": (290..<310).map(Self.reading)], now: start.addingTimeInterval(400))
            #expect(again.stored.first?.added.map(\.sequence) == Array(300..<310))
            // A clean stop leaves the log empty and every block written.
            try await second.shutdown()
            let third = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            #expect(try await count(third, "sensor_log") == 0)
            #expect(try await count(third, "sensor_pending") == 0)
            #expect(try await blockRow(third, 0) == 256)
            #expect(try await blockRow(third, 1) == 54)
            #expect(try await third.sensors.readings(sensorID: strap.id, from: window.from, to: window.to) == (0..<310).map(Self.reading))
            try await third.shutdown()
        }
    }

    /// PostgreSQL (migration 35), two instances on one database: the same strap's readings
    /// shuffled, a third resent, sent through both at once while the clock runs past
    /// `foldAfter` (so both fold as they go, under the buckets' advisory locks) — each reading is
    /// new exactly once across both, the series is whole at every step and after the fold, and
    /// a sensor stored before the migration (`folded_seq` unknown) goes on without a reading
    /// counted twice.
    @Test(arguments: TestDatabase.all.filter { if case .postgres = $0 { true } else { false } })
    func twoInstancesStoreAndFoldOneStrapWithoutLossOrRepeat(_ engine: TestDatabase) async throws {
        try await engine.withFreshLocation { location in
            let user = UserRecord(username: "club", fullName: "Club", email: "club@example.org", passwordHash: "$2b$04$hash")
            let gateway = GatewayRecord(userID: user.id, name: "Pi", tokenHash: String(repeating: "f", count: 64), createdAt: Date())
            let a = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            let b = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            try await a.users.create(user)
            try await a.gateways.create(gateway)
            let truth = (0..<700).map(Self.reading)
            var random = SplitMix64(seed: 7)
            var deliveries = truth + truth.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
            deliveries.shuffle(using: &random)
            let frames = stride(from: 0, to: deliveries.count, by: 25).map { Array(deliveries[$0..<min($0 + 25, deliveries.count)]) }
            let start = Date(timeIntervalSince1970: 1_795_400_000)
            let window = (from: Date(timeIntervalSince1970: 1_795_399_000), to: Date(timeIntervalSince1970: 1_795_402_000))
            let added = try await withThrowingTaskGroup(of: [Int].self) { group in
                for (index, store) in [a, b].enumerated() {
                    group.addTask {
                        var added = [Int]()
                        // Each instance sends every frame (the strap heard by two gateways), ten
                        // seconds of clock a frame: the folds come due as they go.
                        for (number, frame) in frames.enumerated() where number % 2 == index || number % 5 == 0 {
                            let result = try await store.sensors.store(
                                userID: user.id, gatewayID: gateway.id, readings: ["strap": frame], now: start.addingTimeInterval(Double(number * 10)))
                            added += result.stored.flatMap { $0.added.map(\.sequence) }
                        }
                        return added
                    }
                }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }
            #expect(added.count == 700 && Set(added).count == 700, "each reading new once across both: \(added.count)")
            let strap = try #require(try await a.sensors.list(userID: user.id).first)
            #expect(try await a.sensors.readings(sensorID: strap.id, from: window.from, to: window.to) == truth)
            #expect(try await b.sensors.readings(sensorID: strap.id, from: window.from, to: window.to) == truth)
            let folded = try await a.database.sql.raw("SELECT folded_seq FROM sensors").first()?.decode(column: "folded_seq", as: Int?.self)
            #expect((folded ?? nil).map { $0 >= 0 } == true, "the folds ran as the clock went: folded_seq \(String(describing: folded))")

            // A sensor from before migration 35: its folded_seq unknown, the rest in blocks.
            try await b.sensors.flush()
            #expect(try await a.database.sql.raw("SELECT COUNT(*) AS n FROM sensor_pending").first()?.decode(column: "n", as: Int.self) == 0)
            #expect(try await a.database.sql.raw("SELECT COUNT(*) AS n FROM sensor_blocks").first()?.decode(column: "n", as: Int.self) == 3)
            try await a.database.sql.raw("UPDATE sensors SET folded_seq = NULL").run()
            let late = try await a.sensors.store(
                userID: user.id, gatewayID: gateway.id, readings: ["strap": (690..<720).map(Self.reading)], now: start.addingTimeInterval(9_000))
            #expect(late.stored.first?.added.map(\.sequence) == Array(700..<720))
            let known = try await a.database.sql.raw("SELECT folded_seq FROM sensors").first()?.decode(column: "folded_seq", as: Int?.self)
            #expect(known == .some(719), "the path of old sensors learns how far the blocks go")
            let next = try await b.sensors.store(
                userID: user.id, gatewayID: gateway.id, readings: ["strap": (715..<730).map(Self.reading) + [Self.reading(3)]], now: start.addingTimeInterval(9_001))
            #expect(next.stored.first?.added.map(\.sequence) == Array(720..<730))
            #expect(try await a.sensors.readings(sensorID: strap.id, from: window.from, to: window.to) == (0..<730).map(Self.reading))
            try await a.shutdown()
            try await b.shutdown()
        }
    }

    /// An account deleted while its readings wait in the log: they and its sensors go, the log
    /// is emptied of them, and another account's ingest goes on unharmed.
    @Test(arguments: TestDatabase.all)
    func aDeletedAccountLeavesNothingInTheLog(_ engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let start = Date(timeIntervalSince1970: 1_795_400_000)
            var gateways = [GatewayRecord]()
            for name in ["gone", "stays"] {
                let user = UserRecord(username: name, fullName: name, email: "\(name)@example.org", passwordHash: "$2b$04$hash")
                try await store.users.create(user)
                let gateway = GatewayRecord(userID: user.id, name: "Pi", tokenHash: String(repeating: name == "gone" ? "d" : "e", count: 64), createdAt: Date())
                try await store.gateways.create(gateway)
                gateways.append(gateway)
            }
            for second in 0..<20 {
                for gateway in gateways {
                    _ = try await store.sensors.store(
                        userID: gateway.userID, gatewayID: gateway.id, readings: ["strap": [Self.reading(second)]], now: start.addingTimeInterval(Double(second)))
                }
            }
            #expect(try await store.deleteAccount(userID: gateways[0].userID, username: "gone"))
            // The other account streams on; its fold and last values are written without a hitch.
            _ = try await store.sensors.store(
                userID: gateways[1].userID, gatewayID: gateways[1].id, readings: ["strap": [Self.reading(20)]], now: start.addingTimeInterval(400))
            try await store.sensors.flush()
            let log = try await store.database.sql.raw("SELECT COUNT(*) AS n FROM sensor_log").first()?.decode(column: "n", as: Int.self)
            #expect(log == 0)
            let blocks = try await store.database.sql.raw("SELECT COUNT(*) AS n FROM sensor_blocks").first()?.decode(column: "n", as: Int.self)
            #expect(blocks == 1, "only the remaining account's block")
            let sensors = try await store.database.sql.raw("SELECT COUNT(*) AS n FROM sensors").first()?.decode(column: "n", as: Int.self)
            #expect(sensors == 1)
            let kept = try #require(try await store.sensors.list(userID: gateways[1].userID).first)
            #expect(try await store.sensors.readings(sensorID: kept.id, from: start.addingTimeInterval(-10), to: start.addingTimeInterval(600)).count == 21)
            #expect(kept.lastBeatsPerMinute == Self.reading(20).beatsPerMinute)
        }
    }

    @Test func logRowsRoundTripAndRefuseDamage() throws {
        let entries = [
            SensorLogCodec.Entry(sensorID: UUID().uuidString.lowercased(), readings: (0..<5).map(Self.reading)),
            SensorLogCodec.Entry(sensorID: "another", readings: [Self.reading(999)]),
        ]
        let bytes = SensorLogCodec.encode(entries)
        #expect(try SensorLogCodec.decode(bytes) == entries)
        #expect(try SensorLogCodec.decode([]) == [])
        #expect(throws: SensorBlockError.self) { try SensorLogCodec.decode(Array(bytes.dropLast())) }
        #expect(throws: SensorBlockError.self) { try SensorLogCodec.decode(bytes + [3, 65]) }
    }
}
