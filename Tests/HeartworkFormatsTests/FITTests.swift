import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkTestSupport
import Testing

/// The FIT decoder and encoder (issue 13, a first part). Golden values: `Resources/fit/ride.fit`
/// was written by fit-tool (PyPI) and `ride.expected.json` is what fitdecode (PyPI) reads from
/// the same bytes (`scripts/make_fit_fixtures.py`).
@Suite("FIT")
struct FITTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Resources/fit"))
        return Array(try Data(contentsOf: url))
    }

    struct Expected: Decodable {
        struct Record: Decodable {
            let t: Int
            let hr: Int?
            let lat: Double?
            let lon: Double?
            let alt: Double?
            let dist: Double?
            let speed: Double?
            let cad: Int?
            let power: Int?
            let temp: Int?
        }
        struct Lap: Decodable {
            let distance: Double?
            let elapsed: Double?
            let avgHR: Int?
        }
        struct Session: Decodable {
            let sport: Int?
            let calories: Int?
            let elapsed: Double?
            let distance: Double?
        }
        struct FileID: Decodable {
            let type: Int
            let serial: UInt64?
        }
        let records: [Record]
        let rr: [Double]
        let laps: [Lap]
        let sessions: [Session]
        let fileId: FileID
    }

    @Test func decodesWhatFitdecodeReadsFromAFitToolFile() throws {
        let bytes = try Self.fixture("ride.fit")
        let expected = try JSONDecoder().decode(Expected.self, from: Data(try Self.fixture("ride.expected.json")))
        let activity = FITActivityReader.read(bytes)
        #expect(activity.warnings.isEmpty, "\(activity.warnings)")
        #expect(activity.fileType == expected.fileId.type && activity.serialNumber == expected.fileId.serial)
        #expect(activity.records.count == expected.records.count)
        for (mine, theirs) in zip(activity.records, expected.records) {
            #expect(Int(mine.time.timeIntervalSince1970) == theirs.t)
            #expect(mine.heartRate == theirs.hr)
            #expect(abs((mine.latitude ?? 0) - (theirs.lat ?? 0)) < 1e-9 && abs((mine.longitude ?? 0) - (theirs.lon ?? 0)) < 1e-9)
            #expect(abs((mine.altitude ?? -1) - (theirs.alt ?? -2)) < 1e-6 && abs((mine.distance ?? -1) - (theirs.dist ?? -2)) < 1e-6)
            #expect(abs((mine.speed ?? -1) - (theirs.speed ?? -2)) < 1e-6)
            #expect(mine.cadence == theirs.cad && mine.power == theirs.power && mine.temperature == theirs.temp)
        }
        #expect(activity.records.filter { $0.heartRate == nil }.count == expected.records.filter { $0.hr == nil }.count)
        #expect(activity.rrIntervalsMilliseconds == expected.rr)
        #expect(activity.laps.map(\.distance) == expected.laps.map(\.distance) && activity.laps.map(\.averageHeartRate) == expected.laps.map(\.avgHR))
        #expect(activity.sessions.map(\.sport) == expected.sessions.map(\.sport) && activity.sessions.map(\.calories) == expected.sessions.map(\.calories))
        #expect(activity.events == 2)
    }

    /// Any chunking gives the same messages (the decoder streams).
    @Test func chunkingDoesNotMatter() throws {
        let bytes = try Self.fixture("ride.fit")
        let whole = FITActivityReader.read(bytes)
        for size in [1, 7, 13, 1000] {
            var reader = FITActivityReader()
            var start = 0
            while start < bytes.count {
                reader.feed(bytes[start..<min(bytes.count, start + size)])
                start += size
            }
            #expect(reader.finish() == whole, "chunks of \(size)")
        }
    }

    /// The public decoder hands out owned messages (copies of the bytes the reader's views point
    /// into): in any chunking they carry the same fields, and they stay valid after the feed.
    @Test func ownedMessagesMatchTheReadersViewOfTheFile() throws {
        let bytes = try Self.fixture("ride.fit")
        let reader = FITActivityReader.read(bytes)
        for size in [1, 5, 4096, bytes.count] {
            var decoder = FITDecoder()
            var messages = [FITMessage]()
            var start = 0
            while start < bytes.count {
                messages += decoder.feed(bytes[start..<min(bytes.count, start + size)])
                start += size
            }
            decoder.finish()
            #expect(decoder.warnings.isEmpty && decoder.filesCompleted == 1, "chunks of \(size)")
            let records = messages.filter { $0.global == 20 }
            #expect(records.count == reader.records.count, "chunks of \(size)")
            #expect(records.map { $0.int(3) } == reader.records.map(\.heartRate), "chunks of \(size)")
            #expect(records.map { $0.number(5).map { $0 / 100 } } == reader.records.map(\.distance), "chunks of \(size)")
            #expect(records.map { $0[3]?.integer.map(Int.init) } == reader.records.map(\.heartRate), "chunks of \(size)")
            #expect(messages.first?.global == 0 && messages.first?.fields[1] == .unsigned(1), "file_id names Garmin (1)")
        }
    }

    /// The record keeps its optionals in a packed form: each field is set and cleared on its
    /// own, and equality and hashing see only the values.
    @Test func recordFieldsAreIndependentOptionals() {
        let time = FITDecoder.epoch.addingTimeInterval(1e9)
        var record = ActivityRecording.Record(time: time)
        #expect(record.heartRate == nil && record.latitude == nil && record.temperature == nil)
        record.heartRate = 150
        record.latitude = 48.2
        record.longitude = -0.0
        record.altitude = -430.5
        record.distance = 0
        record.speed = 3.25
        record.cadence = Int.min
        record.power = Int.max
        record.temperature = -40
        #expect(record.heartRate == 150 && record.latitude == 48.2 && record.longitude == -0.0 && record.altitude == -430.5)
        #expect(record.distance == 0 && record.speed == 3.25 && record.cadence == Int.min && record.power == Int.max && record.temperature == -40)
        var cleared = record
        cleared.power = nil
        cleared.distance = nil
        #expect(cleared.power == nil && cleared.distance == nil && cleared.cadence == Int.min && cleared.speed == 3.25)
        #expect(cleared != record)
        cleared.power = Int.max
        cleared.distance = 0
        #expect(cleared == record && cleared.hashValue == record.hashValue)
        let built = ActivityRecording.Record(
            time: time, heartRate: 150, latitude: 48.2, longitude: -0.0, altitude: -430.5, distance: 0,
            speed: 3.25, cadence: Int.min, power: Int.max, temperature: -40)
        #expect(built == record && Set([built, record]).count == 1)
        // A value set and cleared again equals one never set.
        var again = ActivityRecording.Record(time: time)
        again.heartRate = 99
        again.heartRate = nil
        #expect(again == ActivityRecording.Record(time: time) && again.hashValue == ActivityRecording.Record(time: time).hashValue)
    }

    /// A file cut off after a device crash keeps everything before the cut, with a warning that
    /// names the byte offset; a damaged byte in the middle is caught by the CRC.
    @Test func truncatedAndCorruptFilesKeepWhatWasReadable() throws {
        let bytes = try Self.fixture("ride.fit")
        let cut = FITActivityReader.read(Array(bytes.prefix(9000)))
        #expect(cut.records.count > 100 && cut.records.count < 600)
        #expect(cut.warnings.count == 1 && cut.warnings[0].message.contains("truncated"))
        #expect(cut.warnings.first.map { $0.offset > 8900 && $0.offset <= 9000 } == true)  // where the cut message began
        var damaged = bytes
        damaged[5000] ^= 0x01
        let crc = FITActivityReader.read(damaged)
        #expect(crc.warnings.contains { $0.message.contains("CRC") })
        var badHeader = bytes
        badHeader[9] = 0x58
        let notFIT = FITActivityReader.read(badHeader)
        #expect(notFIT.records.isEmpty && notFIT.warnings.first?.offset == 8)
        #expect(FITActivityReader.read([]).warnings.first?.message.contains("before a FIT header") == true)
        #expect(FITActivityReader.read(Array("not a fit file at all".utf8)).warnings.first?.offset == 0)
    }

    @Test func chainedFilesAreReadOneAfterAnother() throws {
        let bytes = try Self.fixture("ride.fit")
        let twice = FITActivityReader.read(bytes + bytes)
        #expect(twice.warnings.isEmpty && twice.records.count == 1200 && twice.sessions.count == 2)
    }

    /// Big-endian definitions, compressed timestamp headers, developer fields and invalid values,
    /// in a file built byte by byte here.
    @Test func bigEndianCompressedTimestampsAndDeveloperFields() {
        var body: [UInt8] = []
        // Definition, local 0, big endian, record (20): timestamp u32, heart_rate u8, power u16; one developer field of 3 bytes.
        body += [0x60, 0, 1, 0, 20, 3, 253, 4, 0x86, 3, 1, 0x02, 7, 2, 0x84, 1, 0, 3, 0]
        let t0: UInt32 = 1_100_000_000
        body += [0x00] + withUnsafeBytes(of: t0.bigEndian, Array.init) + [150, 0x01, 0x2C] + [9, 9, 9]  // power 300, dev bytes ignored
        // Compressed timestamp (local 0, offset (t0 + 3) & 31): heart rate invalid (0xFF), power 0xFFFF invalid.
        body += [0x80 | UInt8((t0 + 3) & 0x1F)] + [0, 0, 0, 0] + [0xFF, 0xFF, 0xFF] + [1, 2, 3]
        var header: [UInt8] = [12, 0x20, 0x54, 0x08] + withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init) + Array(".FIT".utf8)
        header = Array(header.prefix(12))
        var file = header + body
        let crc = FITCRC.compute(file)
        file += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        let activity = FITActivityReader.read(file)
        #expect(activity.warnings.isEmpty, "\(activity.warnings)")
        #expect(activity.records.count == 2)
        #expect(activity.records.first?.heartRate == 150 && activity.records.first?.power == 300)
        #expect(activity.records.last?.heartRate == nil && activity.records.last?.power == nil)
        #expect(activity.records.last?.time == FITDecoder.epoch.addingTimeInterval(Double(t0 + 3)))
    }

    /// Round trip: decode ∘ encode is the identity on the fields we write, for random activities.
    @Test func encodeThenDecodeIsTheIdentity() {
        var random = SplitMix64(seed: 13)
        for _ in 0..<40 {
            var activity = ActivityRecording()
            activity.fileType = 4
            activity.manufacturer = 255
            activity.serialNumber = random.next() % 4_000_000_000 + 1
            let start = FITDecoder.epoch.addingTimeInterval(Double(1_000_000_000 + random.next() % 100_000_000))
            activity.created = start
            let n = Int(random.next() % 400) + 1
            var distance = 0.0
            for i in 0..<n {
                distance += Double(random.next() % 1000) / 100
                activity.records.append(
                    ActivityRecording.Record(
                        time: start.addingTimeInterval(Double(i)), heartRate: random.next() % 9 == 0 ? nil : Int(random.next() % 200) + 30,
                        latitude: random.next() % 5 == 0 ? nil : (Double(Int(random.next() % 1_000_000)) - 500_000) * FITDecoder.semicircle * 300,
                        longitude: nil, altitude: Double(Int(random.next() % 5000)) / 5 - 100, distance: distance,
                        speed: Double(random.next() % 20000) / 1000, cadence: Int(random.next() % 200), power: Int(random.next() % 2000),
                        temperature: Int(random.next() % 60) - 20))
                if activity.records[i].latitude != nil { activity.records[i].longitude = activity.records[i].latitude.map { -$0 / 2 } }
            }
            activity.rrIntervalsMilliseconds = (0..<Int(random.next() % 30)).map { _ in Double(random.next() % 1500 + 300) }
            activity.sessions = [
                ActivityRecording.Session(
                    sport: 1, start: start, elapsedSeconds: Double(n - 1), timerSeconds: Double(n - 1), distance: distance,
                    calories: 400, averageHeartRate: 140, maximumHeartRate: 180)
            ]
            activity.laps = [
                ActivityRecording.Lap(
                    start: start, end: start.addingTimeInterval(Double(n - 1)), elapsedSeconds: Double(n - 1), distance: distance,
                    averageHeartRate: 140, maximumHeartRate: 180)
            ]
            let decoded = FITActivityReader.read(FITEncoder.encode(activity))
            #expect(decoded.warnings.isEmpty)
            #expect(decoded.serialNumber == activity.serialNumber && decoded.created == activity.created && decoded.fileType == 4)
            #expect(decoded.records.count == n)
            for (a, b) in zip(activity.records, decoded.records) {
                #expect(a.time == b.time && a.heartRate == b.heartRate && a.cadence == b.cadence && a.power == b.power && a.temperature == b.temperature)
                #expect((a.latitude == nil) == (b.latitude == nil) && abs((a.latitude ?? 0) - (b.latitude ?? 0)) < 1e-6)
                #expect(abs((a.altitude ?? 0) - (b.altitude ?? 0)) < 0.1 + 1e-9 && abs((a.distance ?? 0) - (b.distance ?? 0)) < 0.005 + 1e-9)
                #expect(abs((a.speed ?? 0) - (b.speed ?? 0)) < 0.0005 + 1e-9)
            }
            #expect(decoded.rrIntervalsMilliseconds == activity.rrIntervalsMilliseconds)
            #expect(decoded.sessions.first?.distance.map { abs($0 - distance) < 0.005 + 1e-9 } == true && decoded.sessions.first?.calories == 400)
            #expect(decoded.laps.count == 1 && decoded.laps.first?.averageHeartRate == 140)
        }
    }

    /// The encoder writes the invalid value for what does not fit, never a wrapped number.
    @Test func outOfRangeValuesAreWrittenAsInvalid() {
        var activity = ActivityRecording()
        activity.records = [
            ActivityRecording.Record(
                time: FITDecoder.epoch.addingTimeInterval(1e9), heartRate: 300, altitude: .nan, distance: -5,
                speed: .infinity, cadence: -1, power: 70_000, temperature: 200)
        ]
        let record = FITActivityReader.read(FITEncoder.encode(activity)).records.first
        #expect(record?.heartRate == nil && record?.altitude == nil && record?.distance == nil && record?.speed == nil)
        #expect(record?.cadence == nil && record?.power == nil && record?.temperature == nil)
    }

    /// The encoder's file for fitdecode: CI's `Tests/Reference/fit_crosscheck.py` reads it with
    /// fitdecode (PyPI) and compares every record with the JSON written beside it.
    @Test func writesAFileForTheFitdecodeCrossCheck() throws {
        var activity = ActivityRecording()
        activity.serialNumber = 4242
        let start = FITDecoder.epoch.addingTimeInterval(1_150_000_000)
        activity.created = start
        for i in 0..<300 {
            activity.records.append(
                ActivityRecording.Record(
                    time: start.addingTimeInterval(Double(i)), heartRate: i % 50 == 7 ? nil : 100 + i % 60, latitude: 48.2 + Double(i) * 1e-5,
                    longitude: 16.37 - Double(i) * 1e-5, altitude: 200 + Double(i % 40) / 5, distance: Double(i) * 3.5, speed: 3.5, cadence: 80 + i % 10,
                    power: 200 + i % 30, temperature: 18))
        }
        activity.rrIntervalsMilliseconds = (0..<23).map { 600 + Double($0) * 3 }
        activity.sessions = [ActivityRecording.Session(sport: 1, start: start, elapsedSeconds: 299, distance: 1046.5, calories: 250, averageHeartRate: 129, maximumHeartRate: 159)]
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("artifacts/fit")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(FITEncoder.encode(activity)).write(to: directory.appendingPathComponent("heartwork-encoded.fit"))
        let expected: [String: Any] = [
            "serial": 4242,
            "records": activity.records.map { r -> [String: Any] in
                [
                    "t": Int(r.time.timeIntervalSince1970), "hr": r.heartRate as Any, "lat": r.latitude ?? 0, "lon": r.longitude ?? 0, "alt": r.altitude ?? 0,
                    "dist": r.distance ?? 0, "speed": r.speed ?? 0, "cad": r.cadence ?? 0, "power": r.power ?? 0, "temp": r.temperature ?? 0,
                ]
            }, "rr": activity.rrIntervalsMilliseconds, "sessionDistance": 1046.5, "calories": 250,
        ]
        try JSONSerialization.data(withJSONObject: expected).write(to: directory.appendingPathComponent("heartwork-encoded.expected.json"))
    }

    @Test func crcMatchesTheSDKsReferenceValue() {
        // The FIT SDK's CRC over "123456789" (CRC-16/ARC, as fit_crc.c computes it): 0xBB3D.
        #expect(FITCRC.compute(Array("123456789".utf8)) == 0xBB3D)
        // Slicing by 8 gives what the SDK's nibble form gives, on every length up to 40 and
        // every split of a stream into two calls.
        var random = SplitMix64(seed: 16)
        let bytes = (0..<40).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for length in 0...bytes.count {
            let nibbles = bytes[..<length].reduce(UInt16(0x1D0F), FITCRC.update)
            #expect(FITCRC.compute(bytes[..<length], seed: 0x1D0F) == nibbles, "\(length) bytes")
            for split in 0...length {
                #expect(FITCRC.compute(bytes[split..<length], seed: FITCRC.compute(bytes[..<split], seed: 0x1D0F)) == nibbles)
            }
        }
        // The byte table gives what the SDK's nibble form gives, on every start and byte.
        for seed: UInt16 in [0, 1, 0x1234, 0xBB3D, 0xFFFF] {
            for byte in UInt8.min...UInt8.max {
                #expect(FITCRC.compute([byte], seed: seed) == FITCRC.update(seed, byte))
            }
        }
    }
}

@Suite("FIT workouts")
struct FITWorkoutTests {
    @Test func aFitToolRideBecomesAWorkout() throws {
        let activity = FITActivityReader.read(try FITTests.fixture("ride.fit"))
        let workout = try ActivityWorkout.newWorkout(from: activity)
        #expect(workout.sport == .cycling && !workout.indoor)
        #expect(workout.heartRate.count == 600 && workout.heartRate.compactMap { $0 }.count == activity.records.filter { $0.heartRate != nil }.count)
        #expect(workout.heartRate.first == 120 && workout.track.count == 600 && workout.rrIntervalsMilliseconds.count == 1200)
        #expect(workout.kilocalories == 312 && abs((workout.distanceMeters ?? 0) - 4834.6) < 1e-6)
        #expect(workout.startTime == ISO8601DateFormatter().date(from: "2026-06-01T06:30:00Z"))
    }

    /// A strap in HRV mode: RR intervals and no heart rate; the per-second heart rate is rebuilt.
    @Test func heartRateIsRebuiltFromRRWhenThereIsNone() throws {
        var activity = ActivityRecording()
        activity.created = FITDecoder.epoch.addingTimeInterval(1_100_000_000)
        activity.rrIntervalsMilliseconds = Array(repeating: 500, count: 20) + Array(repeating: 1000, count: 5)  // 10 s at 120, 5 s at 60
        let workout = try ActivityWorkout.newWorkout(from: FITActivityReader.read(FITEncoder.encode(activity)))
        #expect(workout.heartRate.compactMap { $0 }.prefix(9).allSatisfy { $0 == 120 })
        #expect(workout.heartRate.last == 60 && workout.heartRate.count == 16)
    }

    @Test func filesWithoutHeartRateOrWithAbsurdSpansAreRefused() {
        #expect(throws: ActivityWorkoutError.self) { try ActivityWorkout.newWorkout(from: FITActivityReader.read(Array("nonsense".utf8))) }
        var activity = ActivityRecording()
        let start = FITDecoder.epoch.addingTimeInterval(1_100_000_000)
        activity.records = [ActivityRecording.Record(time: start, heartRate: 100), ActivityRecording.Record(time: start.addingTimeInterval(400 * 86_400), heartRate: 100)]
        #expect { try ActivityWorkout.newWorkout(from: activity) } throws: { "\($0)".contains("hours") }
    }
}
