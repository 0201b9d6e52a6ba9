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
    /// The readings certainly not stored yet, by sensor, each claimed once: of a sensor this
    /// process has stored before, above every sequence number it stored or claimed of it (so
    /// the live path may hand them to viewers before their commit). A sensor never stored, a
    /// resend and a reading out of order are not claimed: they wait for `store`'s answer.
    func claim(userID: String, readings: [String: [SensorReading]]) -> [StoredSensorReadings]
    /// Writes every reading that is only in the live feed's log into its block (SQLite: at
    /// shutdown and before an account's archive; nothing to do on PostgreSQL).
    func flush() async throws
    /// After an account's deletion: its readings waiting in the log are dropped and nothing of
    /// its sensors stays in memory.
    func forget(userID: String) async throws
    /// Takes a sensor off the user's lists (FitLabTeam F2; issue 25); false when it is not
    /// theirs. Players who wore it by default no longer do. `deletingReadings`: the sensor and
    /// every reading it sent go (its blocks, what the live log and memory hold of it; heard again,
    /// it comes back as a new sensor). Otherwise its readings stay (the sessions that used it
    /// still show them) and it is marked removed: it leaves the lists and `find` until a gateway
    /// hears it again (a reading after the removal brings it back, with its history).
    func remove(id: String, userID: String, deletingReadings: Bool, now: Date) async throws -> Bool
    func list(userID: String) async throws -> [SensorRecord]
    /// A page of the user's sensors, oldest first, and whether more follow.
    func list(userID: String, limit: Int, offset: Int) async throws -> (sensors: [SensorRecord], more: Bool)
    func find(id: String, userID: String) async throws -> SensorRecord?
    func rename(id: String, userID: String, to name: String?) async throws -> Bool
    /// Which gateway feeds each of these sensors, and a sequence number above every one they
    /// hold (`StrapFeeds`); sensors never stored are left out.
    func feeds(userID: String, addresses: [String]) async throws -> [String: StrapFeeds.Stored]
    /// Keeps a sensor's new feeder (`StrapFeeds`).
    func setFeed(userID: String, address: String, _ feed: StrapFeeds.Feed) async throws
    /// Readings heard in [from, to), in time order.
    func readings(sensorID: String, from: Date, to: Date) async throws -> [SensorReading]
}
