/// What someone signing up gives; the account service trims and checks it.
public struct Registration: Sendable, Hashable {
    public var username: String
    public var fullName: String
    public var email: String
    public var password: String
    /// The browser's IANA time zone, when it says.
    public var timeZone: String?

    public init(username: String, fullName: String, email: String, password: String, timeZone: String? = nil) {
        self.username = username
        self.fullName = fullName
        self.email = email
        self.password = password
        self.timeZone = timeZone
    }

    /// Usernames: 3–30 ASCII letters, digits, dots, dashes or underscores.
    static func checkedUsername(_ text: String) throws(AppError) -> String {
        let username = text.trimmingCharacters(in: .whitespaces)
        let allowed = { (scalar: Unicode.Scalar) in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
        }
        guard (3...30).contains(username.count), username.unicodeScalars.allSatisfy(allowed) else {
            throw AppError.invalid("a username has 3–30 letters, digits, dots, dashes or underscores", field: "username")
        }
        return username
    }
}
