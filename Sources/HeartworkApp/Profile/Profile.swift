import Foundation
import HeartworkCore
import HeartworkStore

/// A user's profile as the app shows it: the account's facts, the latest measurements and
/// what follows from them.
public struct Profile: Sendable {
    public let user: UserRecord
    public let weightKilograms: Double?
    public let restingHeartRate: Double?
    /// Whole years on the day the profile was read.
    public let ageYears: Int?
    /// The maximum heart rate in use: measured, or estimated from age by the chosen formula.
    public let maximumHeartRate: Double?

    init(user: UserRecord, weightKilograms: Double?, restingHeartRate: Double?, now: Date) {
        self.user = user
        self.weightKilograms = weightKilograms
        self.restingHeartRate = restingHeartRate
        ageYears = user.dateOfBirth.map { $0.wholeYears(until: CalendarDay(now)) }
        maximumHeartRate = user.maxHeartRateSource.maximumHeartRate(ageYears: ageYears, measured: user.measuredMaxHeartRate)
    }

    /// The HeartMate zones, when resting and maximum heart rate are both known and valid.
    public var zoneProfile: ZoneProfile? {
        guard let restingHeartRate, let maximumHeartRate else { return nil }
        return try? ZoneProfile(restingHeartRate: restingHeartRate, maximumHeartRate: maximumHeartRate)
    }
}
