import HeartworkCore

/// The raw live feed is kept in blocks: one row per sensor and 256 consecutive sequence
/// numbers (about four minutes at 1 Hz), not a row per reading. A block holds its readings
/// sorted by sequence number, each once, so storing is a merge that gives the same block
/// whatever the order and however often readings arrive.
///
/// Format 2 (written since issue 26), about 5–6 bytes a reading from a strap at 1 Hz: format
/// byte (2), count (UInt16, little-endian), then per reading a head byte and LEB128 varints,
/// each a zigzag-encoded difference from the previous reading's value (from 0, and no battery,
/// before the first reading; differences wrap, so every Int64 round-trips):
/// - head bit 0: the sequence is the previous one + 1; else its difference follows first;
/// - bits 1–2: contact (0 not supported, 1 not detected, 2 detected);
/// - bits 3–4: battery (0 as the previous reading, 1 absent, 2 a difference from the last
///   battery value, or from 0, follows);
/// - bit 5: RSSI present, as a difference from the last RSSI the block held (or 0);
/// - bits 6–7: RR count 0, 1 or 2, or 3 when the count (3 or more) follows as a varint;
/// - then: [sequence difference], time difference minus 1,000 ms, bpm difference, [battery],
///   [RSSI], [RR count], each RR interval (1/1024 s) as a difference from the block's previous
///   RR interval.
///
/// Format 1 (until issue 26) stays readable: format byte (1), count (UInt16), then per
/// reading: sequence (Int64), at (Int64, Unix ms), bpm (UInt16), flags (bits 0–1 contact: 0 not
/// supported, 1 not detected, 2 detected; bit 2 battery present; bit 3 RSSI present), battery
/// (UInt8) and RSSI (Int8) when present, RR count (UInt8), RR intervals (UInt16 each, 1/1024 s),
/// all little-endian. `appending` to a format-1 block answers nil: the caller re-encodes it.
public enum SensorBlockCodec {
    public static let readingsPerBlock = 256
    static let format: UInt8 = 2
    static let legacyFormat: UInt8 = 1
    /// What a reading's time difference from the previous one is stored against: a reading a second.
    static let expectedInterval: Int64 = 1000

    public static func block(of sequence: Int) -> Int { sequence / readingsPerBlock }

    /// `readings` sorted by sequence, each sequence once (as `merge` returns them); other
    /// orders are stored as given.
    public static func encode(_ readings: [SensorReading]) -> [UInt8] {
        let stored = readings.prefix(Int(UInt16.max))
        var bytes: [UInt8] = [format, UInt8(truncatingIfNeeded: stored.count), UInt8(truncatingIfNeeded: stored.count >> 8)]
        bytes.reserveCapacity(3 + stored.count * 8)
        var state = State()
        for reading in stored { state.append(reading, to: &bytes) }
        return bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(SensorBlockError) -> [SensorReading] {
        var reader = ByteReader(bytes: bytes)
        let format = try reader.byte()
        if format == legacyFormat { return try decodeLegacy(&reader) }
        guard format == Self.format else { throw .unknownFormat }
        let count = Int(try reader.uint16())
        var readings = [SensorReading]()
        // A reading takes at least 3 bytes: a damaged count reserves no more than the bytes hold.
        readings.reserveCapacity(min(count, (bytes.count - reader.offset) / 3))
        var state = State()
        for _ in 0..<count {
            var rr = [UInt16]()
            let current = try state.read(&reader, rr: &rr, keepingRR: true)
            readings.append(
                SensorReading(
                    sequence: Int(truncatingIfNeeded: state.sequence), atMilliseconds: Int(truncatingIfNeeded: state.at),
                    beatsPerMinute: Int(truncatingIfNeeded: state.bpm), contact: current.contact,
                    battery: state.battery.map { Int(truncatingIfNeeded: $0) }, rssi: current.hasRSSI ? Int(truncatingIfNeeded: state.rssi) : nil,
                    rrIntervalTicks: rr))
        }
        guard reader.offset == bytes.count else { throw .trailingBytes(reader.offset) }
        return readings
    }

    /// How many readings a block holds and the highest sequence number among them, by
    /// stepping over the bytes without building the readings (what appending needs).
    public static func summary(_ bytes: [UInt8]) throws(SensorBlockError) -> (count: Int, highestSequence: Int?) {
        var reader = ByteReader(bytes: bytes)
        let format = try reader.byte()
        if format == legacyFormat { return try summaryLegacy(&reader) }
        guard format == Self.format else { throw .unknownFormat }
        let count = Int(try reader.uint16())
        var highest: Int?
        var state = State()
        var none = [UInt16]()
        for _ in 0..<count {
            _ = try state.read(&reader, rr: &none, keepingRR: false)
            let sequence = Int(truncatingIfNeeded: state.sequence)
            highest = max(highest ?? sequence, sequence)
        }
        guard reader.offset == bytes.count else { throw .trailingBytes(reader.offset) }
        return (count, highest)
    }

    /// `readings` (in increasing sequence, none of them in the block yet) appended to an
    /// encoded block without decoding it: the block is stepped over for its last values (no
    /// reading is built), the count in the header grows, the readings' bytes follow; the
    /// result is what `encode` gives for the block's readings followed by these. Nil when
    /// `encoded` is not a sound block of format 2 (a format-1 block is re-encoded by whoever
    /// decodes it) or would hold too many.
    public static func appending(_ readings: [SensorReading], to encoded: [UInt8]) -> [UInt8]? {
        guard var tail = tail(of: encoded) else { return nil }
        var bytes = encoded
        return append(readings, to: &bytes, tail: &tail) ? bytes : nil
    }

    /// Where an encoded block ends: what the next reading is written against. Kept beside a
    /// block that grows a few readings at a time (the store's newest blocks), so that appending
    /// does not read the whole block again each time (that was 3.7 % of the server's CPU at
    /// 10,000 straps, perf).
    public struct Tail: Sendable, Hashable {
        fileprivate var state: State
        /// Readings in the block.
        public fileprivate(set) var count: Int
        /// The block's length in bytes, which it must still have to be appended to.
        fileprivate var length: Int
    }

    /// The tail of `encoded` (decoding it once); nil if it is not a whole block of this format.
    public static func tail(of encoded: [UInt8]) -> Tail? {
        guard encoded.count >= 3, encoded[0] == format else { return nil }
        let count = Int(encoded[1]) | Int(encoded[2]) << 8
        var reader = ByteReader(bytes: encoded, offset: 3)
        var state = State()
        var none = [UInt16]()
        do {
            for _ in 0..<count { _ = try state.read(&reader, rr: &none, keepingRR: false) }
        } catch {
            return nil
        }
        guard reader.offset == encoded.count else { return nil }
        return Tail(state: state, count: count, length: encoded.count)
    }

    /// Appends `readings` (after every reading of the block, in sequence order) to `encoded`,
    /// whose tail is `tail`, and moves the tail on; false, changing nothing, when the tail does
    /// not fit the block (its length and reading count differ: a cheap check, not a proof —
    /// whoever replaces a block's bytes drops its tail) or the count would pass 65,535.
    public static func append(_ readings: [SensorReading], to encoded: inout [UInt8], tail: inout Tail) -> Bool {
        guard tail.length == encoded.count, encoded.count >= 3, encoded[0] == format,
            Int(encoded[1]) | Int(encoded[2]) << 8 == tail.count, tail.count + readings.count <= Int(UInt16.max)
        else { return false }
        let count = tail.count + readings.count
        encoded.reserveCapacity(encoded.count + readings.count * 8)
        encoded[1] = UInt8(truncatingIfNeeded: count)
        encoded[2] = UInt8(truncatingIfNeeded: count >> 8)
        for reading in readings { tail.state.append(reading, to: &encoded) }
        tail.count = count
        tail.length = encoded.count
        return true
    }

    /// `existing` (sorted, unique) with those of `incoming` whose sequence it lacks; the
    /// first copy of a sequence wins. Returns the merged block and the readings it gained,
    /// in sequence order.
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

    // MARK: Format 2

    /// The previous reading's values, against which the next is written; after `read`, the
    /// values of the reading just read.
    struct State: Sendable, Hashable {
        var sequence: Int64 = 0
        var at: Int64 = 0
        var bpm: Int64 = 0
        var battery: Int64?
        /// The last RSSI the block held (it stays while readings lack one).
        var rssi: Int64 = 0
        /// The last RR interval the block held.
        var rr: Int64 = 0

        @inline(__always)
        mutating func append(_ reading: SensorReading, to bytes: inout [UInt8]) {
            let sequence = Int64(truncatingIfNeeded: reading.sequence)
            let at = Int64(truncatingIfNeeded: reading.atMilliseconds)
            let bpm = Int64(truncatingIfNeeded: reading.beatsPerMinute)
            let battery = reading.battery.map { Int64(truncatingIfNeeded: $0) }
            let sequenceStep = sequence &- self.sequence
            var head: UInt8 = sequenceStep == 1 ? 0x01 : 0
            switch reading.contact {
            case .notSupported: break
            case .notDetected: head |= 1 << 1
            case .detected: head |= 2 << 1
            }
            if battery != self.battery { head |= (battery == nil ? 1 : 2) << 3 }
            if reading.rssi != nil { head |= 0x20 }
            let rrCount = reading.rrIntervalTicks.count
            head |= UInt8(min(rrCount, 3)) << 6
            bytes.append(head)
            if sequenceStep != 1 { appendSigned(sequenceStep, to: &bytes) }
            appendSigned((at &- self.at) &- expectedInterval, to: &bytes)
            appendSigned(bpm &- self.bpm, to: &bytes)
            if let battery, battery != self.battery { appendSigned(battery &- (self.battery ?? 0), to: &bytes) }
            if let rssi = reading.rssi {
                let value = Int64(truncatingIfNeeded: rssi)
                appendSigned(value &- self.rssi, to: &bytes)
                self.rssi = value
            }
            if rrCount >= 3 { appendVarint(UInt64(rrCount), to: &bytes) }
            for tick in reading.rrIntervalTicks {
                appendSigned(Int64(tick) - rr, to: &bytes)
                rr = Int64(tick)
            }
            self.sequence = sequence
            self.at = at
            self.bpm = bpm
            self.battery = battery
        }

        /// Reads the next reading into the state; its RR intervals go to `rr` when kept.
        @inline(__always)
        mutating func read(
            _ reader: inout ByteReader, rr intervals: inout [UInt16], keepingRR: Bool
        ) throws(SensorBlockError) -> (
            contact: SensorContact, hasRSSI: Bool
        ) {
            let start = reader.offset
            let head = try reader.byte()
            let contact: SensorContact
            switch (head >> 1) & 0x03 {
            case 0: contact = .notSupported
            case 1: contact = .notDetected
            case 2: contact = .detected
            default: throw .corrupt(start)
            }
            sequence = sequence &+ (head & 0x01 != 0 ? 1 : try reader.signed())
            at = at &+ (try reader.signed() &+ expectedInterval)
            bpm = bpm &+ (try reader.signed())
            switch (head >> 3) & 0x03 {
            case 0: break
            case 1: battery = nil
            case 2: battery = (battery ?? 0) &+ (try reader.signed())
            default: throw .corrupt(start)
            }
            let hasRSSI = head & 0x20 != 0
            if hasRSSI { rssi = rssi &+ (try reader.signed()) }
            var count = UInt64(head >> 6)
            if count == 3 { count = try reader.varint() }
            // Each interval takes at least a byte: a damaged count allocates nothing.
            guard count <= UInt64(reader.remaining) else { throw .truncated(reader.bytes.count) }
            if keepingRR { intervals.reserveCapacity(Int(count)) }
            for _ in 0..<Int(count) {
                let offset = reader.offset
                let next = rr &+ (try reader.signed())
                guard let tick = UInt16(exactly: next) else { throw .corrupt(offset) }
                rr = next
                if keepingRR { intervals.append(tick) }
            }
            return (contact, hasRSSI)
        }
    }

    @inline(__always)
    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: remaining))
    }

    @inline(__always)
    static func appendSigned(_ value: Int64, to bytes: inout [UInt8]) {
        appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
    }

    // MARK: Format 1

    private static func decodeLegacy(_ reader: inout ByteReader) throws(SensorBlockError) -> [SensorReading] {
        let count = Int(try reader.uint16())
        var readings = [SensorReading]()
        // A reading takes at least 20 bytes.
        readings.reserveCapacity(min(count, reader.remaining / 20))
        for _ in 0..<count {
            let sequence = Int(truncatingIfNeeded: Int64(bitPattern: try reader.uint64()))
            let at = Int(truncatingIfNeeded: Int64(bitPattern: try reader.uint64()))
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
        guard reader.offset == reader.bytes.count else { throw .trailingBytes(reader.offset) }
        return readings
    }

    private static func summaryLegacy(_ reader: inout ByteReader) throws(SensorBlockError) -> (count: Int, highestSequence: Int?) {
        let count = Int(try reader.uint16())
        var highest: Int?
        for _ in 0..<count {
            let sequence = Int(truncatingIfNeeded: Int64(bitPattern: try reader.uint64()))
            highest = max(highest ?? sequence, sequence)
            try reader.skip(8 + 2)
            let flags = try reader.byte()
            try reader.skip((flags & 0x04 != 0 ? 1 : 0) + (flags & 0x08 != 0 ? 1 : 0))
            let rrCount = Int(try reader.byte())
            try reader.skip(2 * rrCount)
        }
        guard reader.offset == reader.bytes.count else { throw .trailingBytes(reader.offset) }
        return (count, highest)
    }

    struct ByteReader {
        let bytes: [UInt8]
        var offset = 0

        var remaining: Int { bytes.count - offset }

        @inline(__always)
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

        /// An LEB128 varint of at most 64 bits (ten bytes, the last 0 or 1).
        @inline(__always)
        mutating func varint() throws(SensorBlockError) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let start = offset
                let byte = try byte()
                if shift == 63, byte > 1 { throw .corrupt(start) }
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }

        @inline(__always)
        mutating func signed() throws(SensorBlockError) -> Int64 {
            let raw = try varint()
            return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        }
    }
}

public enum SensorBlockError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownFormat
    case truncated(Int)
    case trailingBytes(Int)
    /// A value no encoder writes (an unknown flag, an RR interval out of range, a varint
    /// longer than 64 bits), at this byte.
    case corrupt(Int)

    public var description: String {
        switch self {
        case .unknownFormat: "a sensor block of an unknown format"
        case .truncated(let offset): "a sensor block cut short at byte \(offset)"
        case .trailingBytes(let offset): "a sensor block with bytes after its last reading (from byte \(offset))"
        case .corrupt(let offset): "a sensor block with an impossible value at byte \(offset)"
        }
    }
}
