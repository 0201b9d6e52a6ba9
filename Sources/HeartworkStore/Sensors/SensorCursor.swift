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

    private let entries = Mutex<[SensorKey: Entry]>([:])
    /// Forgets everything past this many sensors (they are simply published after their commit).
    static let capacity = 200_000

    /// The readings that are new for certain, now marked seen, by sensor.
    func claim(userID: String, _ bySensor: [String: [SensorReading]]) -> [StoredSensorReadings] {
        entries.withLock { entries in
            var claimed = [StoredSensorReadings]()
            for (address, readings) in bySensor {
                // In place: no copy of the entry (its row's strings) for each frame.
                guard let index = entries.index(forKey: SensorKey(userID: userID, address: address)) else { continue }
                var highest = entries.values[index].highest
                var new = [SensorReading]()
                let ordered = readings.count == 1 ? readings : readings.sorted(by: { $0.sequence < $1.sequence })
                for reading in ordered where reading.sequence > highest {
                    highest = reading.sequence
                    new.append(reading)
                }
                guard !new.isEmpty else { continue }
                entries.values[index].highest = highest
                claimed.append(StoredSensorReadings(sensor: entries.values[index].sensor, added: new, highestSequence: highest))
            }
            return claimed
        }
    }

    /// What a commit stored: each sensor's row, and the highest sequence it now holds.
    func record(userID: String, _ stored: [StoredSensorReadings]) {
        entries.withLock { entries in
            if entries.count > Self.capacity { entries.removeAll(keepingCapacity: true) }
            for result in stored {
                let key = SensorKey(userID: userID, address: result.sensor.address)
                if let index = entries.index(forKey: key) {
                    let highest = max(entries.values[index].highest, result.added.last?.sequence ?? Int.min, result.highestSequence)
                    entries.values[index] = Entry(sensor: result.sensor, highest: highest)
                } else {
                    entries[key] = Entry(sensor: result.sensor, highest: max(result.added.last?.sequence ?? Int.min, result.highestSequence))
                }
            }
        }
    }

    /// The highest sequence number stored or claimed of a sensor, if this process knows it.
    func highest(userID: String, address: String) -> Int? {
        entries.withLock { $0[SensorKey(userID: userID, address: address)]?.highest }
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

/// A sensor as its owner's gateways name it: the account and the address. (A struct rather than
/// the two joined in one string: the joined key was a heap allocation per reading.)
struct SensorKey: Hashable, Sendable {
    let userID: String
    let address: String
}
