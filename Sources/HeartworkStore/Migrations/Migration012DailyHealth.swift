extension Migration {
    /// Daily health's background work and results (issue 11): the durable job queue, the
    /// Apple Health imports and their progress, each day's computed metrics, and what the user
    /// said about a day (sleep quality, sick, traveling).
    static let dailyHealth = Migration(version: 12, name: "daily health") { engine in
        [
            """
            CREATE TABLE jobs (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                payload TEXT NOT NULL,
                state TEXT NOT NULL,
                attempts INTEGER NOT NULL,
                max_attempts INTEGER NOT NULL,
                run_after BIGINT NOT NULL,
                locked_by TEXT,
                locked_until BIGINT,
                last_error TEXT,
                created_at BIGINT NOT NULL,
                finished_at BIGINT
            )
            """,
            "CREATE INDEX jobs_due ON jobs (state, run_after)",
            """
            CREATE TABLE health_imports (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                format TEXT NOT NULL,
                file_path TEXT NOT NULL,
                state TEXT NOT NULL,
                bytes_total BIGINT NOT NULL,
                bytes_done BIGINT NOT NULL,
                samples_read BIGINT NOT NULL,
                samples_added BIGINT NOT NULL,
                workouts_added INTEGER NOT NULL,
                workouts_duplicate INTEGER NOT NULL,
                first_day TEXT,
                last_day TEXT,
                error TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                finished_at BIGINT
            )
            """,
            "CREATE INDEX health_imports_user ON health_imports (user_id, created_at)",
            """
            CREATE TABLE day_metrics (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                day TEXT NOT NULL,
                data TEXT NOT NULL,
                computed_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, day)
            )
            """,
            """
            CREATE TABLE day_marks (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                day TEXT NOT NULL,
                sleep_quality INTEGER,
                mark TEXT,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, day)
            )
            """,
        ]
    }
}
