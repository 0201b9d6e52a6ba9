/// Escapes a user's search text for `LIKE … ESCAPE '\'`: a `%` or `_` they type matches itself.
func likePattern(containing text: String) -> String {
    var escaped = ""
    for character in text.lowercased() {
        if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
        escaped.append(character)
    }
    return "%\(escaped)%"
}
