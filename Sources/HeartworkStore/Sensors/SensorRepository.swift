import Foundation
import HeartworkCore

/// Sensors and their raw readings.
public protocol SensorRepository: Sendable {
    /// Stores readings of a user's sensors (by address) in one transaction: a sensor heard for
    /// the first time is created; each (sensor, sequence) is stored once, whatever the order.
    /// When it returns, everything is committed.
    func store(userID: String, gatewayID: String, readings: [String: [SensorReading]], now: Date) async throws -> [StoredSensorReadings]
    func list(userID: String) async throws -> [SensorRecord]
    func find(id: String, userID: String) async throws -> SensorRecord?
    func rename(id: String, userID: String, to name: String?) async throws -> Bool
    /// Readings heard in [from, to), in time order.
    func readings(sensorID: String, from: Date, to: Date) async throws -> [SensorReading]
}
