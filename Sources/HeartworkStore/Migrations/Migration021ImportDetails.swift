extension Migration {
    /// Issue 24, Gadgetbridge: an import says what it read (by device and kind) and what it did
    /// not understand (tables, devices, values: JSON, name → count). Existing rows have neither.
    static let importDetails = Migration(version: 21, name: "import read and not understood") { _ in
        [
            "ALTER TABLE health_imports ADD COLUMN read_counts TEXT",
            "ALTER TABLE health_imports ADD COLUMN not_understood TEXT",
        ]
    }
}
