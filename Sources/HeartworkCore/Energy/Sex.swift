/// Biological sex, as the sex-specific energy equations need it.
public enum Sex: String, Sendable, Hashable, Codable, CaseIterable {
    case male, female
}
