import Foundation
import HeartworkCore
import Testing

@testable import HeartworkFormats

/// Issue 24: Gadgetbridge's sample rows as `GadgetbridgeReader` reads them, each rule with the
/// Gadgetbridge source file it comes from (see `GadgetbridgeSchema`).
@Suite("Gadgetbridge schema")
struct GadgetbridgeReaderTests {
    static let night: Int64 = 1_772_406_000  // 2026-03-01T23:00:00Z
    static let devices = [
        GadgetbridgeDevice(id: 1, name: "Mi Band 2", type: 11, typeName: "MIBAND2"),
        GadgetbridgeDevice(id: 2, name: "Mi Band", type: 10),
        GadgetbridgeDevice(id: 3, name: "Amazfit GTR 4", typeName: "AMAZFITGTR4"),
        GadgetbridgeDevice(id: 4, name: "Pebble Time", type: 1, typeName: "PEBBLE"),
    ]
    static var miBand: GadgetbridgeSchema.Table { GadgetbridgeSchema.table(named: "MI_BAND_ACTIVITY_SAMPLE")! }

    static func row(_ time: Int64, device: Int64, steps: DatabaseValue = .integer(0), heartRate: DatabaseValue, kind: Int64) -> [DatabaseValue] {
        [.integer(time), .integer(device), steps, heartRate, .integer(kind)]
    }

    static func stages(_ samples: [HealthSample]) -> [(HealthSample.SleepStage?, Int)] {
        samples.filter { $0.kind == .sleep }.map { (HealthSample.SleepStage(rawValue: Int($0.value)), Int($0.end.timeIntervalSince($0.start)) / 60) }
    }

    @Test func huamiKindsCarryOnAndMergeIntoStages() {
        var reader = GadgetbridgeReader(devices: Self.devices, timeZone: TimeZone(identifier: "Europe/Vienna")!, minimumSleepSessionSeconds: 0)
        var samples = [HealthSample]()
        // HuamiConst: 9 light (0x19 & 0xf = 9), 0 and 10 carry the last kind on, 11 deep, 1 awake.
        let kinds: [Int64] = [9, 0, 0x19, 10, 11, 0, 0, 1, 9]
        for (minute, kind) in kinds.enumerated() {
            reader.read(Self.row(Self.night + Int64(minute) * 60, device: 1, heartRate: .integer(minute == 2 ? 255 : 55), kind: kind), of: Self.miBand, into: &samples)
        }
        reader.finishTable(into: &samples)
        let stages = Self.stages(samples)
        #expect(stages.map(\.0) == [.core, .deep, .core])
        #expect(stages.map(\.1) == [4, 3, 1])
        #expect(samples.filter { $0.kind == .heartRate }.count == 8, "255 is no heart rate")
        #expect(samples.allSatisfy { $0.utcOffsetSeconds == 3600 && $0.source == "Mi Band 2" && $0.device == "Mi Band 2" })
        #expect(reader.read["Mi Band 2: sleep"] == 3)
    }

    @Test func theFirstMiBandHasItsOwnKinds() {
        var reader = GadgetbridgeReader(devices: Self.devices, timeZone: .init(secondsFromGMT: 0)!, minimumSleepSessionSeconds: 0)
        var samples = [HealthSample]()
        // MiBandSampleProvider: 4 light, 5 deep; 9 and 11 mean nothing there.
        for (minute, kind) in [4, 4, 5, 9, 11].enumerated() {
            reader.read(Self.row(Self.night + Int64(minute) * 60, device: 2, heartRate: .integer(0), kind: Int64(kind)), of: Self.miBand, into: &samples)
        }
        reader.finishTable(into: &samples)
        #expect(Self.stages(samples).map(\.0) == [.core, .deep])
        #expect(samples.filter { $0.kind == .heartRate }.isEmpty)
    }

    @Test func huamiExtendedSleepLevels() throws {
        let table = try #require(GadgetbridgeSchema.table(named: "HUAMI_EXTENDED_ACTIVITY_SAMPLE"))
        var reader = GadgetbridgeReader(devices: Self.devices, timeZone: .init(secondsFromGMT: 0)!, minimumSleepSessionSeconds: 0)
        var samples = [HealthSample]()
        // HuamiExtendedSampleProvider: REM & 127 > 55, else DEEP & 127 > 42, else light.
        let levels: [(deep: Int64, rem: Int64)] = [(10, 10), (128 + 50, 0), (60, 60), (60, 128 + 10)]
        for (minute, level) in levels.enumerated() {
            let row: [DatabaseValue] = [
                .integer(Self.night + Int64(minute) * 60), .integer(3), .integer(0), .integer(50), .integer(120), .integer(30), .integer(level.deep),
                .integer(level.rem),
            ]
            reader.read(row, of: table, into: &samples)
        }
        reader.finishTable(into: &samples)
        #expect(Self.stages(samples).map(\.0) == [.core, .deep, .rem, .deep])
    }

    /// Minutes alone, as above, are read only by the tests of the stage rules: a band at rest
    /// writes stray sleep minutes, and a session with less than an hour asleep is no night
    /// (issue 41: a real Mi Band 5 database's "nights" of 0.1 h). Runs up to an hour apart are
    /// one session (Gadgetbridge's `SleepAnalysis.MAX_WAKE_PHASE_LENGTH`).
    @Test func straySleepMinutesAreNoNight() {
        var reader = GadgetbridgeReader(devices: Self.devices, timeZone: .init(secondsFromGMT: 0)!)
        var samples = [HealthSample]()
        func minutes(_ range: Range<Int64>, kind: Int64, from start: Int64) {
            for minute in range {
                reader.read(Self.row(start + minute * 60, device: 1, heartRate: .integer(60), kind: kind), of: Self.miBand, into: &samples)
            }
        }
        let noon = Self.night - 11 * 3600  // 12:00 the day before
        minutes(0..<6, kind: 9, from: noon)  // 6 stray minutes at noon
        minutes(6..<200, kind: 1, from: noon)  // awake, over an hour
        // The night: 40 light minutes, 50 awake (one session still: under an hour apart), 30
        // deep: 70 minutes asleep.
        minutes(0..<40, kind: 9, from: Self.night)
        minutes(40..<90, kind: 1, from: Self.night)
        minutes(90..<120, kind: 11, from: Self.night)
        minutes(120..<300, kind: 1, from: Self.night)
        minutes(300..<310, kind: 9, from: Self.night)  // 10 more stray minutes, three hours on
        reader.finishTable(into: &samples)
        #expect(Self.stages(samples).map(\.0) == [.core, .deep])
        #expect(Self.stages(samples).map(\.1) == [40, 30])
        #expect(reader.read["Mi Band 2: sleep"] == 2)
        #expect(reader.notUnderstood["Mi Band 2: \(GadgetbridgeReader.shortSleepNote)"] == 2)
        #expect(samples.filter { $0.kind == .heartRate }.count == 510, "heart rates are kept whatever the sleep")

        // Exactly an hour asleep is a night.
        var hour = GadgetbridgeReader(devices: Self.devices, timeZone: .init(secondsFromGMT: 0)!)
        var kept = [HealthSample]()
        for minute in Int64(0)..<60 {
            hour.read(Self.row(Self.night + minute * 60, device: 1, heartRate: .integer(50), kind: 9), of: Self.miBand, into: &kept)
        }
        hour.finishTable(into: &kept)
        #expect(Self.stages(kept).map(\.1) == [60] && hour.notUnderstood.isEmpty)
    }

    @Test func pebbleDeepIntervalsAreCutOutOfLightOnes() throws {
        let table = try #require(GadgetbridgeSchema.table(named: "PEBBLE_HEALTH_ACTIVITY_OVERLAY"))
        var reader = GadgetbridgeReader(devices: Self.devices, timeZone: .init(secondsFromGMT: 0)!)
        var samples = [HealthSample]()
        let start = Self.night
        for (from, to, kind) in [(0, 420, 1), (90, 150, 2), (210, 255, 2), (500, 530, 5)] as [(Int64, Int64, Int64)] {
            reader.read([.integer(start + from * 60), .integer(start + to * 60), .integer(kind), .integer(4)], of: table, into: &samples)
        }
        reader.finishTable(into: &samples)
        let stages = Self.stages(samples).sorted { $0.1 > $1.1 }
        #expect(stages.map(\.1).reduce(0, +) == 420)
        #expect(stages.filter { $0.0 == .deep }.map(\.1).sorted() == [45, 60])
    }

    @Test func hostileRowsAreNamedNotTrapped() {
        var reader = GadgetbridgeReader(devices: Self.devices, timeZone: .init(secondsFromGMT: 0)!)
        var samples = [HealthSample]()
        let rows: [[DatabaseValue]] = [
            Self.row(Self.night, device: 9, heartRate: .integer(60), kind: 1),  // no such device
            Self.row(-5, device: 1, heartRate: .integer(60), kind: 1),  // 1969
            Self.row(Int64.max, device: 1, heartRate: .integer(60), kind: 1),
            Self.row(Self.night, device: 1, steps: .text("many"), heartRate: .text("fast"), kind: 1),
            Self.row(Self.night + 60, device: 1, steps: .integer(-3), heartRate: .real(.nan), kind: Int64.min),
            Self.row(Self.night + 120, device: 1, steps: .blob(10), heartRate: .integer(Int64.max), kind: Int64.max),
            [.integer(1)],
        ]
        for row in rows { reader.read(row, of: Self.miBand, into: &samples) }
        reader.finishTable(into: &samples)
        #expect(samples.isEmpty)
        #expect(reader.notUnderstood["MI_BAND_ACTIVITY_SAMPLE: rows of devices not in DEVICE"] == 1)
        #expect(reader.notUnderstood["MI_BAND_ACTIVITY_SAMPLE: timestamps out of range"] == 2)
        #expect(reader.notUnderstood["MI_BAND_ACTIVITY_SAMPLE: steps not understood"] == 3)
        #expect(reader.notUnderstood["MI_BAND_ACTIVITY_SAMPLE: heart rates not understood"] == 2)
        #expect(reader.notUnderstood["MI_BAND_ACTIVITY_SAMPLE: rows not understood"] == 1)
    }

    /// A hostile file's values never become names: rows of any number of unknown devices are
    /// one count a table, and past `maximumNotUnderstood` names the rest are counted as "other".
    @Test func whatIsNotUnderstoodHasBoundedNames() throws {
        let overlay = try #require(GadgetbridgeSchema.table(named: "PEBBLE_HEALTH_ACTIVITY_OVERLAY"))
        var reader = GadgetbridgeReader(devices: Self.devices, timeZone: .init(secondsFromGMT: 0)!)
        var samples = [HealthSample]()
        for id in Int64(100)..<3100 {
            reader.read(Self.row(Self.night, device: id, heartRate: .integer(60), kind: 1), of: Self.miBand, into: &samples)
            reader.read([.integer(Self.night), .integer(Self.night + 60), .integer(1), .integer(id)], of: overlay, into: &samples)
        }
        #expect(samples.isEmpty)
        #expect(
            reader.notUnderstood == [
                "MI_BAND_ACTIVITY_SAMPLE: rows of devices not in DEVICE": 3000, "PEBBLE_HEALTH_ACTIVITY_OVERLAY: rows of devices not in DEVICE": 3000,
            ])

        var many = GadgetbridgeReader(devices: [], timeZone: .init(secondsFromGMT: 0)!)
        for index in 0..<200 { many.note("TABLE_\(index)_SAMPLE", index + 1) }
        many.note("TABLE_0_SAMPLE", 10)  // a name kept is counted under it
        many.note("TABLE_199_SAMPLE")  // one that is not, as "other"
        #expect(many.notUnderstood.count == GadgetbridgeReader.maximumNotUnderstood + 1)
        #expect(many.notUnderstood["TABLE_0_SAMPLE"] == 11 && many.notUnderstood["TABLE_49_SAMPLE"] == 50 && many.notUnderstood["TABLE_50_SAMPLE"] == nil)
        #expect(many.notUnderstood[GadgetbridgeReader.otherNotUnderstood] == (51...200).reduce(0, +) + 1)
    }

    @Test func theFileIsKnownByItsHeaderAndTables() {
        #expect(GadgetbridgeSchema.looksLikeSQLite(Array("SQLite format 3\u{0}and more".utf8)))
        #expect(!GadgetbridgeSchema.looksLikeSQLite(Array("SQLite format 2\u{0}and more".utf8)))
        #expect(GadgetbridgeSchema.isGadgetbridge(tables: ["DEVICE", "MI_BAND_ACTIVITY_SAMPLE"]))
        #expect(!GadgetbridgeSchema.isGadgetbridge(tables: ["DEVICE", "notes"]))
        #expect(GadgetbridgeSchema.holdsUnreadData("XIAOMI_SLEEP_STAGE_SAMPLE") && !GadgetbridgeSchema.holdsUnreadData("MI_BAND_ACTIVITY_SAMPLE"))
        #expect(!GadgetbridgeSchema.holdsUnreadData("ALARM"))
    }
}
