/// A person's heart-rate anchors at one point in time: what zones are computed from.
///
/// Ghost challenges replay a workout against the profile stored with it, so the profile
/// is a value that travels with recordings, not a live lookup.
public struct ZoneProfile: Sendable, Hashable {
    public let restingHeartRate: Double
    public let maximumHeartRate: Double

    public init(restingHeartRate: Double, maximumHeartRate: Double) throws(PhysiologyError) {
        guard PhysiologicalLimits.restingHeartRate.contains(restingHeartRate) else {
            throw .restingHeartRateOutOfRange(restingHeartRate)
        }
        guard PhysiologicalLimits.maximumHeartRate.contains(maximumHeartRate) else {
            throw .maximumHeartRateOutOfRange(maximumHeartRate)
        }
        guard restingHeartRate < maximumHeartRate else {
            throw .restingNotBelowMaximum(resting: restingHeartRate, maximum: maximumHeartRate)
        }
        self.restingHeartRate = restingHeartRate
        self.maximumHeartRate = maximumHeartRate
    }

    public init(
        ageYears: Double,
        restingHeartRate: Double,
        maximumHeartRateMethod: MaximumHeartRateMethod = .default
    ) throws(PhysiologyError) {
        guard PhysiologicalLimits.ageYears.contains(ageYears) else { throw .ageOutOfRange(ageYears) }
        try self.init(
            restingHeartRate: restingHeartRate,
            maximumHeartRate: maximumHeartRateMethod.maximumHeartRate(ageYears: ageYears)
        )
    }

    /// HRR = HRmax − HRrest (seed-000 Eq. 2.3).
    public var heartRateReserve: Double { maximumHeartRate - restingHeartRate }

    /// Karvonen: HRthreshold = HRrest + I·HRR (seed-000 Eq. 2.7), `fraction` = I.
    public func karvonenThreshold(fractionOfReserve fraction: Double) -> Double {
        restingHeartRate + fraction * heartRateReserve
    }

    /// The five HeartMate thresholds at 60, 70, 80, 90 and 100 % HRR (seed-000 §3.5).
    public var reserveZoneThresholds: [Double] {
        ReserveZone.thresholdFractions.map { karvonenThreshold(fractionOfReserve: $0) }
    }

    /// HeartMate zone of one reading (PRODUCT.md: none < 60 %, low [60, 70) … red line ≥ 90 %).
    public func reserveZone(beatsPerMinute bpm: Double) -> ReserveZone {
        let thresholds = reserveZoneThresholds
        if bpm >= thresholds[3] { return .redLine }
        if bpm >= thresholds[2] { return .high }
        if bpm >= thresholds[1] { return .moderate }
        if bpm >= thresholds[0] { return .low }
        return .none
    }

    /// RISE zone of one reading by percentage of maximum heart rate (PRODUCT.md, RISE).
    public func intensityZone(beatsPerMinute bpm: Double) -> IntensityZone {
        IntensityZone(percentOfMaximum: 100 * bpm / maximumHeartRate)
    }
}

extension ZoneProfile: Codable {
    private enum CodingKeys: String, CodingKey { case restingHeartRate, maximumHeartRate }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            restingHeartRate: container.decode(Double.self, forKey: .restingHeartRate),
            maximumHeartRate: container.decode(Double.self, forKey: .maximumHeartRate)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(restingHeartRate, forKey: .restingHeartRate)
        try container.encode(maximumHeartRate, forKey: .maximumHeartRate)
    }
}
