extension Migration {
    /// Issue 26, a store that keeps up: the live feed's log. On SQLite each group commit
    /// appends the readings it took as one row here (`SensorLogCodec`), and a sensor's newest
    /// block is written when it fills, when its sensor falls silent, or at shutdown — not at
    /// every reading. Rows are deleted once every reading in them is in its block; whatever a
    /// crash leaves is folded into the blocks when the store opens. PostgreSQL (several
    /// instances write) does not use it.
    static let sensorLog = Migration(version: 24, name: "live feed log") { engine in
        [
            "CREATE TABLE sensor_log (id \(engine == .sqlite ? "INTEGER" : "BIGINT") PRIMARY KEY, data \(engine.blobType) NOT NULL)"
        ]
    }
}
