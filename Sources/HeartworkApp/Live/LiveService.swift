import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// What gateways send: stored (each sensor and sequence once), acknowledged once committed,
/// and passed to the owner's viewers. The sensors a user's gateways have heard, and what
/// they heard.
public struct LiveService: Sendable {
    let store: HeartworkStore
    public let hub: LiveHub
    let bus: LiveBus
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
        let bySensor: [String: [SensorReading]]
        let claimed: Set<Claim>
        let now: Date
        public var isEmpty: Bool { bySensor.isEmpty }

        /// Frames of one gateway committed together: each sensor's readings in frame order,
        /// every claim kept, the newest frame's time; nil for none.
        public static func merged(_ frames: [Staged]) -> Staged? {
            guard let first = frames.first, let last = frames.last, frames.count > 1 else { return frames.first }
            var bySensor = first.bySensor
            var claimed = first.claimed
            for frame in frames.dropFirst() {
                for (sensor, readings) in frame.bySensor { bySensor[sensor, default: []] += readings }
                claimed.formUnion(frame.claimed)
            }
            return Staged(gateway: first.gateway, bySensor: bySensor, claimed: claimed, now: last.now)
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
        var bySensor = [String: [SensorReading]]()
        for reading in readings {
            bySensor[reading.sensor, default: []].append(
                SensorReading(
                    sequence: reading.sequence, atMilliseconds: reading.atMilliseconds, measurement: reading.measurement,
                    battery: reading.battery, rssi: reading.rssi))
        }
        // The store knows what it holds: it says which readings are new for certain.
        let early = store.sensors.claim(userID: gateway.userID, readings: bySensor)
        let events = early.flatMap { claimed in claimed.added.map { LiveEvent(sensor: claimed.sensor, reading: $0) } }
        if !events.isEmpty { await bus.publish(userID: gateway.userID, events) }
        let claimed = Set(early.flatMap { claimed in claimed.added.map { Claim(address: claimed.sensor.address, sequence: $0.sequence) } })
        return Staged(gateway: gateway, bySensor: bySensor, claimed: claimed, now: now)
    }

    /// The second half: stores the frame (group commit), then passes the viewers what was not
    /// certainly new, and returns the acks.
    public func commit(_ staged: Staged) async throws -> Committed {
        guard !staged.isEmpty else { return Committed(acks: [], refused: []) }
        let gateway = staged.gateway
        let result: SensorStoreResult
        do {
            result = try await store.sensors.store(userID: gateway.userID, gatewayID: gateway.id, readings: staged.bySensor, now: staged.now)
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
        return Committed(
            acks: stored.map { Ack(sensor: $0.sensor.address, sequence: $0.highestSequence) },
            refused: result.refused.map {
                Refusal(
                    sensor: $0.address, sequence: $0.highestSequence,
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
