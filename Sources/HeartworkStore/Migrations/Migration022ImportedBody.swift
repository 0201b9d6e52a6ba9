extension Migration {
    /// Issue 24, what the imports already read, kept: a measurement says where it came from
    /// (`source`, null for a value the user typed, which wins over an imported one of the same
    /// day), and an Apple Health import keeps what its body samples did (`body_update`, JSON of
    /// `BodyUpdate`) and the records it did not read (`records_skipped`, JSON: type → count).
    static let importedBody = Migration(version: 22, name: "imported body measurements") { _ in
        [
            "ALTER TABLE measurements ADD COLUMN source TEXT",
            "ALTER TABLE health_imports ADD COLUMN body_update TEXT",
            "ALTER TABLE health_imports ADD COLUMN records_skipped TEXT",
        ]
    }
}
