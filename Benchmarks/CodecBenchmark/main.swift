// Why Heartwork keeps three small codecs of its own instead of the library path it replaced:
// each is timed against that path on the same data in the same run (release build):
//
//   swift run -c release heartwork-codec-benchmarks
//
// 1. Reading a 2-hour workout upload (532 KiB): JSONValue + WorkoutJSON against JSONDecoder
//    into an equivalent Codable type.
// 2. Writing a page of 20 workout summaries and a 2-hour workout detail: JSONWriter against
//    JSONEncoder with the same shape.
// 3. Reading 20 workout rows from SQLite: the store's ColumnReader path against SQLKit's
//    Codable row decoding of the same query.
// 4. The raw live feed's sensor blocks (issue 26): a block of 256 readings from a strap at
//    1 Hz encoded and decoded in format 2 against format 1, and appending to a block that
//    holds 255 (format 2 steps over the block for its last values).
// It prints figures and ratios; it asserts nothing.
import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import Logging
import SQLKit

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Median seconds per call over `rounds` rounds of `repetitions` calls.
func time(rounds: Int = 15, repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
    var samples = [Double]()
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<repetitions { try body() }
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(repetitions))
    }
    return median(samples)
}

func asyncTime(rounds: Int = 15, repetitions: Int, _ body: () async throws -> Void) async rethrows -> Double {
    var samples = [Double]()
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<repetitions { try await body() }
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(repetitions))
    }
    return median(samples)
}

func report(_ name: String, ours: Double, library: Double, libraryName: String) {
    let label = name.padding(toLength: 42, withPad: " ", startingAt: 0)
    print(
        label + String(format: " ours %8.3f ms   ", ours * 1000) + libraryName.padding(toLength: 15, withPad: " ", startingAt: 0)
            + String(format: " %8.3f ms   ratio %5.1f×", library * 1000, library / ours))
}

// MARK: 1. Reading an upload

struct CodableTrackPoint: Codable {
    let lat: Double
    let lon: Double
    let ele: Double?
    let t: Double
}
struct CodableUpload: Codable {
    let sport: String
    let startTime: String
    let indoor: Bool?
    let heartRate: [Int?]
    let rrIntervals: [Double]?
    let track: [CodableTrackPoint]?
    let distanceMeters: Double?
    let kilocalories: Double?
}

let heartRate = (0..<7200).map { String(120 + $0 % 40) }.joined(separator: ",")
let rr = (0..<9000).map { String(600 + $0 % 50) }.joined(separator: ",")
let trackText = (0..<7200).map { index -> String in
    "{\"lat\":\(48.2 + Double(index) * 1e-5),\"lon\":\(16.37 + Double(index % 100) * 1e-5),\"ele\":180.0,\"t\":\(index)}"
}.joined(separator: ",")
let upload = Array(
    "{\"sport\":\"running\",\"startTime\":\"2026-11-01T07:00:00Z\",\"indoor\":false,\"heartRate\":[\(heartRate)],\"rrIntervals\":[\(rr)],\"track\":[\(trackText)]}".utf8)
let uploadData = Data(upload)
print("Upload: \(upload.count / 1024) KiB")
let decoder = JSONDecoder()
let ours1 = try time(repetitions: 5) { _ = try WorkoutJSON.read(upload) }
let library1 = try time(repetitions: 5) { _ = try decoder.decode(CodableUpload.self, from: uploadData) }
report("read a 2-hour workout upload", ours: ours1, library: library1, libraryName: "JSONDecoder")

// MARK: 2. Writing responses

struct CodableSummary: Codable {
    let id: String, ownerID: String, sport: String, startTime: Date, indoor: Bool, durationSeconds: Int
    let averageHeartRate: Double?, minimumHeartRate: Double?, maximumHeartRate: Double?, kilocalories: Double?, distanceMeters: Double?
    let rrIntervalCount: Int, trackPointCount: Int, shared: Bool
}
struct CodableList: Codable {
    let workouts: [CodableSummary]
    let limit: Int
    let offset: Int
}
struct CodablePoint: Codable { let lat: Double, lon: Double, ele: Double?, t: Double }
struct CodableDetail: Codable {
    let summary: CodableSummary
    let heartRate: [Int?]
    let rrIntervals: [Double]
    let track: [CodablePoint]
}

let summaries = (0..<20).map { index in
    CodableSummary(
        id: UUID().uuidString.lowercased(), ownerID: UUID().uuidString.lowercased(), sport: "running",
        startTime: Date(timeIntervalSince1970: 1_763_000_000 + Double(index) * 86_400), indoor: false, durationSeconds: 3600,
        averageHeartRate: 145.3, minimumHeartRate: 98, maximumHeartRate: 181, kilocalories: 612.4, distanceMeters: 10_234,
        rrIntervalCount: 4500, trackPointCount: 1800, shared: index % 2 == 0)
}
func write(_ summary: CodableSummary, to json: inout JSONWriter) {
    json.beginObject()
    json.field("averageHeartRate", summary.averageHeartRate)
    json.field("distanceMeters", summary.distanceMeters)
    json.field("durationSeconds", summary.durationSeconds)
    json.field("id", summary.id)
    json.field("indoor", summary.indoor)
    json.field("kilocalories", summary.kilocalories)
    json.field("maximumHeartRate", summary.maximumHeartRate)
    json.field("minimumHeartRate", summary.minimumHeartRate)
    json.field("ownerID", summary.ownerID)
    json.field("rrIntervalCount", summary.rrIntervalCount)
    json.field("shared", summary.shared)
    json.field("sport", summary.sport)
    json.field("startTime", summary.startTime)
    json.field("trackPointCount", summary.trackPointCount)
    json.endObject()
}
let encoder = JSONEncoder()
encoder.dateEncodingStrategy = .iso8601
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
let list = CodableList(workouts: summaries, limit: 20, offset: 0)
let ours2 = time(repetitions: 200) {
    var json = JSONWriter(capacity: 512 * 21)
    json.beginObject()
    json.field("limit", 20)
    json.field("offset", 0)
    json.key("workouts")
    json.beginArray()
    for summary in summaries { write(summary, to: &json) }
    json.endArray()
    json.endObject()
    _ = json.bytes.count
}
let library2 = try time(repetitions: 200) { _ = try encoder.encode(list) }
report("write a page of 20 workout summaries", ours: ours2, library: library2, libraryName: "JSONEncoder")

let detail = CodableDetail(
    summary: summaries[0], heartRate: (0..<7200).map { $0 % 900 == 0 ? nil : 120 + $0 % 40 },
    rrIntervals: (0..<9000).map { 600 + Double($0 % 50) * 0.977 },
    track: (0..<7200).map { CodablePoint(lat: 48.2 + Double($0) * 1e-5, lon: 16.37, ele: 180.5, t: Double($0)) })
let ours3 = time(repetitions: 5) {
    var json = JSONWriter(capacity: 600_000)
    json.beginObject()
    json.key("heartRate")
    json.beginArray()
    for value in detail.heartRate { if let value { json.integer(value) } else { json.null() } }
    json.endArray()
    json.key("rrIntervals")
    json.beginArray()
    for value in detail.rrIntervals { json.number(value) }
    json.endArray()
    json.key("summary")
    write(detail.summary, to: &json)
    json.key("track")
    json.beginArray()
    for point in detail.track {
        json.beginObject()
        json.field("ele", point.ele)
        json.field("lat", point.lat)
        json.field("lon", point.lon)
        json.field("t", point.t)
        json.endObject()
    }
    json.endArray()
    json.endObject()
    _ = json.bytes.count
}
let library3 = try time(repetitions: 5) { _ = try encoder.encode(detail) }
report("write a 2-hour workout with its streams", ours: ours3, library: library3, libraryName: "JSONEncoder")

// MARK: 3. Reading rows

struct CodableWorkoutRow: Decodable {
    let id: String, user_id: String, sport: String, started_at: Int64, indoor: Int64, duration_s: Int64
    let avg_hr: Double?, min_hr: Double?, max_hr: Double?, kilocalories: Double?, distance_m: Double?
    let zone_none_s: Int64?, zone_low_s: Int64?, zone_moderate_s: Int64?, zone_high_s: Int64?, zone_red_line_s: Int64?
    let profile_age: Int64?, profile_resting_hr: Double?, profile_max_hr: Double?, profile_max_hr_method: String?
    let profile_weight_kg: Double?, profile_sex: String?, rr_count: Int64, track_count: Int64, shared: Int64, shared_at: Int64?, created_at: Int64
}

var logger = Logger(label: "codec-benchmark")
logger.logLevel = .error
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("heartwork-codec-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let store = try await HeartworkStore.open(.sqlite(path: directory.appendingPathComponent("bench.sqlite").path), logger: logger, cachesReads: false)
let owner = UserRecord(username: "bench", fullName: "Bench Mark", email: "b@example.org", passwordHash: "x")
try await store.users.create(owner)
for index in 0..<200 {
    let record = WorkoutRecord(
        userID: owner.id, sport: .running, startedAt: Date(timeIntervalSince1970: 1_763_000_000 + Double(index) * 3600), indoor: false,
        metrics: WorkoutMetrics(
            durationSeconds: 3600, averageHeartRate: 145, minimumHeartRate: 98, maximumHeartRate: 181,
            secondsInZones: [100, 200, 300, 400, 500], kilocalories: 600, distanceMeters: 10_000),
        profile: ProfileSnapshot(ageYears: 30, restingHeartRate: 55, maximumHeartRate: 186.8, maximumHeartRateSource: .gellish, weightKilograms: 70, sex: .female),
        rrCount: 4500, trackCount: 1800)
    try await store.workouts.insert(record, streams: WorkoutStreams(heartRate: [120]))
}
let columns = """
    id, user_id, sport, started_at, indoor, duration_s, avg_hr, min_hr, max_hr, kilocalories, distance_m,
    zone_none_s, zone_low_s, zone_moderate_s, zone_high_s, zone_red_line_s,
    profile_age, profile_resting_hr, profile_max_hr, profile_max_hr_method, profile_weight_kg, profile_sex,
    rr_count, track_count, shared, shared_at, created_at
    """
let ours4 = try await asyncTime(repetitions: 200) { _ = try await store.workouts.list(userID: owner.id, from: nil, to: nil, sharedOnly: false, page: Page(limit: 20)) }
let library4 = try await asyncTime(repetitions: 200) {
    _ = try await store.database.sql.raw(
        """
        SELECT \(unsafeRaw: columns) FROM workouts WHERE user_id = \(bind: owner.id)
        ORDER BY started_at DESC, id DESC LIMIT 20 OFFSET 0
        """
    ).all(decoding: CodableWorkoutRow.self)
}
report("read 20 workout rows from SQLite", ours: ours4, library: library4, libraryName: "SQLKit Codable")
try await store.shutdown()
try? FileManager.default.removeItem(at: directory)

// MARK: 4. Sensor blocks

/// Format 1 as written until issue 26 (the codec reads it, no longer writes it).
func encodeFormat1(_ readings: [SensorReading]) -> [UInt8] {
    var bytes: [UInt8] = [1, UInt8(truncatingIfNeeded: readings.count), UInt8(truncatingIfNeeded: readings.count >> 8)]
    bytes.reserveCapacity(3 + readings.count * 24)
    func append(_ value: UInt64, _ count: Int) { for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * index))) } }
    for reading in readings {
        append(UInt64(bitPattern: Int64(reading.sequence)), 8)
        append(UInt64(bitPattern: Int64(reading.atMilliseconds)), 8)
        append(UInt64(UInt16(clamping: reading.beatsPerMinute)), 2)
        var flags: UInt8 = reading.contact == .detected ? 2 : reading.contact == .notDetected ? 1 : 0
        if reading.battery != nil { flags |= 0x04 }
        if reading.rssi != nil { flags |= 0x08 }
        bytes.append(flags)
        if let battery = reading.battery { bytes.append(UInt8(clamping: battery)) }
        if let rssi = reading.rssi { bytes.append(UInt8(bitPattern: Int8(clamping: rssi))) }
        bytes.append(UInt8(reading.rrIntervalTicks.count))
        for tick in reading.rrIntervalTicks { append(UInt64(tick), 2) }
    }
    return bytes
}

var strapRandom = SplitMix64(seed: 26)
var strapBPM = 72
let strapBlock = (0..<256).map { index -> SensorReading in
    strapBPM = min(185, max(45, strapBPM + Int(strapRandom.next() % 7) - 3))
    return SensorReading(
        sequence: 256 + index, atMilliseconds: 1_795_400_000_000 + index * 1000 + Int(strapRandom.next() % 51) - 25,
        beatsPerMinute: strapBPM, contact: .detected, battery: 87, rssi: -66 + Int(strapRandom.next() % 9),
        rrIntervalTicks: [UInt16(61_440 / strapBPM + Int(strapRandom.next() % 25) - 12)])
}
let compactBlock = SensorBlockCodec.encode(strapBlock)
let legacyBlock = encodeFormat1(strapBlock)
print(
    "Sensor block of 256 readings: format 2 \(compactBlock.count) bytes (\(String(format: "%.2f", Double(compactBlock.count) / 256)) a reading), "
        + "format 1 \(legacyBlock.count) (\(String(format: "%.2f", Double(legacyBlock.count) / 256)))")
let encode2 = time(repetitions: 2000) { _ = SensorBlockCodec.encode(strapBlock).count }
let encode1 = time(repetitions: 2000) { _ = encodeFormat1(strapBlock).count }
report("encode a sensor block (256 readings)", ours: encode2, library: encode1, libraryName: "format 1")
let decode2 = try time(repetitions: 2000) { _ = try SensorBlockCodec.decode(compactBlock).count }
let decode1 = try time(repetitions: 2000) { _ = try SensorBlockCodec.decode(legacyBlock).count }
report("decode a sensor block (256 readings)", ours: decode2, library: decode1, libraryName: "format 1")
let summary2 = try time(repetitions: 2000) { _ = try SensorBlockCodec.summary(compactBlock).count }
let summary1 = try time(repetitions: 2000) { _ = try SensorBlockCodec.summary(legacyBlock).count }
report("step over a sensor block (summary)", ours: summary2, library: summary1, libraryName: "format 1")
let almostFull = SensorBlockCodec.encode(Array(strapBlock.prefix(255)))
let append2 = time(repetitions: 2000) { _ = SensorBlockCodec.appending([strapBlock[255]], to: almostFull)?.count }
print(
    String(
        format: "per reading: encode %.0f ns (format 1 %.0f), decode %.0f ns (format 1 %.0f), summary %.0f ns; appending 1 reading to 255: %.2f µs",
        encode2 / 256 * 1e9, encode1 / 256 * 1e9, decode2 / 256 * 1e9, decode1 / 256 * 1e9, summary2 / 256 * 1e9, append2 * 1e6))
