import Foundation
import HeartworkCore

/// Every kind of body measurement, one history per user and kind.
public protocol MeasurementRepository: Sendable {
    func add(userID: String, _ measurement: MeasurementRecord) async throws
    /// Adds a value the user typed and, in the same transaction, deletes the imported values
    /// (`source` set) of its kind measured in `day` (the typed value's local day): a typed value
    /// wins over an imported one of the same day. Returns how many were deleted.
    func addTyped(userID: String, _ measurement: MeasurementRecord, replacingImportedIn day: Range<Date>) async throws -> Int
    /// Oldest first.
    func list(userID: String, kind: MeasurementKind) async throws -> [MeasurementRecord]
    /// The latest value measured at or before `date` (any time when nil).
    func latest(userID: String, kind: MeasurementKind, atOrBefore date: Date?) async throws -> MeasurementRecord?
    /// Deletes when `userID` owns it and it is of `kind`; returns whether anything was deleted.
    func delete(id: String, userID: String, kind: MeasurementKind) async throws -> Bool
}
