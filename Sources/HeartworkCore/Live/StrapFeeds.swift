/// Which gateway a strap's series comes from when more than one hears it (issue 41).
///
/// Two gateways by one pitch (a phone on `/gateway` and a Raspberry Pi, two tablets) hear the
/// same strap and send the same notifications, each numbered by its own `seq`. Stored side by
/// side they would interleave: two readings of every beat, sequence numbers of one gateway
/// landing on the other's, and HRV read from doubled RR intervals. So one gateway at a time
/// **feeds** a strap:
///
/// - The first gateway that sends it feeds it. Its readings are stored under their own `seq`
///   (offset 0): with one gateway nothing changes.
/// - While the feeder has been heard in the last `Rules.leaseMilliseconds` (server time), the
///   readings another gateway sends of the same strap are acknowledged and not stored: they
///   are the same notifications. They are held for a few seconds in case it falls silent.
/// - When the feeder has been silent that long, the next gateway to send takes over. Its
///   held readings and the frame's join the series where the old feeder stopped: a reading at
///   or before the old feeder's last one (plus `Rules.sameReadingMilliseconds`, on the server's
///   clock) is the same reading and is dropped; the rest are numbered to continue above every
///   sequence number the strap holds (`Feed.offset`, `Feed.base`), so they never land on the
///   old feeder's.
///
/// Times are compared on the server's clock: each gateway's offset is the least difference
/// between the server's time and the reading's (`at`) it has seen, so a gateway whose clock is
/// seconds off still joins at the right beat. Pure: the caller keeps it and says the time.
public struct StrapFeeds: Sendable {
    public struct Rules: Sendable, Hashable {
        /// How long a feeder may be silent before another gateway takes over.
        public var leaseMilliseconds: Int
        /// Readings of two gateways this close (on the server's clock) are the same reading.
        public var sameReadingMilliseconds: Int
        /// How long another gateway's readings are held for a takeover.
        public var holdMilliseconds: Int
        /// At most this many held readings per gateway and strap.
        public var holdCapacity: Int
        /// A strap not heard this long is forgotten (learned again from the store).
        public var forgetMilliseconds: Int

        public init(
            leaseMilliseconds: Int = 3_000, sameReadingMilliseconds: Int = 500, holdMilliseconds: Int = 8_000, holdCapacity: Int = 64,
            forgetMilliseconds: Int = 600_000
        ) {
            self.leaseMilliseconds = leaseMilliseconds
            self.sameReadingMilliseconds = sameReadingMilliseconds
            self.holdMilliseconds = holdMilliseconds
            self.holdCapacity = holdCapacity
            self.forgetMilliseconds = forgetMilliseconds
        }
    }

    /// A strap's feeder as kept with the sensor: its readings are stored under `seq + offset`
    /// and at `at + shift` (on the first feeder's clock, so that the series stays in time order
    /// when the new feeder's clock is off); those that would land below `base` (sent before it
    /// took over) are not stored.
    public struct Feed: Sendable, Hashable {
        public var gatewayID: String
        public var offset: Int
        public var base: Int
        public var shift: Int

        public init(gatewayID: String, offset: Int = 0, base: Int = Int.min, shift: Int = 0) {
            self.gatewayID = gatewayID
            self.offset = offset
            self.base = base
            self.shift = shift
        }
    }

    /// What the store says of a strap it holds: its feeder (nil: none recorded, stored before
    /// issue 41) and a sequence number above every one it holds.
    public struct Stored: Sendable, Hashable {
        public var feed: Feed?
        public var sequenceFloor: Int

        public init(feed: Feed?, sequenceFloor: Int) {
            self.feed = feed
            self.sequenceFloor = sequenceFloor
        }
    }

    /// One frame's readings of one strap, decided.
    public struct Decision: Sendable, Hashable {
        /// To store, numbered in the strap's series.
        public var stored: [SensorReading]
        /// Acknowledged and not stored: another gateway feeds the strap, or the reading was
        /// already heard through the old feeder.
        public var notStored: Int
        /// A new feeder, to keep with the sensor.
        public var newFeed: Feed?
    }

    private struct Key: Hashable, Sendable {
        let userID: String
        let address: String
    }

    private struct Strap: Sendable {
        var feed: Feed?
        var lastHeard: Int
        var highestStored: Int
        var lastAtOnServer: Int?
        var floor: Int
        /// The store holds it (a new strap's feeder is recorded when its sensor is created).
        var inStore = false
        var held: [String: [SensorReading]] = [:]
    }

    public let rules: Rules
    private var straps = [Key: Strap]()
    private var clocks = [String: Int]()

    public init(rules: Rules = Rules()) {
        self.rules = rules
    }

    /// Whether the store's word on this strap is needed first (`learn`).
    public func needsLearning(userID: String, address: String) -> Bool {
        straps[Key(userID: userID, address: address)] == nil
    }

    /// What the store holds of a strap (nil: it has never been stored). A strap known already
    /// keeps what this process knows.
    public mutating func learn(userID: String, address: String, _ stored: Stored?, now: Int) {
        let key = Key(userID: userID, address: address)
        guard straps[key] == nil else { return }
        straps[key] = Strap(
            feed: stored?.feed, lastHeard: Int.min / 2, highestStored: Int.min, lastAtOnServer: nil, floor: stored?.sequenceFloor ?? 0, inStore: stored != nil)
    }

    /// Decides one frame's readings of one strap, from `gatewayID`, at `now` (server time, Unix
    /// milliseconds). A strap never learned is taken as new: this gateway feeds it.
    public mutating func decide(userID: String, address: String, gatewayID: String, readings: [SensorReading], now: Int) -> Decision {
        var clock = clocks[gatewayID] ?? Int.max
        for reading in readings {
            let (difference, overflow) = now.subtractingReportingOverflow(reading.atMilliseconds)
            if !overflow { clock = min(clock, difference) }
        }
        if clock != Int.max { clocks[gatewayID] = clock }
        let key = Key(userID: userID, address: address)
        var strap = straps[key] ?? Strap(feed: nil, lastHeard: Int.min / 2, highestStored: Int.min, lastAtOnServer: nil, floor: 0)
        defer { straps[key] = strap }
        var decision = Decision(stored: [], notStored: 0, newFeed: nil)
        if strap.feed == nil {
            // First heard (or stored before feeds were kept): this gateway feeds it, as it numbers it.
            strap.feed = Feed(gatewayID: gatewayID)
            if strap.inStore { decision.newFeed = strap.feed }
        }
        guard let feed = strap.feed else { return decision }
        if feed.gatewayID == gatewayID {
            decision.stored = numbered(readings, feed, &decision.notStored)
            strap.lastHeard = max(strap.lastHeard, now)
            strap.held[gatewayID] = nil
        } else if Self.saturating(now, minus: strap.lastHeard) >= rules.leaseMilliseconds {
            // The feeder fell silent: this gateway takes over where it stopped.
            var bySequence = [Int: SensorReading]()
            for reading in (strap.held[gatewayID] ?? []) + readings { bySequence[reading.sequence] = reading }
            let candidates = bySequence.values.sorted { $0.sequence < $1.sequence }
            let after = strap.lastAtOnServer.map { Self.saturating($0, minus: -rules.sameReadingMilliseconds) }
            let fresh = candidates.filter { reading in after.map { onServer(reading, gatewayID) > $0 } ?? true }
            let freshSequences = Set(fresh.map(\.sequence))
            decision.notStored = readings.filter { !freshSequences.contains($0.sequence) }.count
            let start = max(strap.highestStored == Int.min ? Int.min : Self.saturating(strap.highestStored, minus: -1), strap.floor)
            let first = fresh.first?.sequence ?? readings.map(\.sequence).min() ?? 0
            let (offset, overflow) = start.subtractingReportingOverflow(first)
            // On the old feeder's timeline: the same moment on the server's clock.
            var shift = feed.shift
            if let new = clocks[gatewayID], let old = clocks[feed.gatewayID] {
                let (difference, overflowed) = new.subtractingReportingOverflow(old)
                if !overflowed, difference > -86_400_000, difference < 86_400_000 { shift = feed.shift &+ difference }
            }
            let next = Feed(gatewayID: gatewayID, offset: overflow ? 0 : offset, base: start, shift: shift)
            strap.feed = next
            decision.newFeed = next
            var ignored = 0
            decision.stored = numbered(fresh, next, &ignored)
            strap.lastHeard = now
            strap.held = [:]
        } else {
            // Another gateway feeds it: the same notifications. Held a while for a takeover.
            decision.notStored = readings.count
            var held = (strap.held[gatewayID] ?? []) + readings
            let oldest = Self.saturating(now, minus: rules.holdMilliseconds)
            held.removeAll { onServer($0, gatewayID) < oldest }
            if held.count > rules.holdCapacity { held.removeFirst(held.count - rules.holdCapacity) }
            strap.held[gatewayID] = held
        }
        for reading in decision.stored {
            strap.highestStored = max(strap.highestStored, reading.sequence)
            let at = onServer(reading, gatewayID)
            strap.lastAtOnServer = max(strap.lastAtOnServer ?? at, at)
        }
        return decision
    }

    /// Forgets the straps not heard for `Rules.forgetMilliseconds` (call now and then).
    public mutating func prune(now: Int) {
        straps = straps.filter { Self.saturating(now, minus: $0.value.lastHeard) < rules.forgetMilliseconds }
    }

    /// The straps this process keeps a word on.
    public var count: Int { straps.count }

    /// `a - b`, held at Int's ends rather than trapping (times and numbers come from outside).
    static func saturating(_ a: Int, minus b: Int) -> Int {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        guard overflow else { return difference }
        return b < 0 ? Int.max : Int.min
    }

    private func onServer(_ reading: SensorReading, _ gatewayID: String) -> Int {
        let (at, overflow) = reading.atMilliseconds.addingReportingOverflow(clocks[gatewayID] ?? 0)
        return overflow ? reading.atMilliseconds : at
    }

    /// The feeder's readings in the strap's series; those below its base (sent before it took
    /// over) or past the numbers are counted and left out.
    private func numbered(_ readings: [SensorReading], _ feed: Feed, _ left: inout Int) -> [SensorReading] {
        guard feed.offset != 0 || feed.base != Int.min || feed.shift != 0 else { return readings }
        var result = [SensorReading]()
        result.reserveCapacity(readings.count)
        for var reading in readings {
            let (sequence, overflow) = reading.sequence.addingReportingOverflow(feed.offset)
            let (at, late) = reading.atMilliseconds.addingReportingOverflow(feed.shift)
            guard !overflow, !late, sequence >= feed.base, sequence >= 0 else {
                left += 1
                continue
            }
            reading.sequence = sequence
            reading.atMilliseconds = at
            result.append(reading)
        }
        return result
    }
}
