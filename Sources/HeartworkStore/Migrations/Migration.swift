/// One numbered step of the schema, one file each (`MigrationNNNName.swift`). Never edit a
/// released migration; add a new one and list it in `Migrations.all`.
struct Migration: Sendable {
    let version: Int
    let name: String
    /// The statements, in order, for an engine (the two differ only in column types).
    let statements: @Sendable (SQLEngine) -> [String]
}
