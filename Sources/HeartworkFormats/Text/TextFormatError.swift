/// A line of a text input that cannot be read, with where and what would be accepted.
public struct TextFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line number, or nil for a problem with the file as a whole.
    public let line: Int?
    public let message: String

    public init(line: Int?, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String {
        guard let line else { return message }
        return "line \(line): \(message)"
    }
}

/// Why a text input could not be read: the file itself, or one of its lines.
public enum TextInputError: Error, Hashable, Sendable, CustomStringConvertible {
    case file(TextFileError)
    case format(TextFormatError)

    public var description: String {
        switch self {
        case .file(let error): error.description
        case .format(let error): error.description
        }
    }
}

/// Parses a decimal number from a field, rejecting NaN and infinities.
func finiteNumber(_ field: Substring) -> Double? {
    guard let value = Double(field.trimmingWhitespace), value.isFinite else { return nil }
    return value
}
