/// Everything Heartwork derives from a workout's streams and its owner's profile snapshot:
/// the heart-rate summary, time in the HeartMate zones, Keytel energy and the track distance.
public struct WorkoutMetrics: Sendable, Hashable {
    public var durationSeconds: Int
    public var averageHeartRate: Double?
    public var minimumHeartRate: Double?
    public var maximumHeartRate: Double?
    /// Seconds in none, low, moderate, high and red line; nil without a zone profile or
    /// without any heart rate.
    public var secondsInZones: [Int]?
    public var kilocalories: Double?
    public var distanceMeters: Double?

    public init(
        durationSeconds: Int, averageHeartRate: Double?, minimumHeartRate: Double?, maximumHeartRate: Double?,
        secondsInZones: [Int]?, kilocalories: Double?, distanceMeters: Double?
    ) {
        self.durationSeconds = durationSeconds
        self.averageHeartRate = averageHeartRate
        self.minimumHeartRate = minimumHeartRate
        self.maximumHeartRate = maximumHeartRate
        self.secondsInZones = secondsInZones
        self.kilocalories = kilocalories
        self.distanceMeters = distanceMeters
    }

    /// Whether any second of the workout has a heart rate (a watch workout recorded
    /// without one keeps its time, sport, energy, distance and route, and nothing of heart rate).
    public var hasHeartRate: Bool { averageHeartRate != nil }

    /// Derives the metrics. Without any heart rate the heart-rate summary and zones are nil,
    /// and so is the energy unless the device gave it (Keytel needs a heart rate).
    /// - Parameters:
    ///   - givenDistanceMeters: used only when the track has fewer than two points.
    ///   - givenKilocalories: overrides the Keytel estimate (a device's own figure).
    public init(streams: WorkoutStreams, snapshot: ProfileSnapshot, givenDistanceMeters: Double? = nil, givenKilocalories: Double? = nil) {
        let series = HeartRateSeries(beatsPerMinute: streams.heartRate.map { $0.map(Double.init) })
        let summary = HeartRateSummary(series)
        durationSeconds = streams.heartRate.count
        averageHeartRate = summary?.meanBPM
        minimumHeartRate = summary?.minimumBPM
        maximumHeartRate = summary?.maximumBPM
        if summary != nil, let profile = snapshot.zoneProfile {
            var tally = ZoneTally<ReserveZone>()
            for bpm in series.beatsPerMinute { tally.add(bpm.map(profile.reserveZone(beatsPerMinute:)) ?? .none) }
            secondsInZones = ReserveZone.allCases.map { tally[$0] }
        }
        kilocalories = givenKilocalories
        if kilocalories == nil, summary != nil, let sex = snapshot.sex, let weight = snapshot.weightKilograms, let age = snapshot.ageYears {
            // Keytel et al. 2005 on the running mean heart rate and elapsed time (seed-000 §3.4).
            var energy = KeytelAccumulator(sex: sex, weightKilograms: weight, ageYears: Double(age))
            for (second, bpm) in series.beatsPerMinute.enumerated() {
                if let bpm { energy.add(beatsPerMinute: bpm, elapsedSeconds: Double(second + 1)) }
            }
            kilocalories = energy.kilocalories
        }
        distanceMeters = streams.track.count >= 2 ? TrackDistance.meters(along: streams.track) : givenDistanceMeters
    }
}
