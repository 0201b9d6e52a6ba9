import HeartworkCore

/// The raw live feed is kept in blocks: one row per sensor and 256 consecutive sequence
/// numbers (about four minutes at 1 Hz), not a row per reading. A block holds its readings
/// sorted by sequence number, each once, so storing is a merge that gives the same block
/// whatever the order and however often readings arrive.
///
/// Layout, little-endian: format byte (1), count (UInt16), then per reading: sequence (Int64),
/// at (Int64, Unix ms), bpm (UInt16), flags (bits 0–1 contact: 0 not supported, 1 not
/// detected, 2 detected; bit 2 battery present; bit 3 RSSI present), battery (UInt8) and
/// RSSI (Int8) when present, RR count (UInt8), RR intervals (UInt16 each, 1/1024 s).
public enum SensorBlockCodec {
    public static let readingsPerBlock = 256
    static let format: UInt8 = 1

    public static func block(of sequence: Int) -> Int { sequence / readingsPerBlock }

    /// `readings` sorted by sequence, each sequence once (as `merge` returns them).
    public static func encode(_ readings: [SensorReading]) -> [UInt8] {
        var bytes: [UInt8] = [format]
        bytes.reserveCapacity(3 + readings.count * 24)
        append(UInt16(clamping: readings.count), to: &bytes)
        for reading in readings.prefix(Int(UInt16.max)) {
            append(UInt64(bitPattern: Int64(reading.sequence)), to: &bytes)
            append(UInt64(bitPattern: Int64(reading.atMilliseconds)), to: &bytes)
            append(UInt16(clamping: reading.beatsPerMinute), to: &bytes)
            var flags: UInt8 =
                switch reading.contact {
                case .notSupported: 0
                case .notDetected: 1
                case .detected: 2
                }
            if reading.battery != nil { flags |= 0x04 }
            if reading.rssi != nil { flags |= 0x08 }
            bytes.append(flags)
            if let battery = reading.battery { bytes.append(UInt8(clamping: battery)) }
            if let rssi = reading.rssi { bytes.append(UInt8(bitPattern: Int8(clamping: rssi))) }
            let rr = reading.rrIntervalTicks.prefix(Int(UInt8.max))
            bytes.append(UInt8(rr.count))
            for tick in rr { append(tick, to: &bytes) }
        }
        return bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(SensorBlockError) -> [SensorReading] {
        var reader = ByteReader(bytes: bytes)
        guard try reader.byte() == format else { throw .unknownFormat }
        let count = Int(try reader.uint16())
        var readings = [SensorReading]()
        readings.reserveCapacity(count)
        for _ in 0..<count {
            let sequence = Int(Int64(bitPattern: try reader.uint64()))
            let at = Int(Int64(bitPattern: try reader.uint64()))
            let bpm = Int(try reader.uint16())
            let flags = try reader.byte()
            let contact: SensorContact =
                switch flags & 0x03 {
                case 1: .notDetected
                case 2: .detected
                default: .notSupported
                }
            let battery = flags & 0x04 != 0 ? Int(try reader.byte()) : nil
            let rssi = flags & 0x08 != 0 ? Int(Int8(bitPattern: try reader.byte())) : nil
            let rrCount = Int(try reader.byte())
            var rr = [UInt16]()
            rr.reserveCapacity(rrCount)
            for _ in 0..<rrCount { rr.append(try reader.uint16()) }
            readings.append(
                SensorReading(
                    sequence: sequence, atMilliseconds: at, beatsPerMinute: bpm, contact: contact,
                    battery: battery, rssi: rssi, rrIntervalTicks: rr))
        }
        guard reader.offset == bytes.count else { throw .trailingBytes(reader.offset) }
        return readings
    }

    /// `existing` (sorted, unique) with those of `incoming` whose sequence it lacks; the
    /// first copy of a sequence wins. Returns the merged block and the readings it gained,
    /// in sequence order.
    /// How many readings a block holds and the highest sequence number among them, by
    /// stepping over the bytes without building the readings (what appending needs).
    public static func summary(_ bytes: [UInt8]) throws(SensorBlockError) -> (count: Int, highestSequence: Int?) {
        var reader = ByteReader(bytes: bytes)
        guard try reader.byte() == format else { throw .unknownFormat }
        let count = Int(try reader.uint16())
        var highest: Int?
        for _ in 0..<count {
            let sequence = Int(Int64(bitPattern: try reader.uint64()))
            highest = max(highest ?? sequence, sequence)
            try reader.skip(8 + 2)
            let flags = try reader.byte()
            try reader.skip((flags & 0x04 != 0 ? 1 : 0) + (flags & 0x08 != 0 ? 1 : 0))
            let rrCount = Int(try reader.byte())
            try reader.skip(2 * rrCount)
        }
        guard reader.offset == bytes.count else { throw .trailingBytes(reader.offset) }
        return (count, highest)
    }

    /// `readings` (in increasing sequence, none of them in the block yet) appended to an
    /// encoded block without decoding it: the count in the header grows, the readings' bytes
    /// follow. Nil when `encoded` is not a block of this format or would hold too many.
    public static func appending(_ readings: [SensorReading], to encoded: [UInt8]) -> [UInt8]? {
        guard encoded.count >= 3, encoded[0] == format else { return nil }
        let count = Int(encoded[1]) | Int(encoded[2]) << 8
        guard count + readings.count <= Int(UInt16.max) else { return nil }
        let tail = encode(readings)
        var bytes = encoded
        bytes.reserveCapacity(encoded.count + tail.count - 3)
        bytes[1] = UInt8(truncatingIfNeeded: count + readings.count)
        bytes[2] = UInt8(truncatingIfNeeded: (count + readings.count) >> 8)
        bytes.append(contentsOf: tail[3...])
        return bytes
    }

    public static func merge(_ existing: [SensorReading], _ incoming: [SensorReading]) -> (merged: [SensorReading], added: [SensorReading]) {
        var known = Set(existing.map(\.sequence))
        var added = [SensorReading]()
        for reading in incoming where !known.contains(reading.sequence) {
            known.insert(reading.sequence)
            added.append(reading)
        }
        guard !added.isEmpty else { return (existing, []) }
        added.sort { $0.sequence < $1.sequence }
        // Readings usually come in order: then they go after the others, with no sort.
        if existing.last.map({ added[0].sequence > $0.sequence }) ?? true { return (existing + added, added) }
        return ((existing + added).sorted { $0.sequence < $1.sequence }, added)
    }

    private static func append(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private struct ByteReader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() throws(SensorBlockError) -> UInt8 {
            guard offset < bytes.count else { throw .truncated(offset) }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func skip(_ count: Int) throws(SensorBlockError) {
            guard count <= bytes.count - offset else { throw .truncated(bytes.count) }
            offset += count
        }

        mutating func uint16() throws(SensorBlockError) -> UInt16 {
            UInt16(try byte()) | UInt16(try byte()) << 8
        }

        mutating func uint64() throws(SensorBlockError) -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(try byte()) << UInt64(shift) }
            return value
        }
    }
}

public enum SensorBlockError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownFormat
    case truncated(Int)
    case trailingBytes(Int)

    public var description: String {
        switch self {
        case .unknownFormat: "a sensor block of an unknown format"
        case .truncated(let offset): "a sensor block cut short at byte \(offset)"
        case .trailingBytes(let offset): "a sensor block with bytes after its last reading (from byte \(offset))"
        }
    }
}
