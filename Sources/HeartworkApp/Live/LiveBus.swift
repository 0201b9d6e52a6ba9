import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import Logging
import ServiceLifecycle
import Synchronization

/// Carries live events to every Heartwork instance that shares the database: new readings
/// (for the viewers of their owner, wherever they are connected) and revoked sessions (so a
/// sign-out or a password change on one instance is honoured by the others at once).
///
/// Events always reach this instance directly, in process. On PostgreSQL they also go out
/// as NOTIFY on the channel `heartwork_live` (`LiveBusCodec`: JSON cut into payloads under
/// 8000 bytes, tagged with the sender so it skips its own), and a `LISTEN` connection of
/// each instance passes what the others send to its hub and session cache. On SQLite there
/// is one instance per file, and the bus is the in-process path alone.
public final class LiveBus: Service, Sendable, CredentialRevoker {
    public static let channel = "heartwork_live"
    public let instanceID = UUID().uuidString.lowercased()
    let store: HeartworkStore
    let hub: LiveHub
    let inboxHub: InboxHub
    let sessionCache: SessionCache
    /// This instance's open sockets, closed when their credential is revoked.
    public let connections: LiveConnections
    let logger: Logger
    /// Who handles match-room traffic addressed to this instance (the match service).
    private let matchHandler = Mutex<(@Sendable (_ from: String, BusMatch) async -> Void)?>(nil)
    /// Match-room traffic goes out in order, one notification after the other (a room's
    /// frames must reach a player in the order the room wrote them).
    private let matchOutbox: AsyncStream<[String]>.Continuation
    /// Match traffic for other instances, in order; passed on by `run` (a child of the
    /// service group).
    private let outbox: AsyncStream<[String]>
    /// Everything else for the other instances (readings, revocations, forgotten sessions,
    /// notices): order does not matter between them, so `run` sends up to
    /// `concurrentNotifications` at once, as they come.
    private let liveOutbox: AsyncStream<[String]>.Continuation
    /// Messages for other instances waiting for NOTIFY, at most (about 20 s at 10,000 readings
    /// a second in frames of 100).
    static let outboxCapacity = 2_000
    private let droppedMessages = Atomic<Int>(0)
    private let liveMessages: AsyncStream<[String]>
    static let concurrentNotifications = 8
    /// Listening yet, and who waits for it (tests).
    private let listening = Mutex<(ready: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    init(store: HeartworkStore, hub: LiveHub, inboxHub: InboxHub, sessionCache: SessionCache, connections: LiveConnections, logger: Logger) {
        self.connections = connections
        self.store = store
        self.hub = hub
        self.inboxHub = inboxHub
        self.sessionCache = sessionCache
        self.logger = logger
        (outbox, matchOutbox) = AsyncStream<[String]>.makeStream()
        (liveMessages, liveOutbox) = AsyncStream<[String]>.makeStream(bufferingPolicy: .bufferingOldest(Self.outboxCapacity))
        guard store.sharesNotifications else { return }
        sessionCache.announceForgetting { [weak self] forgotten in
            switch forgotten {
            case .session(let hash): self?.send(.forgetSession(tokenHash: hash))
            case .user(let id): self?.send(.forgetUser(userID: id))
            }
        }
    }

    var isShared: Bool { store.sharesNotifications }

    /// New readings of a user's sensors: to this instance's viewers now, and to the others.
    func publish(userID: String, _ events: [LiveEvent]) async {
        guard !events.isEmpty else { return }
        await hub.publish(userID: userID, events)
        guard isShared else { return }
        let readings = events.map { BusReading(sensorID: $0.sensor.id, address: $0.sensor.address, name: $0.sensor.name, reading: $0.reading) }
        send(.readings(userID: userID, readings))
    }

    /// A credential withdrawn: its sockets close here at once and on the other instances as
    /// soon as they hear it (on PostgreSQL; well under a second).
    func revoke(_ revocation: Revocation) {
        connections.revokeHere(revocation)
        guard isShared else { return }
        send(.revoke(revocation))
    }

    func handleMatches(_ handler: @escaping @Sendable (_ from: String, BusMatch) async -> Void) {
        matchHandler.withLock { $0 = handler }
    }

    /// Match-room traffic for another instance (in order: one NOTIFY at a time per sender).
    func send(match: BusMatch) {
        guard isShared else { return }
        matchOutbox.yield(LiveBusCodec.encode(.match(match), instance: instanceID))
    }

    deinit {
        matchOutbox.finish()
        liveOutbox.finish()
    }

    /// A new notification: to the user's open pages here, and on the other instances.
    func publish(_ notice: InboxRecord) async {
        await inboxHub.publish(notice)
        guard isShared else { return }
        send(
            .notice(
                BusNotice(
                    id: notice.id, userID: notice.userID, kind: notice.kind, text: notice.text, link: notice.link,
                    atMilliseconds: notice.createdAt.millisecondsSince1970)))
    }

    /// Sends without making the caller wait for the database: the in-process path has already
    /// run, and a viewer on another instance is better served late than a gateway slowed. The
    /// message is queued; `run` (a child of the service group) sends it, a few at a time.
    ///
    /// The queue is bounded (`outboxCapacity` messages): should NOTIFY fall that far behind,
    /// newer messages are dropped — viewers on other instances miss them (what was stored and
    /// acknowledged is not affected) — and the drops are logged, one line per 1,000.
    func send(_ message: LiveBusMessage) {
        if case .dropped = liveOutbox.yield(LiveBusCodec.encode(message, instance: instanceID)) {
            let dropped = droppedMessages.add(1, ordering: .relaxed).newValue
            if dropped % 1000 == 1 {
                logger.error("the live bus is behind: messages for other instances dropped", metadata: ["dropped": "\(dropped)"])
            }
        }
    }

    /// What another instance said.
    func receive(_ payload: String) async {
        let decoded: (instance: String, message: LiveBusMessage)
        do {
            decoded = try LiveBusCodec.decode(payload)
        } catch {
            logger.warning("ignoring a malformed bus notification", metadata: ["error": "\(error)"])
            return
        }
        guard decoded.instance != instanceID else { return }
        switch decoded.message {
        case .readings(let userID, let readings):
            await hub.publish(
                userID: userID,
                readings.map { item in
                    LiveEvent(
                        sensor: SensorRecord(id: item.sensorID, userID: userID, address: item.address, name: item.name, createdAt: .distantPast),
                        reading: item.reading)
                })
        case .revoke(let revocation):
            connections.revokeHere(revocation)
        case .forgetSession(let hash):
            sessionCache.forgetHere(.session(tokenHash: hash))
        case .forgetUser(let userID):
            sessionCache.forgetHere(.user(id: userID))
        case .match(let match):
            guard match.target == instanceID, let handler = matchHandler.withLock({ $0 }) else { return }
            await handler(decoded.instance, match)
        case .notice(let notice):
            await inboxHub.publish(
                InboxRecord(
                    id: notice.id, userID: notice.userID, kind: notice.kind, text: notice.text, link: notice.link,
                    createdAt: Date(timeIntervalSince1970: Double(notice.atMilliseconds) / 1000)))
        }
    }

    /// Waits until this instance listens to the others (at once on SQLite).
    public func waitUntilListening() async {
        guard isShared else { return }
        await withCheckedContinuation { continuation in
            let ready = listening.withLock { state in
                if !state.ready { state.waiting.append(continuation) }
                return state.ready
            }
            if ready { continuation.resume() }
        }
    }

    public func run() async throws {
        guard isShared else {
            // Nothing to listen to on SQLite; a service group's service runs until shutdown.
            try? await gracefulShutdown()
            return
        }
        await cancelWhenGracefulShutdown { [self] in
            await withDiscardingTaskGroup { group in
                group.addTask { [self] in
                    for await payloads in outbox {
                        do {
                            try await store.notify(channel: Self.channel, payloads: payloads)
                        } catch {
                            logger.warning("could not pass match traffic to another instance", metadata: ["error": "\(error)"])
                        }
                    }
                }
                group.addTask { [self] in
                    await withTaskGroup(of: Void.self) { sending in
                        var running = 0
                        for await payloads in liveMessages {
                            if running == Self.concurrentNotifications {
                                await sending.next()
                                running -= 1
                            }
                            running += 1
                            sending.addTask { [self] in
                                do {
                                    try await store.notify(channel: Self.channel, payloads: payloads)
                                } catch {
                                    logger.warning("could not tell the other instances", metadata: ["error": "\(error)"])
                                }
                            }
                        }
                    }
                }
                group.addTask { [self] in
                    await store.listen(
                        channel: Self.channel, logger: logger,
                        onConnected: { [self] in
                            let waiting = listening.withLock { state in
                                state.ready = true
                                defer { state.waiting.removeAll() }
                                return state.waiting
                            }
                            for continuation in waiting { continuation.resume() }
                        },
                        receive: { [self] payload in
                            await receive(payload)
                        })
                }
            }
        }
    }
}

/// Who closes the sockets of a withdrawn credential (the live bus; tools without sockets pass
/// none).
protocol CredentialRevoker: Sendable {
    func revoke(_ revocation: Revocation)
}
