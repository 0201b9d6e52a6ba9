/// What kind of workout it was.
public enum Sport: String, Sendable, Hashable, Codable, CaseIterable {
    case running, cycling, strength, other
}
