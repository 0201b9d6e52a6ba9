extension Migration {
    /// Strength coaching and nutrition (issue 12, Pocket PT): a user's goal, lifestyle and
    /// options; their own routines; per-exercise statistics (kept apart from the catalogue,
    /// which is a data file, so many users share it); sessions and their sets (one row a set,
    /// `position` 1… across the session); the motivation webhook's delivery queue.
    static let strength = Migration(version: 8, name: "strength coaching and nutrition") { engine in
        [
            """
            CREATE TABLE strength_settings (
                user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                goal TEXT NOT NULL,
                lifestyle TEXT NOT NULL,
                plate_step_kg \(engine.doubleType),
                disclaimer_accepted_at BIGINT,
                webhook_url TEXT,
                webhook_secret TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE strength_routines (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                goal TEXT NOT NULL,
                description TEXT NOT NULL,
                exercises TEXT NOT NULL,
                position INTEGER NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE UNIQUE INDEX strength_routines_name ON strength_routines (user_id, name)",
            """
            CREATE TABLE exercise_stats (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                exercise_id TEXT NOT NULL,
                most_reps INTEGER NOT NULL,
                most_weight_kg \(engine.doubleType) NOT NULL,
                one_rep_max_kg \(engine.doubleType) NOT NULL,
                reset_at BIGINT,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, exercise_id)
            )
            """,
            """
            CREATE TABLE strength_sessions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                routine_id TEXT,
                name TEXT NOT NULL,
                goal TEXT NOT NULL,
                source TEXT NOT NULL,
                import_key TEXT,
                sensor_id TEXT,
                started_at BIGINT NOT NULL,
                finished_at BIGINT,
                review TEXT,
                enjoyment INTEGER,
                difficulty INTEGER,
                sentiment INTEGER,
                message TEXT,
                volume_kg \(engine.doubleType),
                total_reps INTEGER,
                total_sets INTEGER,
                duration_seconds \(engine.doubleType)
            )
            """,
            "CREATE INDEX strength_sessions_user ON strength_sessions (user_id, started_at)",
            "CREATE UNIQUE INDEX strength_sessions_import ON strength_sessions (user_id, import_key)",
            """
            CREATE TABLE strength_sets (
                session_id TEXT NOT NULL REFERENCES strength_sessions(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                exercise_id TEXT NOT NULL,
                exercise_name TEXT NOT NULL,
                exercise_index INTEGER NOT NULL,
                kind TEXT NOT NULL,
                prescribed_reps INTEGER,
                prescribed_weight_kg \(engine.doubleType) NOT NULL,
                reps INTEGER,
                weight_kg \(engine.doubleType) NOT NULL,
                done INTEGER NOT NULL,
                done_at BIGINT,
                PRIMARY KEY (session_id, position)
            )
            """,
            "CREATE INDEX strength_sets_exercise ON strength_sets (exercise_id)",
            """
            CREATE TABLE webhook_deliveries (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                url TEXT NOT NULL,
                body TEXT NOT NULL,
                attempts INTEGER NOT NULL,
                next_attempt_at BIGINT NOT NULL,
                delivered_at BIGINT,
                given_up_at BIGINT,
                last_error TEXT,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (delivered_at, given_up_at, next_attempt_at)",
        ]
    }
}
