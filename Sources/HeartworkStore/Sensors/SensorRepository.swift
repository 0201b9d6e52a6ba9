import Foundation
import HeartworkCore

/// Sensors and their raw readings.
public protocol SensorRepository: Sendable {
    /// Stores readings of a user's sensors (by address) in one transaction: a sensor heard for
    /// the first time is created (up to `SensorLimits.maximumPerUser`; past it, refused); each
    /// (sensor, sequence) is stored once, whatever the order. When it returns, everything is
    /// committed. Throws `StoreError.revoked` when the gateway no longer exists: nothing of a
    /// revoked gateway is stored (on PostgreSQL its row is held while the frame is stored, so
    /// a revocation waits for a store in progress and every later one sees it gone).
    func store(userID: String, gatewayID: String, readings: [String: [SensorReading]], now: Date) async throws -> SensorStoreResult
    func list(userID: String) async throws -> [SensorRecord]
    /// A page of the user's sensors, oldest first, and whether more follow.
    func list(userID: String, limit: Int, offset: Int) async throws -> (sensors: [SensorRecord], more: Bool)
    func find(id: String, userID: String) async throws -> SensorRecord?
    func rename(id: String, userID: String, to name: String?) async throws -> Bool
    /// Readings heard in [from, to), in time order.
    func readings(sensorID: String, from: Date, to: Date) async throws -> [SensorReading]
}
