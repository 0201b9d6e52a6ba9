extension Migration {
    /// A finished match keeps each side's per-second heart rate as played (comma-separated
    /// bpm, empty for a second without one), and the workout each player saved from it.
    static let matchWorkouts = Migration(version: 7, name: "match heart rates and saved workouts") { _ in
        [
            "ALTER TABLE matches ADD COLUMN heart_rate_a TEXT",
            "ALTER TABLE matches ADD COLUMN heart_rate_b TEXT",
            "ALTER TABLE matches ADD COLUMN workout_a TEXT",
            "ALTER TABLE matches ADD COLUMN workout_b TEXT",
            "CREATE INDEX matches_workout_a ON matches (workout_a)",
            "CREATE INDEX matches_workout_b ON matches (workout_b)",
        ]
    }
}
