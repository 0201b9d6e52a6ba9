/// A failure of the store that callers can report.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidConfiguration(String)
    case conflict(String)
    case notFound(String)
    case corruptData(String)
    /// A per-user limit would be exceeded (the share cap, with its value).
    case limitReached(Int)
    /// The same thing is stored already (its id): a workout with the same start and device.
    case duplicate(String)
    /// The credential a write came with was revoked (a gateway that was deleted).
    case revoked(String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let message): "database configuration: \(message)"
        case .conflict(let message): message
        case .notFound(let message): message
        case .corruptData(let message): "stored data is damaged: \(message)"
        case .limitReached(let limit): "the limit of \(limit) is reached"
        case .duplicate(let id): "already stored as \(id)"
        case .revoked(let what): "the \(what) was revoked"
        }
    }
}

extension StoreError {
    /// True when the error is a foreign-key violation on either engine: a row that refers to
    /// one just deleted (a request racing its account's deletion).
    public static func isForeignKeyViolation(_ error: any Error) -> Bool {
        let text = String(reflecting: error).lowercased()
        return text.contains("foreign key") || text.contains("23503")
    }
}
