/// Rules for text people type: names, statuses, e-mail addresses. Control characters
/// (U+0000–U+001F, U+007F–U+009F) are refused everywhere: they break pages, logs and
/// PostgreSQL (which cannot store U+0000), and no one types them on purpose.
enum TextRules {
    /// Trimmed text of `length` characters, on one line.
    static func line(_ text: String, field: String, what: String, length: ClosedRange<Int>) throws(AppError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        try refuseControlCharacters(trimmed, field: field, what: what)
        guard length.contains(trimmed.count) else {
            throw AppError.invalid(
                length.lowerBound == 0
                    ? "\(what) has at most \(length.upperBound) characters"
                    : "\(what) must have \(length.lowerBound)–\(length.upperBound) characters", field: field)
        }
        return trimmed
    }

    static func refuseControlCharacters(_ text: String, field: String, what: String) throws(AppError) {
        if let scalar = text.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            throw AppError.invalid("\(what) contains a control character (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code)); use plain text", field: field)
        }
    }
}
