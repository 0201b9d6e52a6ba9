import Foundation
import HeartworkCore
import HeartworkStore
import Synchronization

/// How far this process has seen each sensor: its row (for the feed message) and the highest
/// sequence number stored or already handed to viewers. A reading above it is new for certain
/// and may go to viewers before its commit (see `LiveService.ingest`).
final class LiveCursor: Sendable {
    struct Claim: Hashable, Sendable {
        let address: String
        let sequence: Int
    }

    private struct Entry {
        var sensor: SensorRecord
        var highest: Int
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// Forgets everything past this many sensors (they are simply published after their commit).
    static let capacity = 200_000

    private static func key(_ userID: String, _ address: String) -> String { userID + "\u{0}" + address }

    /// The readings that are new for certain, now marked seen, as events for viewers.
    func claim(userID: String, _ bySensor: [String: [SensorReading]]) -> (events: [LiveEvent], claimed: Set<Claim>) {
        entries.withLock { entries in
            var events = [LiveEvent]()
            var claimed = Set<Claim>()
            for (address, readings) in bySensor {
                let key = Self.key(userID, address)
                guard var entry = entries[key] else { continue }
                for reading in readings.sorted(by: { $0.sequence < $1.sequence }) where reading.sequence > entry.highest {
                    entry.highest = reading.sequence
                    events.append(LiveEvent(sensor: entry.sensor, reading: reading))
                    claimed.insert(Claim(address: address, sequence: reading.sequence))
                }
                entries[key] = entry
            }
            return (events, claimed)
        }
    }

    /// What the store said: each sensor's row, and the highest sequence it now holds.
    func record(userID: String, _ stored: [StoredSensorReadings]) {
        entries.withLock { entries in
            if entries.count > Self.capacity { entries.removeAll(keepingCapacity: true) }
            for result in stored {
                let key = Self.key(userID, result.sensor.address)
                let highest = max(entries[key]?.highest ?? Int.min, result.added.last?.sequence ?? Int.min, result.highestSequence)
                entries[key] = Entry(sensor: result.sensor, highest: highest)
            }
        }
    }
}
