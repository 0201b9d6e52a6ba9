import Foundation

/// Where Heartwork keeps its data.
public enum DatabaseLocation: Sendable, Hashable, CustomStringConvertible {
    /// A SQLite file (the embedded default), opened in WAL mode.
    case sqlite(path: String)
    /// A PostgreSQL server, `postgres://user:password@host:port/database`.
    case postgres(url: String)

    /// Parses `--database`: a postgres:// URL, `sqlite:PATH`, or a plain file path.
    public init(argument: String) throws(StoreError) {
        if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
            self = .postgres(url: argument)
        } else if argument.hasPrefix("sqlite:") {
            self = .sqlite(path: String(argument.dropFirst("sqlite:".count)))
        } else if !argument.isEmpty && !argument.contains("://") {
            self = .sqlite(path: argument)
        } else {
            throw .invalidConfiguration("database '\(argument)' is neither a postgres:// URL nor a SQLite file path")
        }
    }

    public var description: String {
        switch self {
        case .sqlite(let path):
            return "SQLite \(path)"
        case .postgres(let url):
            // Never log the password.
            guard var components = URLComponents(string: url) else { return "PostgreSQL" }
            if components.password != nil { components.password = "•••" }
            return "PostgreSQL \(components.string ?? "")"
        }
    }
}
