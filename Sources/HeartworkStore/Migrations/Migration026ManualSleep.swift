extension Migration {
    /// Issue 25, RISE's "Time Slept" (seed 004 F2): the bed and wake time a user sets for a
    /// night, kept with what else the user said about its day (`day_marks`: the sleep rating,
    /// sick or traveling), as instants in milliseconds. Both or neither are set; null is the
    /// recorded night.
    static let manualSleep = Migration(version: 26, name: "manual sleep") { _ in
        [
            "ALTER TABLE day_marks ADD COLUMN bed_at BIGINT",
            "ALTER TABLE day_marks ADD COLUMN wake_at BIGINT",
        ]
    }
}
