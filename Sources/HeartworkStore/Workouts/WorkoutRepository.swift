import Foundation
import HeartworkCore

/// Workouts with their streams.
public protocol WorkoutRepository: Sendable {
    /// Stores the workout and its streams in one transaction; when it is shared and the
    /// owner's cap (read in the same transaction) is exceeded, the oldest shared workouts
    /// are unshared, never deleted. The same activity already stored (a start within a second,
    /// the same device or either unknown) fails with `StoreError.duplicate(existingID)`.
    func insert(_ workout: WorkoutRecord, streams: WorkoutStreams) async throws
    /// Replaces what workout `id` of `workout.userID` holds — what was recorded and derived,
    /// its streams, notes and device; its title when the new one has one — by `workout`, in
    /// one transaction, when the stored one is shorter than `workout` (a cut copy). Its id,
    /// sharing and creation time stay. Returns whether it was replaced.
    func replaceShorter(id: String, with workout: WorkoutRecord, streams: WorkoutStreams) async throws -> Bool
    func list(userID: String, from: Date?, to: Date?, sharedOnly: Bool, page: Page) async throws -> [WorkoutRecord]
    func find(id: String) async throws -> WorkoutRecord?
    func streams(workoutID: String) async throws -> WorkoutStreams?
    /// Deletes when `userID` owns it; returns whether anything was deleted.
    func delete(id: String, userID: String) async throws -> Bool
    /// Shares or unshares when `userID` owns it; returns the updated workout. Sharing beyond
    /// the owner's cap unshares their oldest shared workouts, but sharing one that would itself
    /// be the oldest over the cap fails with `StoreError.limitReached(cap)`.
    func setShared(id: String, userID: String, shared: Bool, at: Date) async throws -> WorkoutRecord?
    func count(userID: String) async throws -> Int
    /// The newest workouts the user's friends share, newest first.
    func sharedByFriends(of userID: String, limit: Int) async throws -> [WorkoutRecord]
    /// Workouts whose profile snapshot lacks something the profile can now give (one of
    /// `fillable`: age, resting or maximum heart rate, weight or sex), oldest first; none when
    /// `fillable` is empty.
    func withIncompleteSnapshot(userID: String, fillable: SnapshotFields, limit: Int) async throws -> [WorkoutRecord]
    /// Replaces what was derived (snapshot and metrics) of a workout `userID` owns.
    func updateDerived(id: String, userID: String, profile: ProfileSnapshot, metrics: WorkoutMetrics) async throws
    /// Drops whatever is kept in memory of the user's workouts (their account was deleted).
    func forget(userID: String)
}

extension WorkoutRepository {
    public func forget(userID: String) {}
}

/// The parts of a workout's profile snapshot, as a set.
public struct SnapshotFields: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let age = SnapshotFields(rawValue: 1)
    public static let restingHeartRate = SnapshotFields(rawValue: 2)
    public static let maximumHeartRate = SnapshotFields(rawValue: 4)
    public static let weight = SnapshotFields(rawValue: 8)
    public static let sex = SnapshotFields(rawValue: 16)
    public static let all: SnapshotFields = [.age, .restingHeartRate, .maximumHeartRate, .weight, .sex]
}
