import HeartworkCore

/// The profile and settings fields one edit changes (nil leaves a field as it is). Only these
/// columns are written, so concurrent edits of different fields both stand.
public struct UserChanges: Sendable, Hashable {
    public var profile: ProfileChanges
    public var settings: SettingsChanges

    public init(profile: ProfileChanges = ProfileChanges(), settings: SettingsChanges = SettingsChanges()) {
        self.profile = profile
        self.settings = settings
    }

    /// The record with these changes made.
    public func applied(to user: UserRecord) -> UserRecord {
        var user = user
        let profile = profile
        if let fullName = profile.fullName { user.fullName = fullName }
        if let email = profile.email { user.email = email }
        if let status = profile.status { user.status = status }
        if let dateOfBirth = profile.dateOfBirth { user.dateOfBirth = dateOfBirth.value }
        if let sex = profile.sex { user.sex = sex.value }
        if let height = profile.heightMeters { user.heightMeters = height.value }
        if let source = profile.maxHeartRateSource { user.maxHeartRateSource = source }
        if let measured = profile.measuredMaxHeartRate { user.measuredMaxHeartRate = measured.value }
        if let units = profile.units { user.units = units }
        if let timeZone = profile.timeZone { user.timeZone = timeZone.value }
        if let share = settings.autoShareWorkouts { user.autoShareWorkouts = share }
        if let maximum = settings.maxSharedWorkouts { user.maxSharedWorkouts = maximum }
        return user
    }
}
