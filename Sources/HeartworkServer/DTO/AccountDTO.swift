import Foundation
import HeartworkCore
import HeartworkStore
import Hummingbird

struct RegisterRequest: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case username, fullName, email, password }
    let username: String
    let fullName: String
    let email: String
    let password: String

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        username = try container.decode(String.self, forKey: .username).trimmingCharacters(in: .whitespaces)
        fullName = try container.decode(String.self, forKey: .fullName).trimmingCharacters(in: .whitespacesAndNewlines)
        email = try container.decode(String.self, forKey: .email).trimmingCharacters(in: .whitespaces)
        password = try container.decode(String.self, forKey: .password)
    }

    init(username: String, fullName: String, email: String, password: String) {
        self.username = username.trimmingCharacters(in: .whitespaces)
        self.fullName = fullName.trimmingCharacters(in: .whitespacesAndNewlines)
        self.email = email.trimmingCharacters(in: .whitespaces)
        self.password = password
    }

    /// Usernames: 3–30 letters, digits, dot, dash or underscore; e-mail: something@domain.tld.
    func validate() throws {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._-"))
        guard (3...30).contains(username.count), username.unicodeScalars.allSatisfy({ allowed.contains($0) && $0.isASCII }) else {
            throw APIError.invalid("a username has 3–30 letters, digits, dots, dashes or underscores", field: "username")
        }
        guard (1...100).contains(fullName.count) else {
            throw APIError.invalid("the full name must have 1–100 characters", field: "fullName")
        }
        guard EmailAddress.isValid(email) else {
            throw APIError.invalid("'\(email)' is not an e-mail address like name@example.org", field: "email")
        }
        try PasswordPolicy.check(password, field: "password")
    }
}

enum EmailAddress {
    static func isValid(_ text: String) -> Bool {
        guard text.count <= 254, !text.contains(where: { $0.isWhitespace }) else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty } && labels.last!.count >= 2
    }
}

enum PasswordPolicy {
    static func check(_ password: String, field: String) throws {
        guard password.count >= 8 else { throw APIError.invalid("a password needs at least 8 characters", field: field) }
        // bcrypt reads 72 bytes; longer would be silently truncated.
        guard password.utf8.count <= 72 else { throw APIError.invalid("a password may have at most 72 bytes", field: field) }
    }
}

struct LoginRequest: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case username, password }
    let username: String
    let password: String

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        username = try container.decode(String.self, forKey: .username).trimmingCharacters(in: .whitespaces)
        password = try container.decode(String.self, forKey: .password)
    }

    init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

struct ChangePasswordRequest: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case currentPassword, newPassword }
    let currentPassword: String
    let newPassword: String

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        currentPassword = try container.decode(String.self, forKey: .currentPassword)
        newPassword = try container.decode(String.self, forKey: .newPassword)
    }

    init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}

struct LoginResponse: ResponseEncodable {
    let token: String
    let expiresAt: Date
    let user: ProfileResponse
}

/// The signed-in user's own profile and settings.
struct ProfileResponse: ResponseEncodable {
    struct MaximumHeartRate: Codable {
        let method: String
        let measured: Double?
        /// The value in use: measured, or estimated from age.
        let bpm: Double?
    }

    let id: String
    let username: String
    let fullName: String
    let email: String
    let status: String
    let dateOfBirth: String?
    let ageYears: Int?
    let sex: String?
    let heightMeters: Double?
    let weightKilograms: Double?
    let restingHeartRate: Double?
    let maxHeartRate: MaximumHeartRate
    let units: String
    let hasPhoto: Bool
    let photoURL: String?
    let settings: SettingsResponse
    let createdAt: Date

    init(_ user: UserRecord, latestWeight: Double?, latestResting: Double?, now: Date = Date()) {
        id = user.id
        username = user.username
        fullName = user.fullName
        email = user.email
        status = user.status
        dateOfBirth = user.dateOfBirth
        ageYears = user.dateOfBirth.flatMap { ProfileFacts.age(dateOfBirth: $0, at: now) }
        sex = user.sex?.rawValue
        heightMeters = user.heightMeters
        weightKilograms = latestWeight
        restingHeartRate = latestResting
        maxHeartRate = MaximumHeartRate(
            method: user.maxHeartRateMethod, measured: user.measuredMaxHeartRate,
            bpm: ProfileFacts.maximumHeartRate(user, ageYears: ageYears))
        units = user.units
        hasPhoto = user.hasPhoto
        photoURL = user.hasPhoto ? "/api/users/\(user.id)/photo" : nil
        settings = SettingsResponse(user)
        createdAt = user.createdAt
    }
}

struct SettingsResponse: ResponseEncodable {
    let autoShareWorkouts: Bool
    let maxSharedWorkouts: Int

    init(_ user: UserRecord) {
        autoShareWorkouts = user.autoShareWorkouts
        maxSharedWorkouts = user.maxSharedWorkouts
    }
}

/// What a friend may see of someone: no e-mail, no birth date, no body measurements.
struct PublicProfileResponse: ResponseEncodable {
    let id: String
    let username: String
    let fullName: String
    let status: String
    let photoURL: String?

    init(_ user: UserRecord) {
        id = user.id
        username = user.username
        fullName = user.fullName
        status = user.status
        photoURL = user.hasPhoto ? "/api/users/\(user.id)/photo" : nil
    }
}

/// Facts derived from a profile that several routes need.
enum ProfileFacts {
    /// Whole years from an ISO birth date to `date` (UTC calendar).
    static func age(dateOfBirth: String, at date: Date) -> Int? {
        guard let birth = ISODay.parse(dateOfBirth) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.dateComponents([.year], from: birth, to: date).year
    }

    static func maximumHeartRate(_ user: UserRecord, ageYears: Int?) -> Double? {
        switch user.maxHeartRateMethod {
        case "measured": return user.measuredMaxHeartRate
        case "fox": return ageYears.map { MaximumHeartRateMethod.fox.maximumHeartRate(ageYears: Double($0)) }
        case "tanaka": return ageYears.map { MaximumHeartRateMethod.tanaka.maximumHeartRate(ageYears: Double($0)) }
        default: return ageYears.map { MaximumHeartRateMethod.gellish.maximumHeartRate(ageYears: Double($0)) }
        }
    }
}

/// Calendar days as yyyy-mm-dd.
enum ISODay {
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day else { return nil }
        return date
    }
}
