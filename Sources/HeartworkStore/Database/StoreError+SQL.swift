extension StoreError {
    /// True when the error is a unique-constraint violation on either engine.
    static func isUniqueViolation(_ error: any Error) -> Bool {
        let text = String(reflecting: error).lowercased()
        return text.contains("unique") || text.contains("23505")
    }
}
