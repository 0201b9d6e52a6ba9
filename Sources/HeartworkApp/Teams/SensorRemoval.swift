import Foundation
import HeartworkCore
import HeartworkStore

/// What to do with a deleted sensor's readings (FitLabTeam F2; issue 25): the coach is asked.
public enum SensorReadingsChoice: String, Sendable, CaseIterable {
    /// The readings stay (sessions that used the sensor still show them); the sensor leaves
    /// the lists until a gateway hears it again.
    case keep
    /// The sensor and every reading it sent are deleted.
    case delete
}

extension TeamService {
    /// Deletes one of the coach's sensors, keeping or deleting its readings as chosen; players
    /// who wore it by default no longer do. Another user's sensor is "not found".
    public func deleteSensor(_ id: String, of user: UserRecord, readings: SensorReadingsChoice, now: Date = Date()) async throws {
        guard try await store.sensors.remove(id: id, userID: user.id, deletingReadings: readings == .delete, now: now) else {
            throw AppError.notFound("sensor")
        }
    }
}
