extension Migration {
    /// Gateways: what hears a user's chest straps and forwards their readings (issue 9). The
    /// token is stored as its SHA-256 only and is good for the gateway endpoint alone. Sensors
    /// are the straps a user's gateways have heard; their raw readings are kept in blocks of
    /// 256 sequence numbers (see `SensorBlockCodec`).
    static let gateways = Migration(version: 4, name: "gateways and sensors") { engine in
        [
            """
            CREATE TABLE gateways (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                token_hash TEXT NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                last_seen_at BIGINT
            )
            """,
            "CREATE INDEX gateways_user ON gateways (user_id, created_at)",
            """
            CREATE TABLE sensors (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                address TEXT NOT NULL,
                name TEXT,
                gateway_id TEXT,
                created_at BIGINT NOT NULL,
                last_at BIGINT,
                last_bpm INTEGER,
                last_contact TEXT,
                battery INTEGER,
                UNIQUE (user_id, address)
            )
            """,
            """
            CREATE TABLE sensor_blocks (
                sensor_id TEXT NOT NULL REFERENCES sensors(id) ON DELETE CASCADE,
                block BIGINT NOT NULL,
                reading_count INTEGER NOT NULL,
                first_at BIGINT NOT NULL,
                last_at BIGINT NOT NULL,
                data \(engine.blobType) NOT NULL,
                PRIMARY KEY (sensor_id, block)
            )
            """,
            "CREATE INDEX sensor_blocks_time ON sensor_blocks (sensor_id, first_at)",
        ]
    }
}
