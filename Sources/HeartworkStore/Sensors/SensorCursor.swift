import Foundation
import HeartworkCore
import Synchronization

/// How far this process has seen each sensor: its row (for viewers) and the highest sequence
/// number stored or already claimed. A reading above it is new for certain, so the live path
/// may hand it to viewers before its commit (`SensorRepository.claim`); the store records what
/// each commit stored. With the database (the truth) and the SQLite repository's newest
/// blocks, this is the store's answer to "is this reading new?": nothing outside it keeps one.
final class SensorCursor: Sendable {
    private struct Entry {
        var sensor: SensorRecord
        var highest: Int
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// Forgets everything past this many sensors (they are simply published after their commit).
    static let capacity = 200_000

    private static func key(_ userID: String, _ address: String) -> String { userID + "\u{0}" + address }

    /// The readings that are new for certain, now marked seen, by sensor.
    func claim(userID: String, _ bySensor: [String: [SensorReading]]) -> [StoredSensorReadings] {
        entries.withLock { entries in
            var claimed = [StoredSensorReadings]()
            for (address, readings) in bySensor {
                let key = Self.key(userID, address)
                guard var entry = entries[key] else { continue }
                var new = [SensorReading]()
                for reading in readings.sorted(by: { $0.sequence < $1.sequence }) where reading.sequence > entry.highest {
                    entry.highest = reading.sequence
                    new.append(reading)
                }
                entries[key] = entry
                if !new.isEmpty { claimed.append(StoredSensorReadings(sensor: entry.sensor, added: new, highestSequence: entry.highest)) }
            }
            return claimed
        }
    }

    /// What a commit stored: each sensor's row, and the highest sequence it now holds.
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

    /// A deleted account's sensors.
    func forget(userID: String) {
        entries.withLock { entries in entries = entries.filter { $0.value.sensor.userID != userID } }
    }

    /// A deleted sensor (heard again, it is a new one).
    func forget(sensorID: String) {
        entries.withLock { entries in entries = entries.filter { $0.value.sensor.id != sensorID } }
    }

    /// A renamed sensor's row carries the new name to viewers.
    func rename(id: String, to name: String?) {
        entries.withLock { entries in
            for (key, entry) in entries where entry.sensor.id == id { entries[key]?.sensor.name = name }
        }
    }
}
