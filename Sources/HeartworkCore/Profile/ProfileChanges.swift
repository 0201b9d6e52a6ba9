/// An edit of a profile: a field left nil stays as it is; optional facts can be cleared.
/// The profile service validates one before the store writes exactly these fields.
public struct ProfileChanges: Sendable, Hashable {
    public var fullName: String?
    public var email: String?
    public var status: String?
    public var dateOfBirth: FieldUpdate<CalendarDay>?
    public var sex: FieldUpdate<Sex>?
    public var heightMeters: FieldUpdate<Double>?
    public var maxHeartRateSource: MaximumHeartRateSource?
    public var measuredMaxHeartRate: FieldUpdate<Double>?
    public var units: UnitSystem?
    /// An IANA time-zone name (`Europe/Vienna`), or clear for UTC.
    public var timeZone: FieldUpdate<String>?

    public init() {}
}

/// An edit of the sharing settings.
public struct SettingsChanges: Sendable, Hashable {
    public var autoShareWorkouts: Bool?
    public var maxSharedWorkouts: Int?

    public init(autoShareWorkouts: Bool? = nil, maxSharedWorkouts: Int? = nil) {
        self.autoShareWorkouts = autoShareWorkouts
        self.maxSharedWorkouts = maxSharedWorkouts
    }
}
