import Foundation
import HeartworkCore

/// Every kind of body measurement, one history per user and kind.
public protocol MeasurementRepository: Sendable {
    func add(userID: String, _ measurement: MeasurementRecord) async throws
    /// Oldest first.
    func list(userID: String, kind: MeasurementKind) async throws -> [MeasurementRecord]
    /// The latest value measured at or before `date` (any time when nil).
    func latest(userID: String, kind: MeasurementKind, atOrBefore date: Date?) async throws -> MeasurementRecord?
    /// Deletes when `userID` owns it and it is of `kind`; returns whether anything was deleted.
    func delete(id: String, userID: String, kind: MeasurementKind) async throws -> Bool
}
