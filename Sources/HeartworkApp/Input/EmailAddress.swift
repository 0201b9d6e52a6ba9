/// E-mail addresses: something@domain.tld, at most 254 characters (RFC 5321).
enum EmailAddress {
    static func isValid(_ text: String) -> Bool {
        guard text.count <= 254, !text.contains(where: { $0.isWhitespace }) else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }), let top = labels.last else { return false }
        return top.count >= 2
    }

    static func checked(_ text: String, field: String) throws(AppError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        try TextRules.refuseControlCharacters(trimmed, field: field, what: "the e-mail address")
        guard isValid(trimmed) else { throw AppError.invalid("'\(trimmed)' is not an e-mail address like name@example.org", field: field) }
        return trimmed
    }
}
