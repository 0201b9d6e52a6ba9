extension Migration {
    /// The empty bar a user lifts with (issue: barbell exercises were prescribed 5–8 kg, below
    /// an empty bar): the least load of a barbell exercise. Existing rows get the Olympic 20 kg.
    static let strengthBar = Migration(version: 16, name: "strength bar weight") { engine in
        ["ALTER TABLE strength_settings ADD COLUMN bar_kg \(engine.doubleType) NOT NULL DEFAULT 20"]
    }
}
