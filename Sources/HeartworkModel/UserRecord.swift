import Foundation
import HeartworkCore

/// A user account with its profile and settings.
public struct UserRecord: Sendable, Hashable {
    public var id: String
    public var username: String
    public var fullName: String
    public var email: String
    public var passwordHash: String
    public var status: String
    public var dateOfBirth: CalendarDay?
    public var sex: Sex?
    public var heightMeters: Double?
    public var maxHeartRateSource: MaximumHeartRateSource
    public var measuredMaxHeartRate: Double?
    /// How the web app shows values; storage is always SI.
    public var units: UnitSystem
    /// An IANA time-zone name; nil means UTC.
    public var timeZone: String?
    public var autoShareWorkouts: Bool
    public var maxSharedWorkouts: Int
    public var createdAt: Date
    public var hasPhoto: Bool

    public init(
        id: String = UUID().uuidString.lowercased(), username: String, fullName: String, email: String,
        passwordHash: String, status: String = "", dateOfBirth: CalendarDay? = nil, sex: Sex? = nil,
        heightMeters: Double? = nil, maxHeartRateSource: MaximumHeartRateSource = .default, measuredMaxHeartRate: Double? = nil,
        units: UnitSystem = .metric, timeZone: String? = nil, autoShareWorkouts: Bool = false, maxSharedWorkouts: Int = 20,
        createdAt: Date = Date(), hasPhoto: Bool = false
    ) {
        self.id = id
        self.username = username
        self.fullName = fullName
        self.email = email
        self.passwordHash = passwordHash
        self.status = status
        self.dateOfBirth = dateOfBirth
        self.sex = sex
        self.heightMeters = heightMeters
        self.maxHeartRateSource = maxHeartRateSource
        self.measuredMaxHeartRate = measuredMaxHeartRate
        self.units = units
        self.timeZone = timeZone
        self.autoShareWorkouts = autoShareWorkouts
        self.maxSharedWorkouts = maxSharedWorkouts
        self.createdAt = createdAt
        self.hasPhoto = hasPhoto
    }
}
