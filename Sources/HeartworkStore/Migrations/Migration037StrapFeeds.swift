extension Migration {
    /// Issue 41. Which gateway feeds each sensor's series (`StrapFeeds`): its readings are
    /// stored under `seq + feed_offset` at `at + feed_shift`, none below `feed_base`. A sensor created from now on
    /// records the gateway that first heard it; one stored before keeps NULL until a gateway
    /// next sends it.
    static let strapFeeds = Migration(version: 37, name: "strap feeds") { _ in
        [
            "ALTER TABLE sensors ADD COLUMN feed_gateway_id TEXT",
            "ALTER TABLE sensors ADD COLUMN feed_offset BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE sensors ADD COLUMN feed_base BIGINT",
            "ALTER TABLE sensors ADD COLUMN feed_shift BIGINT NOT NULL DEFAULT 0",
        ]
    }
}
