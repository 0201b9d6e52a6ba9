/// Which SQL the engine speaks where the two differ (column types, write transactions).
public enum SQLEngine: Sendable {
    case sqlite, postgres

    var doubleType: String { self == .sqlite ? "REAL" : "DOUBLE PRECISION" }
    var blobType: String { self == .sqlite ? "BLOB" : "BYTEA" }
    /// SQLite takes the write lock up front so two writers never deadlock on an upgrade.
    var beginWrite: String { self == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN" }
}
