import Foundation

/// A player's name in its two parts (FitLabTeam F3: Name and Surname, both required) and as
/// one line ("First Surname", what the API's `name`, the export and the review show).
public enum PlayerName {
    /// Splits a one-line name at its last space: "Ana María Ruiz" is "Ana María" and "Ruiz".
    /// A single word is the first name, with no surname. Migration 028 splits the names
    /// stored before issue 25 this way, and so does the API for a client that sends `name`.
    public static func split(_ name: String) -> (firstName: String, surname: String) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard let space = trimmed.lastIndex(of: " ") else { return (trimmed, "") }
        return (
            String(trimmed[..<space]).trimmingCharacters(in: .whitespaces),
            String(trimmed[trimmed.index(after: space)...]).trimmingCharacters(in: .whitespaces)
        )
    }

    /// "First Surname"; either part alone when the other is empty.
    public static func full(firstName: String, surname: String) -> String {
        if surname.isEmpty { return firstName }
        if firstName.isEmpty { return surname }
        return firstName + " " + surname
    }

    /// Up to two capital letters for a picture's place when there is no photo: the first
    /// name's and the surname's first letters ("Ana Ruiz": "AR"; "Ana": "A").
    public static func initials(_ name: String) -> String {
        let words = name.split(whereSeparator: \.isWhitespace)
        guard let first = words.first?.first else { return "?" }
        guard words.count > 1, let last = words.last?.first else { return String(first).uppercased() }
        return (String(first) + String(last)).uppercased()
    }
}
