import Foundation
import HeartworkCore
import Testing

@testable import HeartworkStore

/// Which readings may reach viewers before their commit (issue 9): only readings of a sensor
/// already stored, above every sequence number seen of it, each once.
@Suite("Sensor cursor")
struct SensorCursorTests {
    func reading(_ sequence: Int) -> SensorReading {
        SensorReading(sequence: sequence, atMilliseconds: 1_795_400_000_000 + sequence * 1000, beatsPerMinute: 100, contact: .detected)
    }

    @Test func onlyCertainlyNewReadingsGoEarlyAndEachOnce() {
        let cursor = SensorCursor()
        let sensor = SensorRecord(id: "s1", userID: "u", address: "A", createdAt: Date())
        // Never stored: nothing goes early.
        #expect(cursor.claim(userID: "u", ["A": [reading(1), reading(2)]]).isEmpty)
        cursor.record(userID: "u", [StoredSensorReadings(sensor: sensor, added: [reading(1), reading(2)], highestSequence: 2)])
        let first = cursor.claim(userID: "u", ["A": [reading(4), reading(3), reading(2)]])
        #expect(first.count == 1 && first[0].sensor.id == "s1" && first[0].added.map(\.sequence) == [3, 4])
        // The same readings again (a resend, a second gateway): not early again.
        #expect(cursor.claim(userID: "u", ["A": [reading(3), reading(4)]]).isEmpty)
        // Another user's sensor of the same address is another sensor.
        #expect(cursor.claim(userID: "v", ["A": [reading(9)]]).isEmpty)
        // A gap filled later (out of order) waits for the store.
        #expect(cursor.claim(userID: "u", ["A": [reading(10)]]).first?.added.count == 1)
        #expect(cursor.claim(userID: "u", ["A": [reading(7)]]).isEmpty)
        // A renamed sensor goes early under its new name.
        cursor.rename(id: "s1", to: "Sam")
        #expect(cursor.claim(userID: "u", ["A": [reading(11)]]).first?.sensor.name == "Sam")
    }
}
