import Foundation

/// One value of a FIT field, as its base type stores it; invalid values (the protocol's
/// "no value" patterns) are left out of a message rather than stored.
public enum FITValue: Sendable, Hashable {
    case signed(Int64)
    case unsigned(UInt64)
    case float(Double)
    case string(String)
    case bytes([UInt8])
    case array([FITValue])

    public var integer: Int64? {
        switch self {
        case .signed(let v): v
        case .unsigned(let v): v <= UInt64(Int64.max) ? Int64(v) : nil
        case .float(let v): v.isFinite && abs(v) < 9e18 ? Int64(v) : nil
        case .array(let values): values.first?.integer
        default: nil
        }
    }

    public var double: Double? {
        switch self {
        case .signed(let v): Double(v)
        case .unsigned(let v): Double(v)
        case .float(let v): v
        case .array(let values): values.first?.double
        default: nil
        }
    }
}

/// A data message: its global number (20 = record …) and its fields by number. The fields are
/// decoded when asked for (`message[3]`, `fields`): a reader that wants three fields of a
/// record pays for three, not for every field and a dictionary. (Measured on a 4-hour 1 Hz
/// activity, 14,400 records: decoding every field into a dictionary per message took ~20 ms,
/// reading the fields used ~2 ms.) An owned copy of the message's bytes; the decoder's own
/// readers use `FITMessageView`, which points into the bytes being decoded instead.
public struct FITMessage: Sendable {
    public var global: Int
    /// The timestamp a compressed-timestamp header gave it, in FIT seconds.
    public var compressedTimestamp: UInt32?
    /// Where the message starts in the input.
    public var offset: Int
    let layout: FITDecoder.Layout
    let bytes: [UInt8]

    /// A field's value; nil when the message lacks it or holds its invalid value.
    public subscript(field: Int) -> FITValue? { bytes.withUnsafeBytes { FITMessageView.value(field, layout, $0) } }

    /// A single numeric field as an unsigned integer (enum and uint types), without building a
    /// `FITValue`; nil when absent, invalid, signed, floating or an array.
    public func unsigned(_ field: Int) -> UInt64? { bytes.withUnsafeBytes { FITMessageView.unsigned(field, layout, $0) } }

    /// A single numeric field of any integer or floating type as a Double; nil when absent,
    /// invalid or an array.
    public func number(_ field: Int) -> Double? { bytes.withUnsafeBytes { FITMessageView.number(field, layout, $0) } }

    /// A single numeric field as an Int; nil when absent, invalid, out of range or an array.
    public func int(_ field: Int) -> Int? { bytes.withUnsafeBytes { FITMessageView.int(field, layout, $0) } }

    /// Every valid field by number.
    public var fields: [Int: FITValue] {
        var all = [Int: FITValue]()
        for definition in layout.fields where all[definition.number] == nil {
            if let value = self[definition.number] { all[definition.number] = value }
        }
        return all
    }
}

/// A data message as the decoder hands it to its own readers: its fields read straight from the
/// bytes being decoded (the caller's buffer or the decoder's), so no message is allocated and
/// nothing is copied. Valid only during the visit that received it. (Decoding a 4-hour 1 Hz
/// file, 14,400 records, into an `ActivityRecording`, release build, in process, best of 30:
/// 2.2 ms with an owned message per record and each field looked up through the definition,
/// 1.4 ms with views, the layout's slot table and `FITActivityReader`'s record plan; FITTests
/// checks that owned messages and the reader agree.)
struct FITMessageView {
    var global: Int
    var compressedTimestamp: UInt32?
    var offset: Int
    let layout: FITDecoder.Layout
    let bytes: UnsafeRawBufferPointer

    /// An owned copy, for visitors that keep messages.
    var message: FITMessage {
        FITMessage(global: global, compressedTimestamp: compressedTimestamp, offset: offset, layout: layout, bytes: Array(bytes))
    }

    subscript(field: Int) -> FITValue? { Self.value(field, layout, bytes) }
    func unsigned(_ field: Int) -> UInt64? { Self.unsigned(field, layout, bytes) }
    func number(_ field: Int) -> Double? { Self.number(field, layout, bytes) }
    func int(_ field: Int) -> Int? { Self.int(field, layout, bytes) }

    static func value(_ field: Int, _ layout: FITDecoder.Layout, _ bytes: UnsafeRawBufferPointer) -> FITValue? {
        guard field >= 0, field < 256 else { return nil }
        let index = Int(layout.index[field])
        guard index >= 0 else { return nil }
        let definition = layout.fields[index]
        guard definition.offset >= 0, definition.offset + definition.size <= bytes.count else { return nil }
        return FITDecoder.value(
            UnsafeRawBufferPointer(rebasing: bytes[definition.offset..<(definition.offset + definition.size)]),
            baseType: definition.baseType, bigEndian: layout.bigEndian)
    }

    @inline(__always)
    static func unsigned(_ field: Int, _ layout: FITDecoder.Layout, _ bytes: UnsafeRawBufferPointer) -> UInt64? {
        unsigned(slot(field, layout), bytes, bigEndian: layout.bigEndian)
    }

    @inline(__always)
    static func number(_ field: Int, _ layout: FITDecoder.Layout, _ bytes: UnsafeRawBufferPointer) -> Double? {
        number(slot(field, layout), bytes, bigEndian: layout.bigEndian)
    }

    @inline(__always)
    static func int(_ field: Int, _ layout: FITDecoder.Layout, _ bytes: UnsafeRawBufferPointer) -> Int? {
        int(slot(field, layout), bytes, bigEndian: layout.bigEndian)
    }

    @inline(__always)
    static func slot(_ field: Int, _ layout: FITDecoder.Layout) -> FITDecoder.Layout.Slot {
        field >= 0 && field < 256 ? layout.slots[field] : FITDecoder.Layout.Slot()
    }

    @inline(__always)
    static func unsigned(_ slot: FITDecoder.Layout.Slot, _ bytes: UnsafeRawBufferPointer, bigEndian: Bool) -> UInt64? {
        guard let raw = raw(slot, bytes, bigEndian: bigEndian) else { return nil }
        let width = Int(slot.width)
        switch slot.type {
        case 0x00, 0x02, 0x04, 0x06, 0x0F: return raw == FITDecoder.allOnes(width) ? nil : raw
        case 0x0A, 0x0B, 0x0C, 0x10: return raw == 0 ? nil : raw
        default: return nil
        }
    }

    @inline(__always)
    static func number(_ slot: FITDecoder.Layout.Slot, _ bytes: UnsafeRawBufferPointer, bigEndian: Bool) -> Double? {
        guard let raw = raw(slot, bytes, bigEndian: bigEndian) else { return nil }
        let width = Int(slot.width)
        switch slot.type {
        case 0x00, 0x02, 0x04, 0x06, 0x0F: return raw == FITDecoder.allOnes(width) ? nil : Double(raw)
        case 0x0A, 0x0B, 0x0C, 0x10: return raw == 0 ? nil : Double(raw)
        case 0x01, 0x03, 0x05, 0x0E: return FITDecoder.signed(raw, width: width).map(Double.init)
        case 0x08:
            let f = Float(bitPattern: UInt32(truncatingIfNeeded: raw))
            return raw == 0xFFFF_FFFF || !f.isFinite ? nil : Double(f)
        case 0x09:
            let d = Double(bitPattern: raw)
            return raw == .max || !d.isFinite ? nil : d
        default: return nil
        }
    }

    @inline(__always)
    static func int(_ slot: FITDecoder.Layout.Slot, _ bytes: UnsafeRawBufferPointer, bigEndian: Bool) -> Int? {
        guard let raw = raw(slot, bytes, bigEndian: bigEndian) else { return nil }
        let width = Int(slot.width)
        switch slot.type {
        case 0x00, 0x02, 0x04, 0x06, 0x0F: return raw == FITDecoder.allOnes(width) ? nil : Int(exactly: raw)
        case 0x0A, 0x0B, 0x0C, 0x10: return raw == 0 ? nil : Int(exactly: raw)
        case 0x01, 0x03, 0x05, 0x0E: return FITDecoder.signed(raw, width: width).map { Int($0) }
        default:
            guard let value = number(slot, bytes, bigEndian: bigEndian), abs(value) < 9e18 else { return nil }
            return Int(value)
        }
    }

    /// The raw bits of a single-element numeric field; nil when the slot is empty or lies
    /// beyond the bytes.
    @inline(__always)
    static func raw(_ slot: FITDecoder.Layout.Slot, _ bytes: UnsafeRawBufferPointer, bigEndian: Bool) -> UInt64? {
        let width = Int(slot.width)
        guard width != 0 else { return nil }
        let offset = Int(slot.offset)
        guard offset >= 0, offset + width <= bytes.count else { return nil }
        switch width {
        case 1: return UInt64(bytes[offset])
        case 2:
            let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
            return UInt64(bigEndian ? UInt16(bigEndian: v) : UInt16(littleEndian: v))
        case 4:
            let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            return UInt64(bigEndian ? UInt32(bigEndian: v) : UInt32(littleEndian: v))
        default:
            let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            return bigEndian ? UInt64(bigEndian: v) : UInt64(littleEndian: v)
        }
    }
}

/// Why decoding stopped early: what was readable up to `offset` is kept.
/// Where a file stopped or troubled its reader: the byte offset (binary formats) or the line
/// and column (text and XML formats), and what was wrong.
public struct FileWarning: Error, Sendable, Hashable, CustomStringConvertible {
    /// Byte offset from the start of the file (0 for text formats, which give `line`).
    public var offset: Int
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public init(line: Int, column: Int? = nil, message: String) {
        self.offset = 0
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        guard let line else { return "byte \(offset): \(message)" }
        return column.map { "line \(line), column \($0): \(message)" } ?? "line \(line): \(message)"
    }
}

public typealias FITWarning = FileWarning

/// The FIT protocol's CRC-16 (CRC-16/ARC: polynomial 0x8005 reflected, zero start), as the
/// FIT SDK's `fit_crc.c` computes it with a nibble table; here a byte at a time from a
/// 256-entry table derived from the same polynomial (checked against the nibble form in
/// FITTests).
public enum FITCRC {
    static let nibbles: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]

    static let table: [UInt16] = (0..<256).map { byte in
        var crc = UInt16(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        return crc
    }

    /// One byte as the FIT SDK's `FitCRC_Get16` adds it (the nibble table).
    public static func update(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        var crc = crc
        var tmp = nibbles[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ nibbles[Int(byte & 0xF)]
        tmp = nibbles[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ nibbles[Int((byte >> 4) & 0xF)]
        return crc
    }

    public static func compute<C: Collection>(_ bytes: C, seed: UInt16 = 0) -> UInt16 where C.Element == UInt8 {
        if let crc = bytes.withContiguousStorageIfAvailable({ compute(UnsafeRawBufferPointer($0), seed: seed) }) { return crc }
        return compute(Array(bytes), seed: seed)
    }

    /// Eight tables for "slicing by 8" (Kounavis & Berry, "A Systematic Approach to Building
    /// High Performance Software-Based CRC Generators", 2005): table k is the CRC of a byte
    /// followed by k zero bytes, so eight bytes are folded in with eight independent lookups.
    static let slices: [UInt16] = {
        var slices = [UInt16](repeating: 0, count: 8 * 256)
        for i in 0..<256 { slices[i] = table[i] }
        for k in 1..<8 {
            for i in 0..<256 {
                let previous = slices[(k - 1) * 256 + i]
                slices[k * 256 + i] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return slices
    }()

    /// The loop proper, on raw memory, eight bytes a step. A byte-wise table is bound by the
    /// latency of its lookups (~1.8 ns a byte here: 0.8 ms of the 13 ms `heartwork inspect`
    /// of the 422 KB benchmark file, perf, 2026-11-25); sliced, the CRC is 0.2 ms of it.
    public static func compute(_ bytes: UnsafeRawBufferPointer, seed: UInt16 = 0) -> UInt16 {
        slices.withUnsafeBufferPointer { t in
            var crc = seed
            var i = 0
            let count = bytes.count
            while i + 8 <= count {
                crc ^= UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
                crc =
                    t[7 * 256 + Int(crc & 0xFF)] ^ t[6 * 256 + Int(crc >> 8)] ^ t[5 * 256 + Int(bytes[i + 2])] ^ t[4 * 256 + Int(bytes[i + 3])]
                    ^ t[3 * 256 + Int(bytes[i + 4])] ^ t[2 * 256 + Int(bytes[i + 5])] ^ t[256 + Int(bytes[i + 6])] ^ t[Int(bytes[i + 7])]
                i += 8
            }
            while i < count {
                crc = (crc >> 8) ^ t[Int(UInt8(truncatingIfNeeded: crc) ^ bytes[i])]
                i += 1
            }
            return crc
        }
    }
}

/// A streaming FIT decoder written from the public FIT protocol (the Garmin FIT SDK's
/// "Flexible and Interoperable Data Transfer Protocol" description): 12- and 14-byte file
/// headers (the header CRC checked when present), definition and data messages with up to 16
/// local message types, compressed timestamp headers, little- and big-endian definitions,
/// every base type with its invalid value, arrays and strings, developer fields (read past,
/// never mixed into the profile's fields), the file CRC, and chained files (one header after
/// another). Bytes go in in any chunks (`feed`), messages come out as they complete, so memory
/// stays constant for any file size. A truncated or corrupt file ends with a `FITWarning`
/// naming the byte offset; every message before it has been delivered.
public struct FITDecoder: Sendable {
    struct FieldDefinition: Sendable {
        var number: Int
        var size: Int
        var baseType: UInt8
        /// From the start of the message's content.
        var offset: Int
    }

    /// A definition's fields with an index by field number (the first field of a number wins
    /// when a file repeats one), shared by every message of that definition.
    final class Layout: Sendable {
        /// Where a single numeric field sits and how to read it; width 0 when the field is
        /// absent, a string, bytes, an array, or of an unknown type.
        struct Slot: Sendable {
            var offset: Int32 = 0
            var width: UInt8 = 0
            var type: UInt8 = 0
        }

        let bigEndian: Bool
        let fields: [FieldDefinition]
        let index: [Int16]
        /// By field number (256 entries): the hot path's one lookup per field.
        let slots: [Slot]

        init(bigEndian: Bool, fields: [FieldDefinition]) {
            self.bigEndian = bigEndian
            self.fields = fields
            var index = [Int16](repeating: -1, count: 256)
            var slots = [Slot](repeating: Slot(), count: 256)
            for (i, field) in fields.enumerated().reversed() {
                index[field.number] = Int16(i)
                let type = field.baseType & 0x1F
                if let width = FITDecoder.width(ofBaseType: type), field.size == width {
                    slots[field.number] = Slot(offset: Int32(field.offset), width: UInt8(width), type: type)
                } else {
                    slots[field.number] = Slot()
                }
            }
            self.index = index
            self.slots = slots
        }
    }

    struct Definition: Sendable {
        var global: Int
        var layout: Layout
        var developerBytes: Int
        var size: Int

        init(global: Int, bigEndian: Bool, fields: [FieldDefinition], developerBytes: Int) {
            self.global = global
            self.layout = Layout(bigEndian: bigEndian, fields: fields)
            self.developerBytes = developerBytes
            self.size = fields.reduce(0) { $0 + $1.size } + developerBytes
        }
    }

    enum State: Sendable {
        case header
        case records(remaining: Int)
        case crc
    }

    public private(set) var warnings: [FITWarning] = []
    /// How many files (of a chain) were read to their end.
    public private(set) var filesCompleted = 0
    /// False once a fault stopped the decoding.
    public private(set) var healthy = true
    var buffer: [UInt8] = []
    var consumed = 0  // offset of buffer[0] in the whole input
    var state = State.header
    var definitions = [Definition?](repeating: nil, count: 16)
    var crc: UInt16 = 0
    var lastTimestamp: UInt32 = 0
    /// Reject files claiming more than this (a corrupt size field must not make us wait forever).
    public var maximumDataSize = 1 << 31

    public init() {}

    /// Adds bytes; returns the messages they complete.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [FITMessage] {
        var out = [FITMessage]()
        feed(bytes) { out.append($0) }
        return out
    }

    /// Adds bytes; hands each message they complete to `visit`, in order (no array of them).
    public mutating func feed(_ bytes: some Collection<UInt8>, visit: (FITMessage) -> Void) {
        feedViews(bytes) { visit($0.message) }
    }

    /// Adds bytes; hands each message they complete to `visit` as a view into the bytes (valid
    /// during the call only). When nothing is pending from an earlier feed and the bytes are
    /// contiguous, they are decoded where they lie and only an unfinished message's tail is
    /// copied; otherwise they join the pending bytes first.
    mutating func feedViews(_ bytes: some Collection<UInt8>, visit: (FITMessageView) -> Void) {
        guard healthy else { return }
        if buffer.isEmpty, let used = bytes.withContiguousStorageIfAvailable({ decode(UnsafeRawBufferPointer($0), visit: visit) }) {
            if used < bytes.count { buffer.append(contentsOf: bytes.dropFirst(used)) }
            consumed += used
            return
        }
        buffer.append(contentsOf: bytes)
        let pending = buffer
        buffer = []
        let used = pending.withUnsafeBytes { decode($0, visit: visit) }
        buffer = Array(pending[min(used, pending.count)...])
        consumed += used
    }

    /// Decodes what `raw` (the input from offset `consumed` on) holds; returns how many bytes
    /// it used (whole messages, headers and CRCs; the rest waits for more input).
    private mutating func decode(_ raw: UnsafeRawBufferPointer, visit: (FITMessageView) -> Void) -> Int {
        var position = 0
        // The file CRC runs over the record bytes in stretches (from `crcFrom` to where the
        // records end or this feed stops), not message by message.
        var crcFrom: Int? = if case .records = state { 0 } else { nil }
        func flushCRC(to end: Int) {
            if let from = crcFrom, end > from { crc = FITCRC.compute(UnsafeRawBufferPointer(rebasing: raw[from..<end]), seed: crc) }
            crcFrom = nil
        }
        loop: while healthy {
            let available = raw.count - position
            switch state {
            case .header:
                guard available >= 1 else { break loop }
                let size = Int(raw[position])
                guard size == 12 || size == 14 else {
                    fail(at: consumed + position, "a FIT file header is 12 or 14 bytes, not \(size) (not a FIT file, or a fault here)")
                    break loop
                }
                guard available >= size else { break loop }
                let header = UnsafeRawBufferPointer(rebasing: raw[position..<(position + size)])
                guard header[8] == 0x2E, header[9] == 0x46, header[10] == 0x49, header[11] == 0x54 else {
                    fail(at: consumed + position + 8, "the header lacks the \".FIT\" signature")
                    break loop
                }
                if size == 14 {
                    let stored = UInt16(header[12]) | UInt16(header[13]) << 8
                    if stored != 0, stored != FITCRC.compute(UnsafeRawBufferPointer(rebasing: header[0..<12])) {
                        fail(at: consumed + position + 12, "the header CRC does not match")
                        break loop
                    }
                }
                let dataSize = Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24
                guard dataSize <= maximumDataSize else {
                    fail(at: consumed + position + 4, "the header claims \(dataSize) bytes of data")
                    break loop
                }
                crc = FITCRC.compute(header)
                position += size
                crcFrom = position
                definitions = [Definition?](repeating: nil, count: 16)
                lastTimestamp = 0
                state = .records(remaining: dataSize)
            case .records(let remaining):
                if remaining == 0 {
                    flushCRC(to: position)
                    state = .crc
                    continue
                }
                guard available >= 1 else { break loop }
                let start = position
                let recordHeader = raw[position]
                if recordHeader & 0x80 != 0 {
                    // Compressed timestamp header: local type in bits 5–6, time offset in bits 0–4.
                    let local = Int((recordHeader >> 5) & 0x3)
                    guard let definition = definitions[local] else {
                        fail(at: consumed + position, "a data message of local type \(local) has no definition before it")
                        break loop
                    }
                    guard available >= 1 + definition.size else { break loop }
                    guard 1 + definition.size <= remaining else {
                        fail(at: consumed + position, "a message runs past the data size in the header")
                        break loop
                    }
                    let offset = UInt32(recordHeader & 0x1F)
                    var timestamp = (lastTimestamp & 0xFFFF_FFE0) | offset
                    if offset < (lastTimestamp & 0x1F) { timestamp &+= 0x20 }
                    lastTimestamp = timestamp
                    var message = view(definition, raw, at: position + 1, offset: consumed + start)
                    message.compressedTimestamp = timestamp
                    visit(message)
                    position += 1 + definition.size
                } else if recordHeader & 0x40 != 0 {
                    let local = Int(recordHeader & 0x0F)
                    let developer = recordHeader & 0x20 != 0
                    guard available >= 6 else { break loop }
                    let bigEndian = raw[position + 2] == 1
                    guard raw[position + 2] <= 1 else {
                        fail(at: consumed + position + 2, "architecture \(raw[position + 2]) is neither little (0) nor big endian (1)")
                        break loop
                    }
                    let count = Int(raw[position + 5])
                    var length = 6 + 3 * count
                    guard available >= length else { break loop }
                    var developerCount = 0
                    if developer {
                        guard available >= length + 1 else { break loop }
                        developerCount = Int(raw[position + length])
                        length += 1 + 3 * developerCount
                        guard available >= length else { break loop }
                    }
                    guard length <= remaining else {
                        fail(at: consumed + position, "a definition runs past the data size in the header")
                        break loop
                    }
                    let g0 = Int(raw[position + 3])
                    let g1 = Int(raw[position + 4])
                    let global = bigEndian ? g0 << 8 | g1 : g1 << 8 | g0
                    var fields = [FieldDefinition]()
                    fields.reserveCapacity(count)
                    var fieldOffset = 0
                    for i in 0..<count {
                        let at = position + 6 + 3 * i
                        let size = Int(raw[at + 1])
                        fields.append(FieldDefinition(number: Int(raw[at]), size: size, baseType: raw[at + 2], offset: fieldOffset))
                        fieldOffset += size
                    }
                    var developerBytes = 0
                    if developer {
                        let base = position + 6 + 3 * count + 1
                        for i in 0..<developerCount { developerBytes += Int(raw[base + 3 * i + 1]) }
                    }
                    definitions[local] = Definition(global: global, bigEndian: bigEndian, fields: fields, developerBytes: developerBytes)
                    position += length
                } else {
                    let local = Int(recordHeader & 0x0F)
                    guard let definition = definitions[local] else {
                        fail(at: consumed + position, "a data message of local type \(local) has no definition before it")
                        break loop
                    }
                    guard available >= 1 + definition.size else { break loop }
                    guard 1 + definition.size <= remaining else {
                        fail(at: consumed + position, "a message runs past the data size in the header")
                        break loop
                    }
                    let message = view(definition, raw, at: position + 1, offset: consumed + start)
                    if let t = message.unsigned(253), t <= UInt64(UInt32.max) { lastTimestamp = UInt32(t) }
                    visit(message)
                    position += 1 + definition.size
                }
                state = .records(remaining: remaining - (position - start))
            case .crc:
                guard available >= 2 else { break loop }
                let stored = UInt16(raw[position]) | UInt16(raw[position + 1]) << 8
                if stored != crc {
                    warnings.append(
                        FITWarning(
                            offset: consumed + position,
                            message: "the file CRC does not match (0x\(String(stored, radix: 16)) stored, 0x\(String(crc, radix: 16)) computed): the data may be damaged"))
                }
                position += 2
                filesCompleted += 1
                state = .header
            }
        }
        if case .records = state { flushCRC(to: position) }
        return position
    }

    /// Call at the end of the input: a file cut short gets its warning.
    public mutating func finish() {
        guard healthy else { return }
        switch state {
        case .header:
            if !buffer.isEmpty || filesCompleted == 0 {
                fail(at: consumed, filesCompleted == 0 ? "the input ends before a FIT header" : "\(buffer.count) stray bytes after the last file")
            }
        case .records(let remaining):
            fail(at: consumed, "the file is truncated: \(remaining) bytes of data are missing")
        case .crc:
            fail(at: consumed, "the file is truncated before its CRC")
        }
    }

    mutating func fail(at offset: Int, _ message: String) {
        warnings.append(FITWarning(offset: offset, message: message))
        healthy = false
    }

    func view(_ definition: Definition, _ raw: UnsafeRawBufferPointer, at start: Int, offset: Int) -> FITMessageView {
        FITMessageView(
            global: definition.global, compressedTimestamp: nil, offset: offset, layout: definition.layout,
            bytes: UnsafeRawBufferPointer(rebasing: raw[start..<(start + definition.size - definition.developerBytes)]))
    }

    /// The value of a field; nil when it holds the base type's invalid value (or all of an
    /// array's elements do), or its size does not fit its type.
    static func value(_ bytes: UnsafeRawBufferPointer, baseType: UInt8, bigEndian: Bool) -> FITValue? {
        let type = baseType & 0x1F
        if type == 0x07 {  // string: UTF-8, NUL-terminated
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            guard end > 0 else { return nil }
            return .string(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self))
        }
        if type == 0x0D {  // byte array: invalid only when every byte is 0xFF
            return bytes.allSatisfy { $0 == 0xFF } ? nil : .bytes(Array(bytes))
        }
        guard let width = FITDecoder.width(ofBaseType: type) else { return nil }
        guard bytes.count >= width, bytes.count % width == 0 else { return nil }
        if bytes.count == width { return element(raw(bytes, at: 0, width: width, bigEndian: bigEndian), type: type, width: width) }
        var values = [FITValue]()
        values.reserveCapacity(bytes.count / width)
        var index = 0
        while index < bytes.count {
            if let v = element(raw(bytes, at: index, width: width, bigEndian: bigEndian), type: type, width: width) { values.append(v) }
            index += width
        }
        return values.isEmpty ? nil : .array(values)
    }

    /// The byte width of a numeric base type (its low five bits); nil for strings, byte arrays
    /// and unknown types.
    @inline(__always)
    static func width(ofBaseType type: UInt8) -> Int? {
        switch type {
        case 0x00, 0x01, 0x02, 0x0A: 1
        case 0x03, 0x04, 0x0B: 2
        case 0x05, 0x06, 0x08, 0x0C: 4
        case 0x09, 0x0E, 0x0F, 0x10: 8
        default: nil
        }
    }

    @inline(__always)
    static func allOnes(_ width: Int) -> UInt64 { width >= 8 ? .max : (1 << UInt64(width * 8)) - 1 }

    /// A signed field's value, nil for its invalid value (the largest positive number).
    @inline(__always)
    static func signed(_ raw: UInt64, width: Int) -> Int64? {
        let all = allOnes(width)
        if raw == all >> 1 { return nil }
        let signBit: UInt64 = 1 << UInt64(width * 8 - 1)
        return raw & signBit != 0 ? Int64(bitPattern: raw | ~all) : Int64(bitPattern: raw)
    }

    @inline(__always)
    static func raw(_ bytes: UnsafeRawBufferPointer, at index: Int, width: Int, bigEndian: Bool) -> UInt64 {
        var raw: UInt64 = 0
        if bigEndian {
            for k in 0..<width { raw = raw << 8 | UInt64(bytes[index + k]) }
        } else {
            for k in 0..<width { raw |= UInt64(bytes[index + k]) << UInt64(8 * k) }
        }
        return raw
    }

    static func element(_ raw: UInt64, type: UInt8, width: Int) -> FITValue? {
        switch type {
        case 0x00, 0x02, 0x04, 0x06, 0x0F:  // enum, uint8/16/32/64: all ones invalid
            return raw == allOnes(width) ? nil : .unsigned(raw)
        case 0x0A, 0x0B, 0x0C, 0x10:  // uint*z: zero invalid
            return raw == 0 ? nil : .unsigned(raw)
        case 0x01, 0x03, 0x05, 0x0E:  // sint: the maximum positive value invalid
            return signed(raw, width: width).map(FITValue.signed)
        case 0x08:
            let f = Float(bitPattern: UInt32(truncatingIfNeeded: raw))
            return raw == 0xFFFF_FFFF || !f.isFinite ? nil : .float(Double(f))
        case 0x09:
            let d = Double(bitPattern: raw)
            return raw == .max || !d.isFinite ? nil : .float(d)
        default:
            return nil
        }
    }
}
