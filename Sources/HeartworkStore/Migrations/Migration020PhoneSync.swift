extension Migration {
    /// Phone sync (issue 24): sync tokens, good for the sync routes alone (stored as their
    /// SHA-256 only), what arrived through each sync and when (Today's "last arrival"), and
    /// the workouts a phone app sent, by the app's own id (a resend finds them).
    static let phoneSync = Migration(version: 20, name: "phone sync") { _ in
        [
            """
            CREATE TABLE sync_tokens (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                token_hash TEXT NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT
            )
            """,
            "CREATE INDEX sync_tokens_user ON sync_tokens (user_id, created_at)",
            """
            CREATE TABLE sync_arrivals (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                token_name TEXT NOT NULL,
                source TEXT NOT NULL,
                received_at BIGINT NOT NULL,
                samples_added INTEGER NOT NULL,
                samples_already INTEGER NOT NULL,
                workouts_added INTEGER NOT NULL,
                left_out INTEGER NOT NULL,
                newest_sample_at BIGINT
            )
            """,
            "CREATE INDEX sync_arrivals_user ON sync_arrivals (user_id, received_at)",
            """
            CREATE TABLE synced_workouts (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                source TEXT NOT NULL,
                external_id TEXT NOT NULL,
                workout_id TEXT,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, source, external_id)
            )
            """,
        ]
    }
}
