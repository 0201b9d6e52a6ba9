import Foundation
import HeartworkCore
import HeartworkStore
import Testing

@testable import HeartworkApp

/// Which readings may reach viewers before their commit (issue 9): only readings of a sensor
/// already stored, above every sequence number seen of it, each once.
@Suite("Live cursor")
struct LiveCursorTests {
    func reading(_ sequence: Int) -> SensorReading {
        SensorReading(sequence: sequence, atMilliseconds: 1_795_400_000_000 + sequence * 1000, beatsPerMinute: 100, contact: .detected)
    }

    @Test func onlyCertainlyNewReadingsGoEarlyAndEachOnce() {
        let cursor = LiveCursor()
        let sensor = SensorRecord(id: "s1", userID: "u", address: "A", createdAt: Date())
        // Never stored: nothing goes early.
        #expect(cursor.claim(userID: "u", ["A": [reading(1), reading(2)]]).events.isEmpty)
        cursor.record(userID: "u", [StoredSensorReadings(sensor: sensor, added: [reading(1), reading(2)], highestSequence: 2)])
        let first = cursor.claim(userID: "u", ["A": [reading(4), reading(3), reading(2)]])
        #expect(first.events.map(\.reading.sequence) == [3, 4] && first.events.allSatisfy { $0.sensor.id == "s1" })
        #expect(first.claimed == [.init(address: "A", sequence: 3), .init(address: "A", sequence: 4)])
        // The same readings again (a resend, a second gateway): not early again.
        #expect(cursor.claim(userID: "u", ["A": [reading(3), reading(4)]]).events.isEmpty)
        // Another user's sensor of the same address is another sensor.
        #expect(cursor.claim(userID: "v", ["A": [reading(9)]]).events.isEmpty)
        // A gap filled later (out of order) waits for the store.
        #expect(cursor.claim(userID: "u", ["A": [reading(10)]]).events.count == 1)
        #expect(cursor.claim(userID: "u", ["A": [reading(7)]]).events.isEmpty)
    }
}
