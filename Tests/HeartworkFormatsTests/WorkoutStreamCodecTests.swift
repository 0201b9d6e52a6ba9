import HeartworkCore
import HeartworkFormats
import HeartworkTestSupport
import Testing

@Suite("Workout stream blobs")
struct WorkoutStreamCodecTests {
    @Test func rrIntervalsComeBackExactlyAsSent() throws {
        var random = SplitMix64(seed: 11)
        for _ in 0..<200 {
            let values = (0..<Int.random(in: 0...400, using: &random)).map { _ in
                Bool.random(using: &random) ? Double.random(in: 20...5000, using: &random) : Double(Int.random(in: 20...5120, using: &random)) * 1000 / 1024
            }
            #expect(try WorkoutStreamCodec.decodeRRIntervals(WorkoutStreamCodec.encodeRRIntervals(values)) == values)
        }
        #expect(WorkoutStreamCodec.encodeRRIntervals(Array(repeating: 800, count: 9000)).count == 9000 * 8 + 1)
    }

    @Test func aPointWithoutElevationStaysWithout() throws {
        let track = try [
            GeoPoint(latitudeDegrees: 48.2, longitudeDegrees: 16.37, elevationMeters: 181.5, timeSeconds: 0),
            GeoPoint(latitudeDegrees: 48.2001, longitudeDegrees: 16.3701, elevationMeters: nil, timeSeconds: 1.5),
            GeoPoint(latitudeDegrees: 48.2002, longitudeDegrees: 16.3702, elevationMeters: -3.25, timeSeconds: 3),
        ]
        let decoded = try WorkoutStreamCodec.decodeTrack(WorkoutStreamCodec.encodeTrack(track))
        #expect(decoded.map(\.elevationMeters) == [181.5, nil, -3.25])
        #expect(decoded.map(\.timeSeconds) == [0, 1.5, 3])
    }

    /// Blobs stored by the first format still read: RR in 1/1024 s, one elevation flag per track.
    @Test func theFirstFormatStillReads() throws {
        // RR format 1: 1024 ticks (1000 ms) and 800 ticks (781.25 ms), little-endian.
        #expect(try WorkoutStreamCodec.decodeRRIntervals([1, 0x00, 0x04, 0x20, 0x03]) == [1000, 781.25])
        // Track format 1: 1 point, elevations present, lat +1e-7°·482000000, lon 163700000, t 0, ele 18050 cm.
        var bytes: [UInt8] = [1, 1, 1]
        func signed(_ value: Int64) {
            var raw = UInt64(bitPattern: (value << 1) ^ (value >> 63))
            while raw >= 0x80 {
                bytes.append(UInt8(raw & 0x7F) | 0x80)
                raw >>= 7
            }
            bytes.append(UInt8(raw))
        }
        signed(482_000_000)
        signed(163_700_000)
        signed(0)
        signed(18_050)
        let point = try #require(try WorkoutStreamCodec.decodeTrack(bytes).first)
        #expect(point.latitudeDegrees == 48.2 && point.longitudeDegrees == 16.37 && point.elevationMeters == 180.5)
    }

    @Test func randomBytesNeverTrap() {
        var random = SplitMix64(seed: 5)
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = try? WorkoutStreamCodec.decodeRRIntervals(bytes)
            _ = try? WorkoutStreamCodec.decodeTrack(bytes)
            _ = try? WorkoutStreamCodec.decodeHeartRate(bytes)
        }
    }
}
