/// Writes D-Bus values in the little-endian wire format (D-Bus Specification, "Marshaling
/// (Wire Format)"): every value aligned to its size from the start of the message (8 for
/// structs, dict entries, x, t and d; 4 for b, i, u, s, o and array lengths; 2 for n and q; 1
/// for y, g and v), booleans as 32-bit 0 or 1, strings and object paths as a 32-bit length,
/// UTF-8 and a NUL, signatures as an 8-bit length, ASCII and a NUL, a variant as its
/// signature then its value, an array as its length in bytes (without the padding before
/// the first element) then its elements.
public struct DBusWriter: Sendable {
    public private(set) var bytes: [UInt8]
    /// Where `bytes` starts in the message, for alignment (a body starts 8-aligned, so 0 works).
    let origin: Int

    public init(origin: Int = 0, capacity: Int = 256) {
        self.origin = origin
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func pad(to alignment: Int) {
        while (origin + bytes.count) % alignment != 0 { bytes.append(0) }
    }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        pad(to: MemoryLayout<T>.size)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func appendString(_ text: String) {
        append(UInt32(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
        bytes.append(0)
    }

    mutating func appendSignature(_ text: String) {
        bytes.append(UInt8(truncatingIfNeeded: text.utf8.count))
        bytes.append(contentsOf: text.utf8)
        bytes.append(0)
    }

    public mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let byte): bytes.append(byte)
        case .boolean(let flag): append(UInt32(flag ? 1 : 0))
        case .int16(let number): append(number)
        case .uint16(let number): append(number)
        case .int32(let number): append(number)
        case .uint32(let number): append(number)
        case .int64(let number): append(number)
        case .uint64(let number): append(number)
        case .double(let number): append(number.bitPattern)
        case .string(let text), .objectPath(let text): appendString(text)
        case .signature(let text): appendSignature(text)
        case .variant(let inner):
            appendSignature(inner.signature)
            write(inner)
        case .array(let element, let elements):
            append(UInt32(0))
            let lengthAt = bytes.count - 4
            pad(to: DBusSignature.alignment(element.utf8.first ?? UInt8(ascii: "y")))
            let start = bytes.count
            for item in elements { write(item) }
            let length = UInt32(bytes.count - start).littleEndian
            withUnsafeBytes(of: length) { for (index, byte) in $0.enumerated() { bytes[lengthAt + index] = byte } }
        case .structure(let fields):
            pad(to: 8)
            for field in fields { write(field) }
        case .dictEntry(let key, let item):
            pad(to: 8)
            write(key)
            write(item)
        }
    }
}

/// Reads D-Bus values of a given signature from a message's bytes, either byte order; every
/// read is bounds-checked and errors name the byte offset.
public struct DBusReader: Sendable {
    let bytes: [UInt8]
    public private(set) var offset: Int
    let end: Int
    let origin: Int
    let littleEndian: Bool
    /// Arrays at most 64 MiB (the specification's limit); values nested at most 64 deep.
    static let maximumArrayBytes = 1 << 26
    static let maximumDepth = 64

    public init(_ bytes: [UInt8], from offset: Int = 0, to end: Int? = nil, origin: Int = 0, littleEndian: Bool = true) {
        self.bytes = bytes
        self.offset = offset
        self.end = min(end ?? bytes.count, bytes.count)
        self.origin = origin
        self.littleEndian = littleEndian
    }

    public var isAtEnd: Bool { offset >= end }

    mutating func align(_ alignment: Int) throws(DBusError) {
        let padded = origin + (offset - origin + alignment - 1) / alignment * alignment
        guard padded <= end else { throw DBusError("byte \(offset): the message ends in padding") }
        for index in offset..<padded where bytes[index] != 0 {
            throw DBusError("byte \(index): padding is not zero")
        }
        offset = padded
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(DBusError) -> T {
        let size = MemoryLayout<T>.size
        try align(size)
        guard offset + size <= end else { throw DBusError("byte \(offset): the message ends inside a \(size * 8)-bit value") }
        var value: T = 0
        for index in 0..<size {
            let byte = T(truncatingIfNeeded: bytes[offset + (littleEndian ? index : size - 1 - index)])
            value |= byte << (index * 8)
        }
        offset += size
        return value
    }

    mutating func text(length: Int, what: String) throws(DBusError) -> String {
        guard length >= 0, offset + length + 1 <= end else { throw DBusError("byte \(offset): the message ends inside a \(what)") }
        let slice = bytes[offset..<offset + length]
        guard bytes[offset + length] == 0 else { throw DBusError("byte \(offset + length): a \(what) is not NUL-terminated") }
        guard !slice.contains(0), let text = String(validating: slice, as: UTF8.self) else {
            throw DBusError("byte \(offset): a \(what) is not valid UTF-8 without NUL")
        }
        offset += length + 1
        return text
    }

    mutating func signatureText() throws(DBusError) -> String {
        guard offset < end else { throw DBusError("byte \(offset): the message ends before a signature") }
        let length = Int(bytes[offset])
        offset += 1
        return try text(length: length, what: "signature")
    }

    /// Reads one value of the complete type `signature`.
    public mutating func read(_ signature: String) throws(DBusError) -> DBusValue {
        try read(Array(signature.utf8), depth: 0)
    }

    /// Reads the values of a (possibly empty) sequence of complete types.
    public mutating func readAll(_ signature: String) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        for type in try DBusSignature.split(signature) { values.append(try read(type)) }
        return values
    }

    mutating func read(_ type: [UInt8], depth: Int) throws(DBusError) -> DBusValue {
        guard depth <= Self.maximumDepth else { throw DBusError("byte \(offset): values nested deeper than 64") }
        guard let code = type.first else { throw DBusError("an empty type") }
        switch code {
        case UInt8(ascii: "y"):
            guard offset < end else { throw DBusError("byte \(offset): the message ends inside a byte") }
            offset += 1
            return .byte(bytes[offset - 1])
        case UInt8(ascii: "b"):
            let value = try integer(UInt32.self)
            guard value <= 1 else { throw DBusError("byte \(offset - 4): a boolean is 0 or 1, not \(value)") }
            return .boolean(value == 1)
        case UInt8(ascii: "n"): return .int16(try integer(Int16.self))
        case UInt8(ascii: "q"): return .uint16(try integer(UInt16.self))
        case UInt8(ascii: "i"): return .int32(try integer(Int32.self))
        case UInt8(ascii: "u"): return .uint32(try integer(UInt32.self))
        case UInt8(ascii: "x"): return .int64(try integer(Int64.self))
        case UInt8(ascii: "t"): return .uint64(try integer(UInt64.self))
        case UInt8(ascii: "d"): return .double(Double(bitPattern: try integer(UInt64.self)))
        case UInt8(ascii: "s"): return .string(try text(length: Int(try integer(UInt32.self)), what: "string"))
        case UInt8(ascii: "o"): return .objectPath(try text(length: Int(try integer(UInt32.self)), what: "object path"))
        case UInt8(ascii: "g"): return .signature(try signatureText())
        case UInt8(ascii: "v"):
            let at = offset
            let inner = try signatureText()
            let types = try DBusSignature.split(inner)
            guard types.count == 1 else { throw DBusError("byte \(at): a variant holds one complete type, not \"\(inner)\"") }
            return .variant(try read(Array(inner.utf8), depth: depth + 1))
        case UInt8(ascii: "a"):
            let element = Array(type.dropFirst())
            let length = Int(try integer(UInt32.self))
            guard length <= Self.maximumArrayBytes else { throw DBusError("byte \(offset - 4): an array of \(length) bytes (at most 64 MiB)") }
            try align(DBusSignature.alignment(element.first ?? 0))
            let stop = offset + length
            guard stop <= end else { throw DBusError("byte \(offset): an array of \(length) bytes runs past the message") }
            var elements: [DBusValue] = []
            while offset < stop { elements.append(try read(element, depth: depth + 1)) }
            guard offset == stop else { throw DBusError("byte \(offset): an element runs past its array's end") }
            return .array(element: String(decoding: element, as: UTF8.self), elements)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            try align(8)
            let inner = Array(type.dropFirst().dropLast())
            var fields: [DBusValue] = []
            var index = 0
            while index < inner.count {
                let stop = try DBusSignature.completeType(inner, from: index, arrays: 0, structs: 0)
                fields.append(try read(Array(inner[index..<stop]), depth: depth + 1))
                index = stop
            }
            if code == UInt8(ascii: "{") {
                guard fields.count == 2 else { throw DBusError("a dict entry has a key and a value") }
                return .dictEntry(fields[0], fields[1])
            }
            return .structure(fields)
        default:
            throw DBusError("unknown type code \(Character(Unicode.Scalar(code)))")
        }
    }
}
