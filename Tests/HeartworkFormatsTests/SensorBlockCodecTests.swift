import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkTestSupport
import Testing

/// Issue 26: the raw live feed's blocks in format 2 (deltas and varints), format-1 blocks
/// still read, every value a reading can hold kept exactly, damage refused without a trap.
@Suite("Sensor blocks")
struct SensorBlockCodecTests {
    /// A strap at 1 Hz as a gateway hears it: the gateway's clock jitters ±25 ms, heart rate
    /// drifts by up to 3 bpm a second, RR intervals near 60,000/bpm ms, battery constant,
    /// RSSI within ±4 dBm of -62, contact detected.
    static func strap(count: Int, rssi: Bool = true, intervals: Int = 1, seed: UInt64 = 26) -> [SensorReading] {
        var random = SplitMix64(seed: seed)
        func uniform(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        var bpm = 72
        return (0..<count).map { index in
            bpm = min(185, max(45, bpm + uniform(-3...3)))
            let ticks = 61_440 / bpm
            return SensorReading(
                sequence: 5_000 + index, atMilliseconds: 1_795_400_000_000 + index * 1000 + uniform(-25...25), beatsPerMinute: bpm,
                contact: .detected, battery: 87, rssi: rssi ? -62 + uniform(-4...4) : nil,
                rrIntervalTicks: (0..<intervals).map { _ in UInt16(ticks + uniform(-12...12)) })
        }
    }

    /// Bytes a stored reading takes, header included, over an hour in blocks of 256 sequence numbers.
    static func bytesPerReading(_ readings: [SensorReading], _ encode: ([SensorReading]) -> [UInt8]) -> Double {
        let blocks = Dictionary(grouping: readings) { SensorBlockCodec.block(of: $0.sequence) }
        return Double(blocks.values.map { encode($0.sorted { $0.sequence < $1.sequence }).count }.reduce(0, +)) / Double(readings.count)
    }

    /// Readings with anything a SensorReading can hold: extreme and negative numbers, times out
    /// of order, values missing, 0 to 300 RR intervals.
    static func arbitraryBlock(_ random: inout SplitMix64) -> [SensorReading] {
        func pick(_ values: [Int]) -> Int { values[Int(random.next() % UInt64(values.count))] }
        func any() -> Int {
            switch random.next() % 4 {
            case 0: pick([Int.min, Int.max, Int.min + 1, Int.max - 1, 0, -1, 1, 255, 256, -128, 65_535, 65_536])
            case 1: Int(truncatingIfNeeded: random.next())
            default: Int(truncatingIfNeeded: random.next() % 2_000) - 1_000
            }
        }
        let count = pick([0, 1, 2, 3, 17, 256, Int(random.next() % 300)])
        var sequence = random.next() % 3 == 0 ? any() : Int(random.next() % 100_000)
        var at = random.next() % 3 == 0 ? any() : 1_795_400_000_000 + Int(random.next() % 1_000_000)
        var readings = [SensorReading]()
        for _ in 0..<count {
            sequence = random.next() % 4 == 0 ? any() : sequence &+ (random.next() % 5 == 0 ? Int(random.next() % 10) : 1)
            at = random.next() % 4 == 0 ? any() : at &+ 1_000 + Int(random.next() % 200) - 100
            let rrCount = random.next() % 10 == 0 ? Int(random.next() % 300) : Int(random.next() % 4)
            readings.append(
                SensorReading(
                    sequence: sequence, atMilliseconds: at, beatsPerMinute: random.next() % 5 == 0 ? any() : 40 + Int(random.next() % 160),
                    contact: SensorContact.allCases[Int(random.next() % 3)],
                    battery: random.next() % 3 == 0 ? nil : (random.next() % 4 == 0 ? any() : 80 + Int(random.next() % 3)),
                    rssi: random.next() % 3 == 0 ? nil : (random.next() % 4 == 0 ? any() : -60 + Int(random.next() % 9) - 4),
                    rrIntervalTicks: (0..<rrCount).map { _ in random.next() % 5 == 0 ? UInt16(truncatingIfNeeded: random.next()) : UInt16(600 + random.next() % 400) }))
        }
        return readings
    }

    @Test func arbitraryBlocksRoundTripAndAppendAsEncoded() throws {
        var random = SplitMix64(seed: 2026)
        var readingsSeen = 0
        for _ in 0..<1_000 {
            let block = Self.arbitraryBlock(&random)
            readingsSeen += block.count
            let bytes = SensorBlockCodec.encode(block)
            #expect(bytes.first == 2)
            #expect(try SensorBlockCodec.decode(bytes) == block)
            let summary = try SensorBlockCodec.summary(bytes)
            #expect(summary.count == block.count && summary.highestSequence == block.map(\.sequence).max())
            // Appending at any split gives what encoding the whole gives.
            let split = block.isEmpty ? 0 : Int(random.next() % UInt64(block.count + 1))
            let appended = SensorBlockCodec.appending(Array(block[split...]), to: SensorBlockCodec.encode(Array(block[..<split])))
            #expect(appended == bytes)
            // A kept tail appends one reading at a time to the same bytes, never reading the
            // block again; a tail that is not the block's any more changes nothing.
            var grown = SensorBlockCodec.encode([])
            var tail = try #require(SensorBlockCodec.tail(of: grown))
            for reading in block { #expect(SensorBlockCodec.append([reading], to: &grown, tail: &tail)) }
            #expect(grown == bytes && tail.count == block.count)
            if !block.isEmpty {
                var stale = try #require(SensorBlockCodec.tail(of: SensorBlockCodec.encode(Array(block.dropLast()))))
                var unchanged = bytes
                #expect(!SensorBlockCodec.append([block[block.count - 1]], to: &unchanged, tail: &stale) && unchanged == bytes)
            }
        }
        #expect(readingsSeen > 50_000)
    }

    @Test func extremeValuesRoundTrip() throws {
        let extremes = [Int.min, Int.min + 1, -1, 0, 1, Int.max - 1, Int.max]
        var readings = [SensorReading]()
        for (index, value) in extremes.enumerated() {
            readings.append(
                SensorReading(
                    sequence: value, atMilliseconds: extremes[(index + 3) % extremes.count], beatsPerMinute: value, contact: .notSupported,
                    battery: value, rssi: extremes[(index + 1) % extremes.count], rrIntervalTicks: [0, UInt16.max, 0, 1, UInt16.max]))
            readings.append(
                SensorReading(sequence: value, atMilliseconds: value, beatsPerMinute: 0, contact: .notDetected, rrIntervalTicks: Array(repeating: UInt16.max, count: 1_000)))
        }
        let bytes = SensorBlockCodec.encode(readings)
        #expect(try SensorBlockCodec.decode(bytes) == readings)
        #expect(try SensorBlockCodec.summary(bytes).highestSequence == Int.max)
        #expect(try SensorBlockCodec.decode(SensorBlockCodec.encode([])) == [])
        #expect(try SensorBlockCodec.summary(SensorBlockCodec.encode([])) == (0, nil))
        // A reading that only wraps (Int.max to Int.min is a step of 1) and an empty block appended to.
        let wrap = [Int.max, Int.min].map { SensorReading(sequence: $0, atMilliseconds: $0, beatsPerMinute: 60, contact: .detected) }
        #expect(try SensorBlockCodec.decode(SensorBlockCodec.encode(wrap)) == wrap)
        #expect(SensorBlockCodec.appending(wrap, to: SensorBlockCodec.encode([])) == SensorBlockCodec.encode(wrap))
        #expect(SensorBlockCodec.appending([], to: SensorBlockCodec.encode(wrap)) == SensorBlockCodec.encode(wrap))
    }

    @Test func format1BlocksAreStillRead() throws {
        // A block as format 1 wrote it, byte by byte: seq 256 at 1,000 ms, 61 bpm, detected,
        // battery 90, RSSI -40, one RR of 1,000 ticks; then seq 257, no battery or RSSI, no RR.
        let fixed: [UInt8] =
            [1, 2, 0] + [0, 1, 0, 0, 0, 0, 0, 0] + [0xE8, 3, 0, 0, 0, 0, 0, 0] + [61, 0, 0x0E, 90, 0xD8, 1, 0xE8, 3]
            + [1, 1, 0, 0, 0, 0, 0, 0] + [0xD0, 7, 0, 0, 0, 0, 0, 0] + [62, 0, 1, 0]
        let expected = [
            SensorReading(sequence: 256, atMilliseconds: 1_000, beatsPerMinute: 61, contact: .detected, battery: 90, rssi: -40, rrIntervalTicks: [1_000]),
            SensorReading(sequence: 257, atMilliseconds: 2_000, beatsPerMinute: 62, contact: .notDetected),
        ]
        #expect(SensorBlockFormat1.encode(expected) == fixed)
        #expect(try SensorBlockCodec.decode(fixed) == expected)
        #expect(try SensorBlockCodec.summary(fixed) == (2, 257))
        // A format-1 block is not appended to: the caller decodes, merges and writes format 2.
        #expect(SensorBlockCodec.appending([expected[1]], to: fixed) == nil)
        // What format 1 could hold reads back the same, and re-encodes smaller.
        var random = SplitMix64(seed: 1)
        for _ in 0..<200 {
            let block = Self.arbitraryBlock(&random).map { reading in
                var reading = reading
                reading.beatsPerMinute = Int(UInt16(truncatingIfNeeded: reading.beatsPerMinute))
                reading.battery = reading.battery.map { Int(UInt8(truncatingIfNeeded: $0)) }
                reading.rssi = reading.rssi.map { Int(Int8(truncatingIfNeeded: $0)) }
                reading.rrIntervalTicks = Array(reading.rrIntervalTicks.prefix(255))
                return reading
            }
            let old = SensorBlockFormat1.encode(block)
            #expect(try SensorBlockCodec.decode(old) == block)
            let summary = try SensorBlockCodec.summary(old)
            #expect(summary.count == block.count && summary.highestSequence == block.map(\.sequence).max())
            #expect(try SensorBlockCodec.decode(SensorBlockCodec.encode(SensorBlockCodec.decode(old))) == block)
        }
        let hour = Self.strap(count: 3_600)
        #expect(SensorBlockCodec.encode(hour).count * 3 < SensorBlockFormat1.encode(hour).count)
    }

    @Test func damagedBlocksThrowAndNeverTrap() throws {
        let block =
            Self.strap(count: 256, intervals: 2) + [
                SensorReading(
                    sequence: 9_000, atMilliseconds: -5, beatsPerMinute: Int.max, contact: .notSupported, battery: nil, rssi: Int.min,
                    rrIntervalTicks: Array(repeating: 800, count: 7))
            ]
        let bytes = SensorBlockCodec.encode(block)
        // Every truncation is refused by decode and summary, and not appended to.
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[..<cut])
            #expect(throws: SensorBlockError.self) { try SensorBlockCodec.decode(prefix) }
            #expect(throws: SensorBlockError.self) { try SensorBlockCodec.summary(prefix) }
            #expect(SensorBlockCodec.appending(block, to: prefix) == nil)
        }
        #expect(throws: SensorBlockError.trailingBytes(bytes.count)) { try SensorBlockCodec.decode(bytes + [0]) }
        #expect(throws: SensorBlockError.trailingBytes(bytes.count)) { try SensorBlockCodec.summary(bytes + [0]) }
        #expect(SensorBlockCodec.appending(block, to: bytes + [0]) == nil)
        #expect(throws: SensorBlockError.unknownFormat) { try SensorBlockCodec.decode([3] + bytes.dropFirst()) }
        #expect(throws: SensorBlockError.unknownFormat) { try SensorBlockCodec.summary([0, 0, 0]) }
        #expect(SensorBlockCodec.appending([], to: [3, 0, 0]) == nil)
        // Values no encoder writes: contact 3, battery code 3, an RR interval below 0 or above
        // 65,535, a varint past 64 bits, a count the bytes cannot hold.
        let one: [UInt8] = [2, 1, 0]
        #expect(throws: SensorBlockError.corrupt(3)) { try SensorBlockCodec.decode(one + [0x07, 0, 0]) }
        #expect(throws: SensorBlockError.corrupt(3)) { try SensorBlockCodec.decode(one + [0x19, 0, 0]) }
        #expect(throws: SensorBlockError.corrupt(6)) { try SensorBlockCodec.decode(one + [0x41, 0, 0, 1]) }
        #expect(throws: SensorBlockError.corrupt(6)) { try SensorBlockCodec.decode(one + [0x41, 0, 0, 0x80, 0x80, 0x08]) }
        #expect(
            try SensorBlockCodec.decode(one + [0x41, 0, 0, 0xFE, 0xFF, 0x07]) == [
                SensorReading(sequence: 1, atMilliseconds: 1_000, beatsPerMinute: 0, contact: .notSupported, rrIntervalTicks: [65_535])
            ])
        #expect(throws: SensorBlockError.corrupt(13)) { try SensorBlockCodec.decode(one + [0x00] + Array(repeating: 0xFF, count: 9) + [0x02]) }
        #expect(throws: SensorBlockError.self) { try SensorBlockCodec.decode(one + [0xC1, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]) }
        #expect(throws: SensorBlockError.self) { try SensorBlockCodec.decode([2, 0xFF, 0xFF, 1, 0, 0]) }
        // Random damage: refused or read, never a trap; what summary accepts decode accepts.
        var random = SplitMix64(seed: 9)
        for _ in 0..<3_000 {
            var damaged = bytes
            for _ in 0..<(1 + random.next() % 3) { damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next()) }
            let decoded = try? SensorBlockCodec.decode(damaged)
            let summary = try? SensorBlockCodec.summary(damaged)
            #expect((decoded == nil) == (summary == nil))
            if let decoded, damaged[0] == 2 { #expect(SensorBlockCodec.appending([], to: damaged) != nil && decoded.count == summary?.count) }
        }
    }

    @Test func aStrapAtOneHertzTakesAtMostEightBytesAReading() {
        let variants: [(String, [SensorReading])] = [
            ("1 RR, RSSI", Self.strap(count: 3_600)),
            ("1 RR, no RSSI", Self.strap(count: 3_600, rssi: false)),
            ("2 RR, RSSI", Self.strap(count: 3_600, intervals: 2)),
            ("no RR, RSSI", Self.strap(count: 3_600, intervals: 0)),
        ]
        for (name, readings) in variants {
            let compact = Self.bytesPerReading(readings, SensorBlockCodec.encode)
            let old = Self.bytesPerReading(readings, SensorBlockFormat1.encode)
            print("sensor block, strap at 1 Hz (\(name)): format 2 \(String(format: "%.2f", compact)) bytes a reading, format 1 \(String(format: "%.2f", old))")
            if name == "1 RR, RSSI" { #expect(compact <= 8) }
            #expect(compact * 3 < old)
        }
    }
}
