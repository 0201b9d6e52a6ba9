import HeartworkCore

/// A reading as it travels between instances: enough for a viewer's feed message.
public struct BusReading: Sendable, Hashable {
    public var sensorID: String
    public var address: String
    public var name: String?
    public var reading: SensorReading

    public init(sensorID: String, address: String, name: String?, reading: SensorReading) {
        self.sensorID = sensorID
        self.address = address
        self.name = name
        self.reading = reading
    }
}

/// A user's new notification as it travels between instances, for their open pages.
public struct BusNotice: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var kind: String
    public var text: String
    public var link: String?
    public var atMilliseconds: Int64

    public init(id: String, userID: String, kind: String, text: String, link: String?, atMilliseconds: Int64) {
        self.id = id
        self.userID = userID
        self.kind = kind
        self.text = text
        self.link = link
        self.atMilliseconds = atMilliseconds
    }
}

/// A match room's traffic between the instance a player is connected to and the instance
/// that hosts the room: `join`, `reading` and `leave` go to the host; `out` carries one of the
/// room's frames (`MatchMessage.json`) back to the player's connection (`seat`), and an `out`
/// without a message ends it.
public struct BusMatch: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case join, reading, forfeit, leave, out }
    public var kind: Kind
    /// The instance this is for (the others ignore it).
    public var target: String
    public var matchID: String
    /// One player's connection, as the player's instance names it.
    public var seat: String
    /// "a" or "b".
    public var side: String
    public var second: Int?
    public var beatsPerMinute: Double?
    public var message: String?
    /// A reading's source (`MatchReadingSource`'s raw value); an instance of an earlier
    /// version sends none, and its readings count as practice.
    public var source: String?
    /// A reading's RR intervals in milliseconds (for the host's plausibility check; a tenth
    /// member, added for issue 40; empty from an earlier version).
    public var rrMilliseconds: [Double]

    public init(
        kind: Kind, target: String, matchID: String, seat: String, side: String, second: Int? = nil,
        beatsPerMinute: Double? = nil, message: String? = nil, source: String? = nil, rrMilliseconds: [Double] = []
    ) {
        self.source = source
        self.rrMilliseconds = rrMilliseconds
        self.kind = kind
        self.target = target
        self.matchID = matchID
        self.seat = seat
        self.side = side
        self.second = second
        self.beatsPerMinute = beatsPerMinute
        self.message = message
    }
}

/// A credential withdrawn: every open socket that came with it closes, on every instance.
public enum Revocation: Sendable, Hashable {
    /// A gateway (deleted, or its account deleted).
    case gateway(id: String)
    /// One session (signed out).
    case session(tokenHash: String)
    /// Every session of a user but `except` (a password change keeps the one it was made in).
    case sessions(userID: String, except: String?)
    /// Everything of a user: sessions and gateways (the account was deleted).
    case user(id: String)
}

/// What one Heartwork instance tells the others sharing its PostgreSQL database.
public enum LiveBusMessage: Sendable, Hashable {
    /// A credential withdrawn: close its sockets.
    case revoke(Revocation)
    /// New readings of a user's sensors, for that user's viewers.
    case readings(userID: String, [BusReading])
    /// A signed-out session: every instance forgets it at once.
    case forgetSession(tokenHash: String)
    /// A password change or profile edit: every instance reloads the user's sessions.
    case forgetUser(userID: String)
    /// A notification for a user's open pages.
    case notice(BusNotice)
    /// A match room's traffic (the sender is the payload's instance).
    case match(BusMatch)
}

/// The text of bus notifications: compact JSON, cut into payloads PostgreSQL's NOTIFY takes
/// (under its 8000-byte limit), each tagged with the sending instance so it can skip its own.
///
///     {"v":1,"i":"<instance>","k":"r","u":"<user>","r":[["<sensor id>","<address>","<name>"|null,seq,at,bpm,"<contact>",battery|null,[rr ticks…]],…]}
///     {"v":1,"i":"<instance>","k":"s","t":"<token hash>"}
///     {"v":1,"i":"<instance>","k":"u","u":"<user>"}
///     {"v":1,"i":"<instance>","k":"n","n":["<id>","<user>","<kind>","<text>","<link>"|null,at]}
///     {"v":1,"i":"<instance>","k":"x","x":["gateway"|"session"|"sessions"|"user","<id>","<except>"|null]}
///     {"v":1,"i":"<instance>","k":"m","m":["<kind>","<target>","<match>","<seat>","<side>",second|null,bpm|null,"<frame>"|null,"<source>"]}
public enum LiveBusCodec {
    public static let maximumPayloadBytes = 7_900

    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public static func encode(_ message: LiveBusMessage, instance: String) -> [String] {
        switch message {
        case .revoke(let revocation):
            let (kind, id, except): (String, String, String?) =
                switch revocation {
                case .gateway(let id): ("gateway", id, nil)
                case .session(let hash): ("session", hash, nil)
                case .sessions(let userID, let except): ("sessions", userID, except)
                case .user(let id): ("user", id, nil)
                }
            return [
                single(instance: instance, kind: "x") { json in
                    json.key("x")
                    json.beginArray()
                    json.string(kind)
                    json.string(id)
                    if let except { json.string(except) } else { json.null() }
                    json.endArray()
                }
            ]
        case .forgetSession(let hash):
            return [
                single(instance: instance, kind: "s") {
                    $0.key("t")
                    $0.string(hash)
                }
            ]
        case .forgetUser(let userID):
            return [
                single(instance: instance, kind: "u") {
                    $0.key("u")
                    $0.string(userID)
                }
            ]
        case .match(let match):
            return [
                single(instance: instance, kind: "m") { json in
                    json.key("m")
                    json.beginArray()
                    json.string(match.kind.rawValue)
                    json.string(match.target)
                    json.string(match.matchID)
                    json.string(match.seat)
                    json.string(match.side)
                    if let second = match.second { json.integer(second) } else { json.null() }
                    if let bpm = match.beatsPerMinute, bpm.isFinite { json.number(bpm) } else { json.null() }
                    // A room's frame is a few hundred bytes (an event's sentence the longest).
                    if let message = match.message { json.string(String(message.prefix(6000))) } else { json.null() }
                    // Where a reading's heart rate came from (a ninth member, added for issue 23).
                    if let source = match.source { json.string(source) } else { json.null() }
                    // Its RR intervals (a tenth member, added for issue 40).
                    json.beginArray()
                    for rr in match.rrMilliseconds.prefix(16) where rr.isFinite { json.number(rr) }
                    json.endArray()
                    json.endArray()
                }
            ]
        case .notice(let notice):
            return [
                single(instance: instance, kind: "n") { json in
                    json.key("n")
                    json.beginArray()
                    json.string(notice.id)
                    json.string(notice.userID)
                    json.string(String(notice.kind.prefix(40)))
                    // Notifications are a sentence; the cap keeps any one under NOTIFY's limit.
                    json.string(String(notice.text.prefix(1000)))
                    if let link = notice.link { json.string(String(link.prefix(500))) } else { json.null() }
                    json.integer(Int(notice.atMilliseconds))
                    json.endArray()
                }
            ]
        case .readings(let userID, let readings):
            var payloads = [String]()
            var items = [[UInt8]]()
            var size = 0
            let overhead = 64 + instance.utf8.count + userID.utf8.count
            func flush() {
                guard !items.isEmpty else { return }
                var bytes = Array(#"{"v":1,"i":"#.utf8)
                var header = JSONWriter(capacity: 128)
                header.string(instance)
                bytes += header.bytes
                bytes += Array(#","k":"r","u":"#.utf8)
                var user = JSONWriter(capacity: 64)
                user.string(userID)
                bytes += user.bytes
                bytes += Array(#","r":["#.utf8)
                for (index, item) in items.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    bytes += item
                }
                bytes += Array("]}".utf8)
                payloads.append(String(decoding: bytes, as: UTF8.self))
                items.removeAll(keepingCapacity: true)
                size = 0
            }
            for reading in readings {
                let item = encode(reading)
                if !items.isEmpty && overhead + size + item.count + 1 > maximumPayloadBytes { flush() }
                items.append(item)
                size += item.count + 1
            }
            flush()
            return payloads
        }
    }

    private static func single(instance: String, kind: StaticString, _ body: (inout JSONWriter) -> Void) -> String {
        var json = JSONWriter(capacity: 160)
        json.beginObject()
        json.field("v", 1)
        json.field("i", instance)
        json.key("k")
        json.string(String(describing: kind))
        body(&json)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    private static func encode(_ item: BusReading) -> [UInt8] {
        var json = JSONWriter(capacity: 96 + item.reading.rrIntervalTicks.count * 5)
        json.beginArray()
        json.string(item.sensorID)
        json.string(item.address)
        if let name = item.name { json.string(name) } else { json.null() }
        json.integer(item.reading.sequence)
        json.integer(item.reading.atMilliseconds)
        json.integer(item.reading.beatsPerMinute)
        json.string(item.reading.contact.rawValue)
        if let battery = item.reading.battery { json.integer(battery) } else { json.null() }
        json.beginArray()
        for tick in item.reading.rrIntervalTicks { json.integer(Int(tick)) }
        json.endArray()
        json.endArray()
        return json.bytes
    }

    public static func decode(_ payload: String) throws -> (instance: String, message: LiveBusMessage) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(Array(payload.utf8), maximumDepth: 8)
        } catch {
            throw Malformed(description: "not JSON: \(error)")
        }
        guard case .object(let members) = value else { throw Malformed(description: "not an object") }
        func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        guard case .string(let instance)? = member("i"), case .string(let kind)? = member("k") else {
            throw Malformed(description: "no instance or kind")
        }
        switch kind {
        case "x":
            guard case .array(let fields)? = member("x"), fields.count == 3, case .string(let what) = fields[0], case .string(let id) = fields[1] else {
                throw Malformed(description: "not a revocation")
            }
            var except: String?
            if case .string(let value) = fields[2] { except = value }
            switch what {
            case "gateway": return (instance, .revoke(.gateway(id: id)))
            case "session": return (instance, .revoke(.session(tokenHash: id)))
            case "sessions": return (instance, .revoke(.sessions(userID: id, except: except)))
            case "user": return (instance, .revoke(.user(id: id)))
            default: throw Malformed(description: "unknown revocation \(what)")
            }
        case "s":
            guard case .string(let hash)? = member("t") else { throw Malformed(description: "no token hash") }
            return (instance, .forgetSession(tokenHash: hash))
        case "u":
            guard case .string(let user)? = member("u") else { throw Malformed(description: "no user") }
            return (instance, .forgetUser(userID: user))
        case "n":
            guard case .array(let fields)? = member("n"), fields.count == 6,
                case .string(let id) = fields[0], case .string(let user) = fields[1], case .string(let noticeKind) = fields[2],
                case .string(let text) = fields[3], case .number(let at) = fields[5], at.isFinite, abs(at) < 9_007_199_254_740_992
            else {
                throw Malformed(description: "not a notice")
            }
            var link: String?
            if case .string(let value) = fields[4] { link = value }
            return (instance, .notice(BusNotice(id: id, userID: user, kind: noticeKind, text: text, link: link, atMilliseconds: Int64(at))))
        case "m":
            guard case .array(let fields)? = member("m"), (8...10).contains(fields.count),
                case .string(let kindText) = fields[0], let matchKind = BusMatch.Kind(rawValue: kindText),
                case .string(let target) = fields[1], case .string(let matchID) = fields[2], case .string(let seat) = fields[3],
                case .string(let side) = fields[4]
            else {
                throw Malformed(description: "not a match message")
            }
            var bpm: Double?
            if case .number(let number) = fields[6], number.isFinite { bpm = number }
            var message: String?
            if case .string(let text) = fields[7] { message = text }
            var source: String?
            if fields.count >= 9, case .string(let text) = fields[8] { source = text }
            var rr = [Double]()
            if fields.count >= 10, case .array(let values) = fields[9] {
                rr = values.prefix(16).compactMap { value in
                    guard case .number(let number) = value, number.isFinite else { return nil }
                    return number
                }
            }
            return (
                instance,
                .match(
                    BusMatch(
                        kind: matchKind, target: target, matchID: matchID, seat: seat, side: side,
                        second: integer(fields[5]), beatsPerMinute: bpm, message: message, source: source, rrMilliseconds: rr))
            )
        case "r":
            guard case .string(let user)? = member("u"), case .array(let items)? = member("r") else { throw Malformed(description: "no user or readings") }
            return (instance, .readings(userID: user, try items.map(reading)))
        default:
            throw Malformed(description: "unknown kind \(kind)")
        }
    }

    private static func reading(_ value: JSONValue) throws -> BusReading {
        guard case .array(let fields) = value, fields.count == 9,
            case .string(let sensorID) = fields[0], case .string(let address) = fields[1],
            let sequence = integer(fields[3]), let at = integer(fields[4]), let bpm = integer(fields[5]),
            case .string(let contactText) = fields[6], let contact = SensorContact(rawValue: contactText),
            case .array(let ticks) = fields[8]
        else {
            throw Malformed(description: "a reading is not [sensor, address, name, seq, at, bpm, contact, battery, [rr]]")
        }
        var name: String?
        if case .string(let text) = fields[2] { name = text }
        let battery = integer(fields[7])
        let rr = try ticks.map { tick -> UInt16 in
            guard let value = integer(tick), let ticks = UInt16(exactly: value) else { throw Malformed(description: "an RR interval is not 0–65535") }
            return ticks
        }
        return BusReading(
            sensorID: sensorID, address: address, name: name,
            reading: SensorReading(
                sequence: sequence, atMilliseconds: at, beatsPerMinute: bpm, contact: contact, battery: battery, rrIntervalTicks: rr))
    }

    private static func integer(_ value: JSONValue) -> Int? {
        guard case .number(let number) = value, number == number.rounded(), abs(number) < 9_007_199_254_740_992 else { return nil }
        return Int(number)
    }
}
