import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// A room another instance hosts, as one player's connection here sees it: what the player
/// does goes to the host over the live bus (`BusMatch` join, reading, leave), and the room's
/// frames come back addressed to this connection's seat. If the host does not answer the
/// join within `answerTimeout`, the player is told its server is gone.
actor RemoteMatchRoom: MatchRoomHandle {
    static let answerTimeout: Duration = .seconds(5)
    let matchID: String
    let host: String
    let bus: LiveBus
    let seats: MatchSeats
    private var seat: UUID?

    init(matchID: String, host: String, bus: LiveBus, seats: MatchSeats) {
        self.matchID = matchID
        self.host = host
        self.bus = bus
        self.seats = seats
    }

    func connect(_ side: Competitor) async -> (id: UUID, messages: AsyncStream<MatchMessage>) {
        let id = UUID()
        seat = id
        let messages = await seats.open(id)
        bus.send(match: BusMatch(kind: .join, target: host, matchID: matchID, seat: id.uuidString, side: side.rawValue))
        let seats = seats
        Task {
            try? await Task.sleep(for: Self.answerTimeout)
            await seats.closeIfSilent(id, with: .closed(reason: "unreachable", detail: "the server that hosts this match does not answer"))
        }
        return (id, messages)
    }

    func reading(_ side: Competitor, second: Int, beatsPerMinute bpm: Double, rrMilliseconds: [Double], source: MatchReadingSource) async {
        guard let seat else { return }
        bus.send(
            match: BusMatch(
                kind: .reading, target: host, matchID: matchID, seat: seat.uuidString, side: side.rawValue,
                second: second, beatsPerMinute: bpm, source: source.rawValue, rrMilliseconds: rrMilliseconds))
    }

    func forfeit(_ side: Competitor, id: UUID) async {
        guard seat == id else { return }
        bus.send(match: BusMatch(kind: .forfeit, target: host, matchID: matchID, seat: id.uuidString, side: side.rawValue))
    }

    func disconnect(_ side: Competitor, id: UUID) async {
        guard seat == id else { return }
        seat = nil
        await seats.close(id)
        bus.send(match: BusMatch(kind: .leave, target: host, matchID: matchID, seat: id.uuidString, side: side.rawValue))
    }
}

/// The connections of this instance whose room is hosted elsewhere, by seat.
actor MatchSeats {
    private var open: [UUID: (continuation: AsyncStream<MatchMessage>.Continuation, heard: Bool)] = [:]

    func open(_ seat: UUID) -> AsyncStream<MatchMessage> {
        let (stream, continuation) = AsyncStream<MatchMessage>.makeStream(bufferingPolicy: .bufferingNewest(256))
        open[seat] = (continuation, false)
        return stream
    }

    /// A frame from the host; nil ends the seat.
    func deliver(_ seat: UUID, _ message: MatchMessage?) {
        guard let entry = open[seat] else { return }
        guard let message else {
            entry.continuation.finish()
            open[seat] = nil
            return
        }
        open[seat]?.heard = true
        entry.continuation.yield(message)
    }

    func closeIfSilent(_ seat: UUID, with message: MatchMessage) {
        guard let entry = open[seat], !entry.heard else { return }
        entry.continuation.yield(message)
        entry.continuation.finish()
        open[seat] = nil
    }

    func close(_ seat: UUID) {
        open.removeValue(forKey: seat)?.continuation.finish()
    }
}

/// The host's side: players connected to other instances, seated in rooms of this one.
actor HostedSeats {
    private var seats: [String: (room: MatchRoom, side: Competitor, connection: UUID, forwarder: Task<Void, Never>)] = [:]

    func add(_ seat: String, room: MatchRoom, side: Competitor, connection: UUID, forwarder: Task<Void, Never>) {
        seats[seat] = (room, side, connection, forwarder)
    }

    func seat(_ seat: String) -> (room: MatchRoom, side: Competitor, connection: UUID)? {
        seats[seat].map { ($0.room, $0.side, $0.connection) }
    }

    func remove(_ seat: String) -> (room: MatchRoom, side: Competitor, connection: UUID)? {
        guard let entry = seats.removeValue(forKey: seat) else { return nil }
        return (entry.room, entry.side, entry.connection)
    }
}
