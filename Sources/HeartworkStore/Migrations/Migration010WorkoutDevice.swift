extension Migration {
    /// The recording device of a workout (issue 13): with the start time, what recognises the
    /// same activity uploaded twice. Existing workouts have none (unknown).
    static let workoutDevice = Migration(version: 10, name: "workout device") { _ in
        ["ALTER TABLE workouts ADD COLUMN device TEXT"]
    }
}
