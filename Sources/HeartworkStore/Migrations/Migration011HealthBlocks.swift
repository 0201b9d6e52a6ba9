extension Migration {
    /// A watch's and phone's health samples (issue 11): one row per user, kind and local day,
    /// the day's samples encoded by `HealthBlockCodec` (all sources kept; the source priority
    /// is applied when a day is read).
    static let healthBlocks = Migration(version: 11, name: "health blocks") { engine in
        [
            """
            CREATE TABLE health_blocks (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                day TEXT NOT NULL,
                sample_count INTEGER NOT NULL,
                updated_at BIGINT NOT NULL,
                data \(engine.blobType) NOT NULL,
                PRIMARY KEY (user_id, kind, day)
            )
            """
        ]
    }
}
