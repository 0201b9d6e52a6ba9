import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import Synchronization

/// What gateways send: stored (each sensor and sequence once), acknowledged once committed,
/// and passed to the owner's viewers. The sensors a user's gateways have heard, and what
/// they heard.
public struct LiveService: Sendable {
    init(store: HeartworkStore, hub: LiveHub, bus: LiveBus) {
        self.store = store
        self.hub = hub
        self.bus = bus
        feeds = FeedKeeper()
    }

    let store: HeartworkStore
    public let hub: LiveHub
    let bus: LiveBus
    /// Which gateway feeds each strap, when more than one hears it (`StrapFeeds`).
    let feeds: FeedKeeper
    /// The longest window one heart-rate query may ask for.
    public static let maximumWindow: TimeInterval = 24 * 3600
    public static let sensorNameLength = 0...60

    /// "Every reading of `sensor` up to `sequence` is stored."
    public struct Ack: Sendable, Hashable {
        public let sensor: String
        public let sequence: Int

        public init(sensor: String, sequence: Int) {
            self.sensor = sensor
            self.sequence = sequence
        }
    }

    /// Stores the readings of one frame (committed with the frames that arrived alongside it)
    /// and returns an ack per sensor with the highest sequence number of the frame, only after
    /// the commit.
    ///
    /// Viewers do not wait for the commit: a reading of a sensor this process has stored
    /// before, with a sequence number above every one it has seen of that sensor, is new for
    /// certain and goes to the viewers at once; the rest (a sensor's first readings, resends,
    /// readings out of order) go once the store has said which of them are new. Should the
    /// commit fail, the gateway is told nothing was stored and resends; a viewer may then see
    /// such a reading twice (the coach screen ignores a reading that is not newer than the
    /// last it showed). Measured: Benchmarks/live_benchmark.py, docs/BENCHMARKS.md "Live".
    public func ingest(_ readings: [GatewayReading], from gateway: GatewayRecord, now: Date = Date()) async throws -> [Ack] {
        try await commit(await stage(readings, from: gateway, now: now)).acks
    }

    /// A reading the store did not take, for the gateway's error frame.
    public struct Refusal: Sendable, Hashable {
        public let sensor: String
        public let sequence: Int
        public let detail: String

        public init(sensor: String, sequence: Int, detail: String) {
            self.sensor = sensor
            self.sequence = sequence
            self.detail = detail
        }
    }

    /// What committing a frame gave: acks, and the sensors refused (the account's limit).
    public struct Committed: Sendable {
        public var acks: [Ack]
        public var refused: [Refusal]

        public init(acks: [Ack], refused: [Refusal]) {
            self.acks = acks
            self.refused = refused
        }
    }

    /// The gateway was revoked: nothing of the frame was stored, and its connection ends.
    public struct GatewayRevoked: Error, CustomStringConvertible {
        public var description: String { "the gateway was revoked" }
    }

    /// A frame on its way in: its certainly-new readings already with the viewers, the rest
    /// waiting for `commit`.
    public struct Staged: Sendable {
        let gateway: GatewayRecord
        /// What is to be stored, numbered in each strap's series.
        let bySensor: [String: [SensorReading]]
        /// Each sensor of the frame and its highest `seq` as the gateway numbered it: what its
        /// ack says, whether its readings are stored or were another gateway's to give.
        let highest: [String: Int]
        let claimed: Set<Claim>
        let now: Date
        public var isEmpty: Bool { highest.isEmpty }

        /// Frames of one gateway committed together: each sensor's readings in frame order,
        /// every claim kept, the newest frame's time; nil for none.
        public static func merged(_ frames: [Staged]) -> Staged? {
            guard let first = frames.first, let last = frames.last, frames.count > 1 else { return frames.first }
            var bySensor = first.bySensor
            var highest = first.highest
            var claimed = first.claimed
            for frame in frames.dropFirst() {
                for (sensor, readings) in frame.bySensor { bySensor[sensor, default: []] += readings }
                for (sensor, sequence) in frame.highest { highest[sensor] = max(highest[sensor] ?? sequence, sequence) }
                claimed.formUnion(frame.claimed)
            }
            return Staged(gateway: first.gateway, bySensor: bySensor, highest: highest, claimed: claimed, now: last.now)
        }
    }

    /// A reading handed to viewers before its commit.
    struct Claim: Hashable, Sendable {
        let address: String
        let sequence: Int
    }

    /// The first half of `ingest`: hands the certainly-new readings to the viewers at once. A
    /// gateway connection stages each frame as it arrives and commits them in order behind it,
    /// so a slow commit delays acks, never what viewers see.
    public func stage(_ readings: [GatewayReading], from gateway: GatewayRecord, now: Date = Date()) async -> Staged {
        var sent = [String: [SensorReading]]()
        var highest = [String: Int]()
        for reading in readings {
            sent[reading.sensor, default: []].append(
                SensorReading(
                    sequence: reading.sequence, atMilliseconds: reading.atMilliseconds, measurement: reading.measurement,
                    battery: reading.battery, rssi: reading.rssi))
            highest[reading.sensor] = max(highest[reading.sensor] ?? reading.sequence, reading.sequence)
        }
        let bySensor = await fed(sent, from: gateway, now: now)
        // The store knows what it holds: it says which readings are new for certain.
        let early = store.sensors.claim(userID: gateway.userID, readings: bySensor)
        let events = early.flatMap { claimed in claimed.added.map { LiveEvent(sensor: claimed.sensor, reading: $0) } }
        if !events.isEmpty { await bus.publish(userID: gateway.userID, events) }
        let claimed = Set(early.flatMap { claimed in claimed.added.map { Claim(address: claimed.sensor.address, sequence: $0.sequence) } })
        return Staged(gateway: gateway, bySensor: bySensor, highest: highest, claimed: claimed, now: now)
    }

    /// The frame's readings that are this gateway's to give (`StrapFeeds`), numbered in each
    /// strap's series. The store's word on a strap is read the first time this process hears
    /// it; a new feeder is kept with its sensor before its readings are stored.
    func fed(_ sent: [String: [SensorReading]], from gateway: GatewayRecord, now: Date) async -> [String: [SensorReading]] {
        let milliseconds = Int(now.millisecondsSince1970)
        let userID = gateway.userID
        let unknown = feeds.state.withLock { feeds in sent.keys.filter { feeds.needsLearning(userID: userID, address: $0) } }
        if !unknown.isEmpty {
            // Unreadable now: decided as new straps, and learned again with the next frame.
            guard let stored = try? await store.sensors.feeds(userID: userID, addresses: unknown) else { return sent }
            feeds.state.withLock { feeds in
                for address in unknown { feeds.learn(userID: userID, address: address, stored[address], now: milliseconds) }
            }
        }
        var changed = [(address: String, feed: StrapFeeds.Feed)]()
        let fed = feeds.state.withLock { feeds -> [String: [SensorReading]] in
            if feeds.count > FeedKeeper.pruneAbove { feeds.prune(now: milliseconds) }
            var fed = [String: [SensorReading]]()
            for (address, readings) in sent {
                let decision = feeds.decide(userID: userID, address: address, gatewayID: gateway.id, readings: readings, now: milliseconds)
                if !decision.stored.isEmpty { fed[address] = decision.stored }
                if let feed = decision.newFeed { changed.append((address, feed)) }
            }
            return fed
        }
        for change in changed {
            // Kept so that a restart numbers the strap as before; should it fail, this process
            // still does, and the store's (sensor, seq) key keeps each reading once.
            try? await store.sensors.setFeed(userID: userID, address: change.address, change.feed)
        }
        return fed
    }

    /// The second half: stores the frame (group commit), then passes the viewers what was not
    /// certainly new, and returns the acks.
    public func commit(_ staged: Staged) async throws -> Committed {
        guard !staged.isEmpty else { return Committed(acks: [], refused: []) }
        let gateway = staged.gateway
        let result: SensorStoreResult
        do {
            if staged.bySensor.isEmpty {
                // Only readings another gateway gives: nothing to store, but a revoked gateway
                // is told so all the same.
                guard try await store.gateways.find(id: gateway.id, userID: gateway.userID) != nil else { throw GatewayRevoked() }
                result = SensorStoreResult(stored: [])
            } else {
                result = try await store.sensors.store(userID: gateway.userID, gatewayID: gateway.id, readings: staged.bySensor, now: staged.now)
            }
        } catch StoreError.revoked {
            throw GatewayRevoked()
        }
        let stored = result.stored
        // Each reading crosses the bus once: what went early is not published again.
        let late = stored.flatMap { result in
            result.added.filter { !staged.claimed.contains(Claim(address: result.sensor.address, sequence: $0.sequence)) }
                .map { LiveEvent(sensor: result.sensor, reading: $0) }
        }
        if !late.isEmpty { await bus.publish(userID: gateway.userID, late) }
        // Acks in the gateway's own numbers: every sensor of the frame not refused.
        let refusedSensors = Set(result.refused.map(\.address))
        return Committed(
            acks: staged.highest.filter { !refusedSensors.contains($0.key) }.sorted { $0.key < $1.key }.map { Ack(sensor: $0.key, sequence: $0.value) },
            refused: result.refused.map {
                Refusal(
                    sensor: $0.address, sequence: staged.highest[$0.address] ?? $0.highestSequence,
                    detail: "this account has \(SensorLimits.maximumPerUser) sensors, the most it may have: a new sensor is not taken")
            })
    }

    /// A page of the user's sensors (oldest first) and whether more follow.
    public func sensors(of user: UserRecord, limit: Int, offset: Int) async throws -> (sensors: [SensorRecord], more: Bool) {
        try await store.sensors.list(userID: user.id, limit: limit, offset: offset)
    }

    public func sensors(of user: UserRecord) async throws -> [SensorRecord] {
        try await store.sensors.list(userID: user.id)
    }

    public func sensor(_ id: String, of user: UserRecord) async throws -> SensorRecord {
        guard let sensor = try await store.sensors.find(id: id, userID: user.id) else { throw AppError.notFound("sensor") }
        return sensor
    }

    /// Names a sensor (an empty name clears it).
    public func rename(_ id: String, of user: UserRecord, to name: String) async throws -> SensorRecord {
        let name = try TextRules.line(name, field: "name", what: "a sensor's name", length: Self.sensorNameLength)
        guard try await store.sensors.rename(id: id, userID: user.id, to: name.isEmpty ? nil : name) else { throw AppError.notFound("sensor") }
        return try await sensor(id, of: user)
    }

    /// What one of the user's sensors heard in [from, to), at most 24 hours.
    public func readings(of id: String, for user: UserRecord, from: Date, to: Date) async throws -> (sensor: SensorRecord, readings: [SensorReading]) {
        let sensor = try await sensor(id, of: user)
        guard to > from else { throw AppError.invalid("'to' must be after 'from'", field: "to") }
        guard to.timeIntervalSince(from) <= Self.maximumWindow else {
            throw AppError.invalid("ask for at most 24 hours at a time", field: "to")
        }
        return (sensor, try await store.sensors.readings(sensorID: sensor.id, from: from, to: to))
    }

    /// The user's readings as they come, several at a time (`LiveHub.Subscription`).
    public func watch(_ user: UserRecord) async -> (id: UUID, events: LiveHub.Subscription) {
        await hub.subscribe(userID: user.id)
    }

    public func stopWatching(_ user: UserRecord, id: UUID) async {
        await hub.unsubscribe(userID: user.id, id: id)
    }
}

/// `StrapFeeds` for this process.
final class FeedKeeper: Sendable {
    let state = Mutex(StrapFeeds())
    /// Straps kept before the ones not heard for ten minutes are forgotten.
    static let pruneAbove = 20_000
}
