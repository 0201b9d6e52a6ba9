extension Migration {
    /// What each exercise's statistics were when a session was finished, so that a correction
    /// within the edit window can recompute them from there (and lower a 1RM a typo raised).
    static let strengthBaselines = Migration(version: 9, name: "strength session baselines") { engine in
        [
            """
            CREATE TABLE strength_baselines (
                session_id TEXT NOT NULL REFERENCES strength_sessions(id) ON DELETE CASCADE,
                exercise_id TEXT NOT NULL,
                most_reps INTEGER NOT NULL,
                most_weight_kg \(engine.doubleType) NOT NULL,
                one_rep_max_kg \(engine.doubleType) NOT NULL,
                PRIMARY KEY (session_id, exercise_id)
            )
            """
        ]
    }
}
