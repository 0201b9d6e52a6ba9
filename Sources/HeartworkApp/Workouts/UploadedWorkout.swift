import Foundation
import HeartworkCore
import HeartworkStore

/// What an upload did: the workout stored, and — when the file was a longer copy of an
/// activity stored before (a cut file uploaded first) — how long the copy it replaced was.
public struct UploadedWorkout: Sendable {
    public struct Replaced: Sendable, Hashable {
        /// The replaced copy's length; the workout keeps its id, sharing and creation time.
        public let durationSeconds: Int

        public init(durationSeconds: Int) { self.durationSeconds = durationSeconds }
    }

    public let workout: WorkoutRecord
    public let replaced: Replaced?

    public init(workout: WorkoutRecord, replaced: Replaced? = nil) {
        self.workout = workout
        self.replaced = replaced
    }
}
