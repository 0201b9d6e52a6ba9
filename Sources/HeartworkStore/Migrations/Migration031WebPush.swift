extension Migration {
    /// Issue 25, HeartMate's Web Push (seed 000 F35): the server's VAPID key pair, one row
    /// (`id` is always 1) written by the first instance that needs it, and each user's push
    /// subscriptions, one per browser (the endpoint is unique: a browser signed in as another
    /// user moves to that user), each bound to the session that turned it on (`session_hash`):
    /// once that session ends — signed out, everywhere, by a new password, expired — nothing
    /// more is pushed to the browser and the subscription goes.
    static let webPush = Migration(version: 31, name: "web push") { _ in
        [
            """
            CREATE TABLE push_vapid_keys (
                id INTEGER PRIMARY KEY,
                private_key TEXT NOT NULL,
                public_key TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE push_subscriptions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                endpoint TEXT NOT NULL UNIQUE,
                p256dh TEXT NOT NULL,
                auth TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                session_hash TEXT
            )
            """,
            "CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id, created_at)",
        ]
    }
}
