/// One D-Bus message (D-Bus Specification, "Message Format"): a 12-byte fixed header (byte
/// order, type, flags, protocol version 1, body length, serial), the header fields as
/// `a(yv)`, padding to 8, the body.
public struct DBusMessage: Sendable, Hashable {
    public enum Kind: UInt8, Sendable {
        case methodCall = 1
        case methodReturn = 2
        case error = 3
        case signal = 4
    }

    /// Header field codes.
    public enum Field: UInt8, Sendable {
        case path = 1
        case interface = 2
        case member = 3
        case errorName = 4
        case replySerial = 5
        case destination = 6
        case sender = 7
        case signature = 8
        case unixFDs = 9
    }

    public static let noReplyExpected: UInt8 = 0x01
    /// The specification's limit on a whole message.
    public static let maximumLength = 1 << 27

    public var kind: Kind
    public var flags: UInt8
    public var serial: UInt32
    /// In the order written (readers must not care; GDBus and libdbus use different orders).
    public var fields: [(code: UInt8, value: DBusValue)]
    public var body: [DBusValue]

    public init(kind: Kind, flags: UInt8 = 0, serial: UInt32 = 0, fields: [(code: UInt8, value: DBusValue)], body: [DBusValue] = []) {
        self.kind = kind
        self.flags = flags
        self.serial = serial
        self.fields = fields
        self.body = body
    }

    public static func == (left: DBusMessage, right: DBusMessage) -> Bool {
        left.kind == right.kind && left.flags == right.flags && left.serial == right.serial && left.body == right.body
            && left.fields.map { $0.code } == right.fields.map { $0.code } && left.fields.map { $0.value } == right.fields.map { $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(serial)
        hasher.combine(body)
    }

    // MARK: Building

    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String, body: [DBusValue] = [], serial: UInt32 = 0, flags: UInt8 = 0
    ) -> DBusMessage {
        var fields: [(code: UInt8, value: DBusValue)] = [(Field.path.rawValue, .objectPath(path))]
        if let interface { fields.append((Field.interface.rawValue, .string(interface))) }
        fields.append((Field.member.rawValue, .string(member)))
        if let destination { fields.append((Field.destination.rawValue, .string(destination))) }
        return DBusMessage(kind: .methodCall, flags: flags, serial: serial, fields: fields, body: body)
    }

    public static func signal(path: String, interface: String, member: String, body: [DBusValue] = [], serial: UInt32 = 0) -> DBusMessage {
        DBusMessage(
            kind: .signal, flags: noReplyExpected, serial: serial,
            fields: [(Field.path.rawValue, .objectPath(path)), (Field.interface.rawValue, .string(interface)), (Field.member.rawValue, .string(member))],
            body: body)
    }

    public static func methodReturn(replyingTo serial: UInt32, destination: String?, body: [DBusValue] = []) -> DBusMessage {
        var fields: [(code: UInt8, value: DBusValue)] = [(Field.replySerial.rawValue, .uint32(serial))]
        if let destination { fields.append((Field.destination.rawValue, .string(destination))) }
        return DBusMessage(kind: .methodReturn, flags: noReplyExpected, fields: fields, body: body)
    }

    // MARK: Reading

    public func field(_ field: Field) -> DBusValue? { fields.first { $0.code == field.rawValue }?.value }
    public var path: String? { field(.path)?.string }
    public var interface: String? { field(.interface)?.string }
    public var member: String? { field(.member)?.string }
    public var errorName: String? { field(.errorName)?.string }
    public var destination: String? { field(.destination)?.string }
    public var sender: String? { field(.sender)?.string }
    public var replySerial: UInt32? {
        if case .uint32(let serial) = field(.replySerial) { return serial }
        return nil
    }
    /// The body's signature.
    public var signature: String { body.map(\.signature).joined() }
    /// An error reply's text (its first string argument), or its name.
    public var errorText: String { body.first?.string ?? errorName ?? "" }

    // MARK: Wire format

    /// The message as bytes, little-endian. The signature field is the body's (added after
    /// the others when the body is not empty and the field is missing).
    public func encoded() -> [UInt8] {
        var bodyWriter = DBusWriter(capacity: 64)
        for value in body { bodyWriter.write(value) }
        var headerFields = fields.filter { $0.code != Field.signature.rawValue || !body.isEmpty }
        if let index = headerFields.firstIndex(where: { $0.code == Field.signature.rawValue }) {
            headerFields[index].value = .signature(signature)
        } else if !body.isEmpty {
            headerFields.append((Field.signature.rawValue, .signature(signature)))
        }
        var writer = DBusWriter(capacity: 128 + bodyWriter.bytes.count)
        writer.write(.byte(UInt8(ascii: "l")))
        writer.write(.byte(kind.rawValue))
        writer.write(.byte(flags))
        writer.write(.byte(1))
        writer.write(.uint32(UInt32(bodyWriter.bytes.count)))
        writer.write(.uint32(serial))
        writer.write(.array(element: "(yv)", headerFields.map { .structure([.byte($0.code), .variant($0.value)]) }))
        writer.pad(to: 8)
        var bytes = writer.bytes
        bytes.append(contentsOf: bodyWriter.bytes)
        return bytes
    }

    /// How long the message starting `bytes` is, once its first 16 bytes are there (nil
    /// before); throws when those bytes cannot start a message.
    public static func length(ofMessageStarting bytes: some Collection<UInt8>) throws(DBusError) -> Int? {
        guard bytes.count >= 16 else { return nil }
        let head = Array(bytes.prefix(16))
        let little: Bool
        switch head[0] {
        case UInt8(ascii: "l"): little = true
        case UInt8(ascii: "B"): little = false
        default: throw DBusError("byte 0: the byte order is 'l' or 'B', not \(head[0])")
        }
        guard head[3] == 1 else { throw DBusError("byte 3: protocol version \(head[3]), not 1") }
        func word(_ at: Int) -> Int {
            let value = head[at..<at + 4].enumerated().reduce(0) { sum, pair in sum | Int(pair.element) << ((little ? pair.offset : 3 - pair.offset) * 8) }
            return value
        }
        let bodyLength = word(4)
        let fieldsLength = word(12)
        let total = 16 + (fieldsLength + 7) / 8 * 8 + bodyLength
        guard total <= maximumLength else { throw DBusError("a message of \(total) bytes (at most 128 MiB)") }
        return total
    }

    /// Reads exactly one message.
    public static func decode(_ bytes: [UInt8]) throws(DBusError) -> DBusMessage {
        guard let total = try length(ofMessageStarting: bytes) else { throw DBusError("a message has at least 16 bytes, this one \(bytes.count)") }
        guard total == bytes.count else { throw DBusError("the header says \(total) bytes, there are \(bytes.count)") }
        let little = bytes[0] == UInt8(ascii: "l")
        guard let kind = Kind(rawValue: bytes[1]) else { throw DBusError("byte 1: unknown message type \(bytes[1])") }
        var reader = DBusReader(bytes, from: 4, littleEndian: little)
        let bodyLength = Int(try reader.integer(UInt32.self))
        let serial = try reader.integer(UInt32.self)
        guard serial != 0 else { throw DBusError("byte 8: a message's serial is not 0") }
        guard case .array(_, let entries) = try reader.read("a(yv)") else { throw DBusError("byte 12: header fields") }
        var fields: [(code: UInt8, value: DBusValue)] = []
        for entry in entries {
            guard case .structure(let parts) = entry, parts.count == 2, case .byte(let code) = parts[0], case .variant(let value) = parts[1] else {
                throw DBusError("byte 12: a header field is (yv)")
            }
            fields.append((code, value))
        }
        try reader.align(8)
        guard reader.offset + bodyLength == bytes.count else { throw DBusError("byte \(reader.offset): the body is not \(bodyLength) bytes") }
        var message = DBusMessage(kind: kind, flags: bytes[2], serial: serial, fields: fields)
        try message.checkFields()
        var signature = ""
        if let value = message.field(.signature) {
            guard case .signature(let text) = value else { throw DBusError("the signature header field is a signature") }
            signature = text
        }
        var bodyReader = DBusReader(bytes, from: reader.offset, origin: reader.offset, littleEndian: little)
        message.body = try bodyReader.readAll(signature)
        guard bodyReader.isAtEnd else { throw DBusError("byte \(bodyReader.offset): bytes after the body's last value") }
        return message
    }

    /// The fields each type requires, with their types.
    func checkFields() throws(DBusError) {
        let expected: [Field: String] = [
            .path: "o", .interface: "s", .member: "s", .errorName: "s", .replySerial: "u", .destination: "s", .sender: "s", .signature: "g", .unixFDs: "u",
        ]
        for (code, value) in fields {
            if let field = Field(rawValue: code), let type = expected[field], value.signature != type {
                throw DBusError("header field \(code) is of type \(type), not \(value.signature)")
            }
        }
        let required: [Field] =
            switch kind {
            case .methodCall: [.path, .member]
            case .signal: [.path, .interface, .member]
            case .error: [.errorName, .replySerial]
            case .methodReturn: [.replySerial]
            }
        for field in required where self.field(field) == nil {
            throw DBusError("a \(kind) message without its \(field) field")
        }
    }
}
