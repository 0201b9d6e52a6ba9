import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird
import HummingbirdWebSocket
import NIOWebSocket

/// The match room's socket, `GET /api/live/matches/{id}` (docs/PROTOCOL.md §10): a player's
/// readings in, the room's lobby, countdown, state, events and end out.
struct MatchSocket {
    let services: HeartworkServices
    /// A player sends one reading a second; this many frames a second closes the socket (1008).
    static let framesPerSecond = 20

    func register(on router: Router<LiveRequestContext>) {
        let services = services
        SignedInSocket.register(
            "api/live/matches/:matchID", on: router, services: services,
            check: { request, context, user in
                // Refused before the upgrade, so a client sees why (404, 409) as problem+json.
                _ = try await services.matches.match(try context.parameters.require("matchID"), for: user)
                // ?sensor= plays the player's side from one of their own straps.
                if let sensor = request.uri.queryParameters.get("sensor") { _ = try await services.live.sensor(sensor, of: user) }
            }
        ) { user, request, parameters, inbound, outbound in
            guard let id = parameters.get("matchID") else { return }
            let sensor: String? = request.uri.queryParameters.get("sensor").map { String($0) }
            try await Self.play(services, match: id, user: user, sensor: sensor, inbound: inbound, outbound: outbound)
        }

        SignedInSocket.register("api/live/notifications", on: router, services: services) { user, _, _, inbound, outbound in
            let (id, notices) = await services.inbox.watch(user)
            try await SocketSubscription.relay(
                notices, stop: { await services.inbox.stopWatching(user, id: id) },
                first: { .text(#"{"type":"unread","unread":\#((try? await services.inbox.unreadCount(for: user)) ?? 0)}"#) },
                frames: { [.text(MatchMessages.notification($0, unread: (try? await services.inbox.unreadCount(for: user)) ?? 0))] },
                inbound: inbound, outbound: outbound)
        }
    }

    /// A player in a match room: the room's frames out, the player's readings in.
    static func play(
        _ services: HeartworkServices, match id: String, user: UserRecord, sensor: String?, inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter
    ) async throws {
        let join: MatchJoin
        do {
            join = try await services.matches.join(id, as: user)
        } catch {
            try await outbound.write(.text(MatchMessage.closed(reason: "refused", detail: "\(error)").json))
            try await outbound.close(.normalClosure, reason: nil)
            return
        }
        guard let room = join.room else {
            // Over already: its result, then goodbye.
            try await outbound.write(.text(MatchMessages.end(try await services.matches.view(of: join.match), viewer: user)))
            try await outbound.close(.normalClosure, reason: nil)
            return
        }
        let (connection, messages) = await room.connect(join.side)
        // The room hears that this player left however the socket ends (closed, failed, revoked).
        do {
            try await exchange(
                services, room: room, join: join, connection: connection, messages: messages, user: user, sensor: sensor,
                inbound: inbound, outbound: outbound)
        } catch {
            await room.disconnect(join.side, id: connection)
            throw error
        }
        await room.disconnect(join.side, id: connection)
    }

    private static func exchange(
        _ services: HeartworkServices, room: any MatchRoomHandle, join: MatchJoin, connection: UUID, messages: AsyncStream<MatchMessage>,
        user: UserRecord, sensor: String?, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var strap: Task<Void, Never>?
                defer { strap?.cancel() }
                for await message in messages {
                    // Following a strap: from the start, its heart rate plays this side.
                    if let sensor, strap == nil, case .start(let at, _, let duration, let length) = message {
                        strap = Task {
                            await services.matches.follow(
                                sensorID: sensor, of: user, into: room, side: join.side,
                                startMilliseconds: at, durationSeconds: duration, secondMilliseconds: length)
                        }
                    }
                    // The end frame carries the result from the viewer's side: read here, so
                    // encoding stays pure.
                    let text =
                        if case .end(let matchID) = message {
                            try MatchMessages.end(try await services.matches.view(matchID, for: user), viewer: user)
                        } else {
                            message.json
                        }
                    try await outbound.write(.text(text))
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
            group.addTask {
                var limiter = RateWindow(perSecond: [Self.framesPerSecond])
                for try await message in inbound.messages(maxSize: 4096) {
                    guard case .text(let text) = message else {
                        try await outbound.close(.policyViolation, reason: "binary frames are not part of the protocol")
                        return
                    }
                    guard limiter.admit([1]) == nil else {
                        try await outbound.close(.policyViolation, reason: "more than \(Self.framesPerSecond) frames a second")
                        return
                    }
                    switch MatchMessages.read(text) {
                    case .reading(let second, _, _, _) where sensor != nil:
                        let detail = "this side plays from the gateway strap chosen (?sensor=): the page sends no readings"
                        try await outbound.write(.text(MatchMessage.refused(second: second, detail: detail).json))
                    case .reading(let second, let bpm, let rr, let source):
                        await room.reading(join.side, second: second, beatsPerMinute: bpm, rrMilliseconds: rr, source: source)
                    case .forfeit:
                        await room.forfeit(join.side, id: connection)
                    case .refused(let second, let detail):
                        try await outbound.write(.text(MatchMessage.refused(second: second, detail: detail).json))
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

/// The JSON text frames of the match room and the notifications socket.
enum MatchMessages {
    enum Inbound: Equatable {
        /// `rr`: the strap's RR intervals in milliseconds (for the plausibility check).
        case reading(second: Int, bpm: Double, rr: [Double], source: MatchReadingSource)
        /// End: the player leaves and forfeits.
        case forfeit
        case refused(second: Int?, detail: String)
    }

    /// Reads a player's frame: `{"type":"reading","second":N,"hrm":"<hex of 0x2A37>"}` (a
    /// strap's own bytes, decoded with the gateways' codec: no skin contact is 0, lost
    /// contact), `{"type":"reading","second":N,"bpm":B}` (a number the player chose: practice
    /// only, the room decides), or `{"type":"forfeit"}`.
    static func read(_ text: String) -> Inbound {
        let object: JSONObjectReader
        do {
            object = try JSONObjectReader(parsing: Array(text.utf8), allowed: ["type", "second", "bpm", "hrm"])
        } catch {
            return .refused(second: nil, detail: "\(error)")
        }
        let second = try? object.integer("second")
        do {
            switch try object.string("type") {
            case "forfeit": return .forfeit
            case "reading": break
            default: return .refused(second: second, detail: "type: a player sends \"reading\" or \"forfeit\"")
            }
            let second = try object.integer("second")
            guard let hex = try object.optionalString("hrm") else {
                return .reading(second: second, bpm: try object.double("bpm"), rr: [], source: .practice)
            }
            guard (try object.optionalDouble("bpm")) == nil else {
                return .refused(second: second, detail: "send hrm or bpm, not both")
            }
            return strapReading(second: second, hex: hex)
        } catch {
            return .refused(second: second, detail: "\(error)")
        }
    }

    /// A strap's 0x2A37 bytes as one second's heart rate, by the gateway protocol's rules
    /// (PROTOCOL.md §3): 0 when the strap reports no skin contact; otherwise 20–250 bpm.
    static func strapReading(second: Int, hex: String) -> Inbound {
        guard hex.utf8.count <= 1024 else { return .refused(second: second, detail: "hrm: at most 512 bytes") }
        let measurement: HeartRateMeasurement
        do {
            measurement = try HeartRateMeasurementCodec.decode(try HexBytes.parse(hex))
        } catch {
            return .refused(second: second, detail: "hrm: \(error)")
        }
        if measurement.sensorContact == .notDetected { return .reading(second: second, bpm: 0, rr: [], source: .strap) }
        let bpm = Double(measurement.beatsPerMinute)
        guard bpm == 0 || (20...250).contains(bpm) else {
            return .refused(second: second, detail: "hrm: a heart rate of \(measurement.beatsPerMinute) bpm is neither 0 nor 20–250")
        }
        return .reading(second: second, bpm: bpm, rr: measurement.rrIntervalsMilliseconds, source: .strap)
    }

    /// The `end` frame for one viewer: the result from the viewer's side as
    /// `GET /api/matches/{id}` gives it (every other room frame goes out as the room wrote it).
    static func end(_ view: MatchView, viewer: UserRecord) throws -> String {
        let response = MatchResponse(view.match, viewer: viewer, people: view.people)
        let result = try response.result.map { String(decoding: try APIJSON.encoder.encode($0), as: UTF8.self) } ?? "null"
        let whole = String(decoding: try APIJSON.encoder.encode(response), as: UTF8.self)
        return #"{"type":"end","result":\#(result),"match":\#(whole)}"#
    }

    static func notification(_ notice: InboxRecord, unread: Int) -> String {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        json.field("type", "notification")
        json.field("id", notice.id)
        json.field("kind", notice.kind)
        json.field("text", notice.text)
        json.field("link", notice.link)
        json.field("createdAt", notice.createdAt)
        json.field("unread", unread)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
