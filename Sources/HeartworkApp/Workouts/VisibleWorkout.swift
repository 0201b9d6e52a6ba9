import HeartworkStore

/// A workout together with how the viewer may see it.
public struct VisibleWorkout: Sendable {
    public let record: WorkoutRecord
    /// False when a friend is looking at a shared workout.
    public let viewerIsOwner: Bool

    public init(record: WorkoutRecord, viewerIsOwner: Bool) {
        self.record = record
        self.viewerIsOwner = viewerIsOwner
    }
}
