extension Migration {
    /// Daily health's per-user settings (alerts, the anomaly detector's parameters, the order
    /// of sources) and the alerts already given, so none is given twice (issue 11).
    static let healthSettings = Migration(version: 13, name: "health settings") { engine in
        [
            """
            CREATE TABLE health_settings (
                user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                step_threshold INTEGER NOT NULL,
                inactivity_minute INTEGER NOT NULL,
                inactivity_alerts INTEGER NOT NULL,
                anomaly_alerts INTEGER NOT NULL,
                ar_order INTEGER NOT NULL,
                band_sd \(engine.doubleType) NOT NULL,
                consecutive INTEGER NOT NULL,
                interval_minutes INTEGER NOT NULL,
                source_order TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE health_alerts (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                alert_key TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, alert_key)
            )
            """,
        ]
    }
}
