extension Migration {
    /// Issue 23: live recordings from `/record`, kept chunk by chunk until finished into a
    /// workout. A chunk is stored once per number (its canonical JSON text); a finished
    /// recording keeps only its counts (`samples`, `chunks`), its seconds live in the workout.
    static let recordings = Migration(version: 18, name: "live recordings") { _ in
        [
            """
            CREATE TABLE recordings (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                sport TEXT NOT NULL,
                indoor INTEGER NOT NULL,
                started_at BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                workout_id TEXT,
                ended_at BIGINT,
                paused_seconds INTEGER,
                samples INTEGER,
                chunks INTEGER
            )
            """,
            "CREATE INDEX recordings_user ON recordings (user_id, workout_id)",
            """
            CREATE TABLE recording_chunks (
                recording_id TEXT NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
                n INTEGER NOT NULL,
                body TEXT NOT NULL,
                samples INTEGER NOT NULL,
                PRIMARY KEY (recording_id, n)
            )
            """,
        ]
    }
}
