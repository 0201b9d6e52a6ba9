extension Migration {
    /// Issue 28: a workout keeps its own name ("Zwift Session") and what was left out or cut on
    /// the way in (`WorkoutNote`s as JSON), so its page can say so; an import says which of the
    /// export's workouts it did not store and why (JSON: reason → count). Existing rows have none.
    static let workoutNotes = Migration(version: 15, name: "workout title and notes, skipped workouts") { _ in
        [
            "ALTER TABLE workouts ADD COLUMN title TEXT",
            "ALTER TABLE workouts ADD COLUMN notes TEXT",
            "ALTER TABLE health_imports ADD COLUMN workouts_skipped TEXT",
        ]
    }
}
