extension Migration {
    /// One measurement history for every kind (weight and resting heart rate today; HRV,
    /// sleep, steps and the rest of daily health later), moved over from the two tables
    /// migration 1 had, ids kept.
    static let measurements = Migration(version: 2, name: "measurements") { engine in
        [
            """
            CREATE TABLE measurements (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                measured_at BIGINT NOT NULL,
                value \(engine.doubleType) NOT NULL
            )
            """,
            "CREATE INDEX measurements_user_kind ON measurements (user_id, kind, measured_at)",
            """
            INSERT INTO measurements (id, user_id, kind, measured_at, value)
            SELECT id, user_id, 'weight', measured_at, kilograms FROM weight_entries
            """,
            """
            INSERT INTO measurements (id, user_id, kind, measured_at, value)
            SELECT id, user_id, 'resting-heart-rate', measured_at, bpm FROM resting_hr_entries
            """,
            "DROP TABLE weight_entries",
            "DROP TABLE resting_hr_entries",
        ]
    }
}
