import HeartworkCore

/// What a match room tells one player, from that player's side: the frames of the room's
/// socket (docs/PROTOCOL.md §10). The same JSON travels between instances when the room is
/// hosted by another one (`LiveBusMessage.match`), so it is written and read here.
public enum MatchMessage: Sendable, Hashable {
    public struct SideState: Sendable, Hashable {
        /// The player's own heart rate this second; never the opponent's (seed-000 F16).
        public let beatsPerMinute: Double?
        public let zone: ReserveZone
        public let score: Int
        public let progressPercent: Int

        public init(beatsPerMinute: Double?, zone: ReserveZone, score: Int, progressPercent: Int) {
            self.beatsPerMinute = beatsPerMinute
            self.zone = zone
            self.score = score
            self.progressPercent = progressPercent
        }
    }

    /// Who is in the room ("a", "b"), and which side the recipient is.
    case lobby(you: String, present: [String], ghost: Bool)
    /// The countdown: second 0 begins at `at` (Unix ms); `now` is the server's clock when
    /// sent, so a client can correct its own; `secondMilliseconds` is 1000 outside tests.
    case start(atMilliseconds: Int64, nowMilliseconds: Int64, durationSeconds: Int, secondMilliseconds: Int)
    case state(second: Int, you: SideState, opponent: SideState)
    /// A confirmed zone change of `who` ("you" or "opponent") with the sentence to speak.
    case event(second: Int, who: String, direction: String, zone: ReserveZone, text: String)
    /// A reading that was not taken (the match state is unchanged).
    case refused(second: Int?, detail: String)
    /// The match is over; its result is read from the store (`GET /api/matches/{id}`), so the
    /// server writes the full `end` frame for each viewer.
    case end(matchID: String)
    /// The room closed without a result (declined, expired, opened elsewhere).
    case closed(reason: String, detail: String)
    /// The other player's connection dropped: they have `graceSeconds` to come back before
    /// they forfeit (their seconds meanwhile count as lost contact).
    case away(who: String, graceSeconds: Int)
    /// The other player is back.
    case back(who: String)

    /// The socket frame (for `end`, the short form `{"type":"end","match":"<id>"}`).
    public var json: String {
        var json = JSONWriter(capacity: 160)
        json.beginObject()
        switch self {
        case .lobby(let you, let present, let ghost):
            json.field("type", "lobby")
            json.field("you", you)
            json.key("present")
            json.beginArray()
            for side in present { json.string(side) }
            json.endArray()
            json.field("ghost", ghost)
        case .start(let at, let now, let duration, let second):
            json.field("type", "start")
            json.key("at")
            json.integer(Int(at))
            json.key("now")
            json.integer(Int(now))
            json.field("durationSeconds", duration)
            json.field("secondMilliseconds", second)
        case .state(let second, let you, let opponent):
            json.field("type", "state")
            json.field("second", second)
            json.key("you")
            Self.write(&json, you, withHeartRate: true)
            json.key("opponent")
            Self.write(&json, opponent, withHeartRate: false)
        case .event(let second, let who, let direction, let zone, let text):
            json.field("type", "event")
            json.field("second", second)
            json.field("who", who)
            json.field("direction", direction)
            json.field("zone", zone.identifier)
            json.field("text", text)
        case .refused(let second, let detail):
            json.field("type", "error")
            json.field("second", second)
            json.field("detail", detail)
        case .end(let matchID):
            json.field("type", "end")
            json.field("match", matchID)
        case .closed(let reason, let detail):
            json.field("type", "closed")
            json.field("reason", reason)
            json.field("detail", detail)
        case .away(let who, let grace):
            json.field("type", "away")
            json.field("who", who)
            json.field("graceSeconds", grace)
        case .back(let who):
            json.field("type", "back")
            json.field("who", who)
        }
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    private static func write(_ json: inout JSONWriter, _ side: SideState, withHeartRate: Bool) {
        json.beginObject()
        if withHeartRate {
            json.key("bpm")
            if let bpm = side.beatsPerMinute { json.number(bpm) } else { json.null() }
        }
        json.field("zone", side.zone.identifier)
        json.field("score", side.score)
        json.field("progress", side.progressPercent)
        json.endObject()
    }

    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Reads a frame written by `json` (from another instance).
    public init(json text: String) throws {
        let value: JSONValue
        do {
            value = try JSONValue.parse(Array(text.utf8), maximumDepth: 4)
        } catch {
            throw Malformed(description: "not JSON: \(error)")
        }
        guard case .object(let members) = value else { throw Malformed(description: "not an object") }
        func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        func string(_ key: String) throws -> String {
            guard case .string(let text)? = member(key) else { throw Malformed(description: "no \(key)") }
            return text
        }
        func integer(_ key: String, in object: [(key: String, value: JSONValue)]? = nil) throws -> Int {
            let found = object.map { fields in fields.first { $0.key == key }?.value } ?? member(key)
            guard case .number(let number)? = found, number == number.rounded(), abs(number) < 9_007_199_254_740_992 else {
                throw Malformed(description: "no integer \(key)")
            }
            return Int(number)
        }
        func zone(_ identifier: String) throws -> ReserveZone {
            guard let zone = ReserveZone.allCases.first(where: { $0.identifier == identifier }) else { throw Malformed(description: "no zone \(identifier)") }
            return zone
        }
        func side(_ key: String) throws -> SideState {
            guard case .object(let fields)? = member(key) else { throw Malformed(description: "no \(key)") }
            var bpm: Double?
            if case .number(let number)? = fields.first(where: { $0.key == "bpm" })?.value, number.isFinite { bpm = number }
            guard case .string(let zoneName)? = fields.first(where: { $0.key == "zone" })?.value else { throw Malformed(description: "no zone") }
            return SideState(
                beatsPerMinute: bpm, zone: try zone(zoneName), score: try integer("score", in: fields),
                progressPercent: try integer("progress", in: fields))
        }
        switch try string("type") {
        case "lobby":
            guard case .array(let items)? = member("present"), case .bool(let ghost)? = member("ghost") else { throw Malformed(description: "not a lobby") }
            let present = items.compactMap { item -> String? in if case .string(let side) = item { side } else { nil } }
            self = .lobby(you: try string("you"), present: present, ghost: ghost)
        case "start":
            self = .start(
                atMilliseconds: Int64(try integer("at")), nowMilliseconds: Int64(try integer("now")),
                durationSeconds: try integer("durationSeconds"), secondMilliseconds: try integer("secondMilliseconds"))
        case "state":
            self = .state(second: try integer("second"), you: try side("you"), opponent: try side("opponent"))
        case "event":
            self = .event(
                second: try integer("second"), who: try string("who"), direction: try string("direction"),
                zone: try zone(try string("zone")), text: try string("text"))
        case "error":
            self = .refused(second: try? integer("second"), detail: try string("detail"))
        case "end":
            self = .end(matchID: try string("match"))
        case "closed":
            self = .closed(reason: try string("reason"), detail: try string("detail"))
        case "away":
            self = .away(who: try string("who"), graceSeconds: try integer("graceSeconds"))
        case "back":
            self = .back(who: try string("who"))
        case let other:
            throw Malformed(description: "unknown type \(other)")
        }
    }
}
