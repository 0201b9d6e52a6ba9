import Foundation
import HeartworkCore
import HeartworkFormats
import Testing

@Suite("Health blocks")
struct HealthBlockCodecTests {
    /// A day of per-minute heart rate from a watch, a strap's hour at 1 Hz, and an HRV reading.
    static func day() -> [HealthSample] {
        let midnight = Date(timeIntervalSince1970: 1_774_566_000)  // 2026-03-27T00:00+01:00
        var random = SplitMix64(seed: 4)
        var samples = (0..<1440).map { minute in
            HealthSample(
                kind: .heartRate, start: midnight.addingTimeInterval(Double(minute * 60) + Double(random.next() % 5)),
                end: midnight.addingTimeInterval(Double(minute * 60) + 4), utcOffsetSeconds: 3600,
                value: Double(55 + random.next() % 60), source: "Anna’s Apple Watch", device: "Apple Watch")
        }
        for second in 0..<3600 {
            let t = midnight.addingTimeInterval(Double(18 * 3600 + second))
            samples.append(
                HealthSample(
                    kind: .heartRate, start: t, end: t, utcOffsetSeconds: 3600, value: Double(120 + second % 40),
                    source: "Polar H10 A1B2C3D4"))
        }
        samples[10].beats = [TimedHeartRate(timeSeconds: 1.02, beatsPerMinute: 61), TimedHeartRate(timeSeconds: 2, beatsPerMinute: 63.5)]
        return samples
    }

    @Test func aDayRoundTripsCompactly() throws {
        let samples = Self.day()
        let bytes = HealthBlockCodec.encode(samples)
        let decoded = try HealthBlockCodec.decode(bytes)
        #expect(decoded == samples.sorted { $0.start < $1.start })
        // Five years of one person's per-minute heart rate must stay under 100 MB (issue 11).
        let watchOnly = HealthBlockCodec.encode(Array(samples.prefix(1440)))
        let fiveYears = Double(watchOnly.count) * 365 * 5
        print("health block: \(watchOnly.count) bytes for a day of per-minute heart rate (\(Double(watchOnly.count) / 1440) per sample); five years ≈ \(Int(fiveYears / 1e6)) MB")
        #expect(fiveYears < 100e6)
        // Values keep three decimals; offsets whole minutes (Nepal's +5:45 included).
        let odd = HealthSample(
            kind: .bodyMass, start: Date(timeIntervalSince1970: 1e9), end: Date(timeIntervalSince1970: 1e9), utcOffsetSeconds: 20_700,
            value: 64.99978662, source: "Scale")
        let back = try HealthBlockCodec.decode(HealthBlockCodec.encode([odd]))
        #expect(back.first?.value == 65.0 && back.first?.utcOffsetSeconds == 20_700 && back.first?.kind == .bodyMass)
        #expect(try HealthBlockCodec.decode(HealthBlockCodec.encode([])).isEmpty)
    }

    @Test func damagedBlocksAreRefused() {
        let bytes = HealthBlockCodec.encode(Self.day())
        for cut in [0, 3, 4, 20, bytes.count / 2, bytes.count - 1] {
            #expect(throws: HealthBlockCodec.Failure.self) { try HealthBlockCodec.decode(Array(bytes.prefix(cut))) }
        }
        #expect(throws: HealthBlockCodec.Failure.self) { try HealthBlockCodec.decode(bytes + [0]) }
        #expect(throws: HealthBlockCodec.Failure.self) { try HealthBlockCodec.decode([0x48, 0x42, 0x02, 0]) }
        #expect(throws: HealthBlockCodec.Failure.self) { try HealthBlockCodec.decode([0x48, 0x42, 0x01, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]) }
        var random = SplitMix64(seed: 8)
        for _ in 0..<500 {
            var damaged = bytes
            damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next())
            _ = try? HealthBlockCodec.decode(damaged)  // refused or read: never a trap
        }
    }
}
