/// What a workout remembers of its owner when it was recorded: ghost challenges replay
/// against these values, not today's.
public struct ProfileSnapshot: Sendable, Hashable {
    public var ageYears: Int?
    public var restingHeartRate: Double?
    public var maximumHeartRate: Double?
    public var maximumHeartRateSource: MaximumHeartRateSource?
    public var weightKilograms: Double?
    public var sex: Sex?

    public init(
        ageYears: Int? = nil, restingHeartRate: Double? = nil, maximumHeartRate: Double? = nil,
        maximumHeartRateSource: MaximumHeartRateSource? = nil, weightKilograms: Double? = nil, sex: Sex? = nil
    ) {
        self.ageYears = ageYears
        self.restingHeartRate = restingHeartRate
        self.maximumHeartRate = maximumHeartRate
        self.maximumHeartRateSource = maximumHeartRateSource
        self.weightKilograms = weightKilograms
        self.sex = sex
    }

    /// The zones of this snapshot, when it has the anchors for them.
    public var zoneProfile: ZoneProfile? {
        guard let restingHeartRate, let maximumHeartRate else { return nil }
        return try? ZoneProfile(restingHeartRate: restingHeartRate, maximumHeartRate: maximumHeartRate)
    }
}
