/// A confirmed change of zone.
public struct ZoneChange<Zone: Hashable & Sendable>: Hashable, Sendable {
    public let from: Zone
    public let to: Zone

    public init(from: Zone, to: Zone) {
        self.from = from
        self.to = to
    }
}

public enum ZoneChangeDirection: String, Sendable, Hashable, Codable {
    case up, down
}

extension ZoneChange where Zone: Comparable {
    public var direction: ZoneChangeDirection { to > from ? .up : .down }
}

/// Confirms a zone switch only after the raw zone has stayed in the new zone for
/// `confirmationSeconds` consecutive one-second readings (seed-000 §3.6: "at least 15
/// seconds"). The confirmed zone starts at `initial` (PRODUCT.md: none). The switch takes
/// effect on the 15th second itself.
public struct ZoneDebouncer<Zone: Hashable & Sendable>: Sendable {
    public static var defaultConfirmationSeconds: Int { 15 }

    public let confirmationSeconds: Int
    public private(set) var confirmedZone: Zone
    private var candidateZone: Zone
    private var candidateRunSeconds = 0

    public init(initial: Zone, confirmationSeconds: Int = defaultConfirmationSeconds) {
        precondition(confirmationSeconds >= 1, "a zone needs at least one second to be confirmed")
        self.confirmationSeconds = confirmationSeconds
        confirmedZone = initial
        candidateZone = initial
    }

    /// Feeds one second's raw zone; returns the change when this second confirms one.
    public mutating func observe(_ rawZone: Zone) -> ZoneChange<Zone>? {
        if rawZone == candidateZone {
            candidateRunSeconds += 1
        } else {
            candidateZone = rawZone
            candidateRunSeconds = 1
        }
        guard candidateZone != confirmedZone, candidateRunSeconds >= confirmationSeconds else { return nil }
        let change = ZoneChange(from: confirmedZone, to: candidateZone)
        confirmedZone = candidateZone
        return change
    }

    /// The confirmed zone of every second of a whole series, computed run by run.
    /// Written independently of `observe` so tests can hold the two against each other.
    public static func confirmedZones(
        rawZones: [Zone],
        initial: Zone,
        confirmationSeconds: Int = defaultConfirmationSeconds
    ) -> [Zone] {
        var confirmed = [Zone]()
        confirmed.reserveCapacity(rawZones.count)
        var current = initial
        var runStart = rawZones.startIndex
        while runStart < rawZones.endIndex {
            let zone = rawZones[runStart]
            var runEnd = runStart
            while runEnd < rawZones.endIndex && rawZones[runEnd] == zone { runEnd += 1 }
            let switchIndex = runStart + confirmationSeconds - 1
            for index in runStart..<runEnd {
                if zone != current && index == switchIndex { current = zone }
                confirmed.append(current)
            }
            runStart = runEnd
        }
        return confirmed
    }
}
