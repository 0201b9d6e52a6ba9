import Foundation

/// What a player's physiology says about their readings: the facts a coach enters.
public struct PlayerPhysiology: Sendable, Hashable {
    public var restingHeartRate: Double?
    public var maximumHeartRate: Double?
    public var sex: Sex?
    public var ageYears: Int?
    public var weightKilograms: Double?

    public init(restingHeartRate: Double? = nil, maximumHeartRate: Double? = nil, sex: Sex? = nil, ageYears: Int? = nil, weightKilograms: Double? = nil) {
        self.restingHeartRate = restingHeartRate
        self.maximumHeartRate = maximumHeartRate
        self.sex = sex
        self.ageYears = ageYears
        self.weightKilograms = weightKilograms
    }

    /// The maximum to use: the one entered, else the default age formula (Gellish) when the
    /// age is known.
    public var effectiveMaximumHeartRate: Double? {
        if let maximumHeartRate { return maximumHeartRate }
        guard let ageYears, PhysiologicalLimits.ageYears.contains(Double(ageYears)) else { return nil }
        return MaximumHeartRateMethod.default.maximumHeartRate(ageYears: Double(ageYears)).rounded()
    }

    /// Karvonen zones and TRIMP need both resting and maximum heart rate.
    public var zoneProfile: ZoneProfile? {
        guard let restingHeartRate, let maximum = effectiveMaximumHeartRate else { return nil }
        return try? ZoneProfile(restingHeartRate: restingHeartRate, maximumHeartRate: maximum)
    }
}

/// One player's part of a team session, from the raw readings of their strap: the heart rate
/// second by second, time in the Karvonen zones, Banister TRIMP, Keytel calories, and HRV
/// (artifact-corrected RR, over the session and over 5-minute windows).
///
/// Time is counted the way the live tiles count it: each reading stands for the time until
/// the next one, but never more than `staleAfter` seconds (a strap that falls silent stops
/// counting; the tile shows it as stale), so the review and the live tile agree.
public struct PlayerSessionAnalysis: Sendable {
    /// A reading counts for at most this long (the tile's stale marker).
    public static let staleAfterSeconds = 5.0
    public static let hrvWindowSeconds = 300.0

    public let durationSeconds: Int
    /// Per second from the start: the last heart rate heard in that second, nil where none
    /// (a reading of 0 bpm, a strap without a beat to report, counts as none).
    public let heartRate: [Int?]
    public let readingCount: Int
    /// Seconds the strap was heard (readings, each counted as above).
    public let coveredSeconds: Double
    public let averageHeartRate: Double?
    public let minimumHeartRate: Int?
    /// The highest heart rate held: the largest median of five readings in a row, so that a
    /// strap's one- or two-reading spike (a loose strap reads 225 for a moment) does not become
    /// the player's "highest"; with fewer than five readings, the highest reading.
    public let maximumHeartRate: Int?
    /// The zone profile used (nil without resting and maximum heart rate).
    public let zoneProfile: ZoneProfile?
    /// Seconds in each `ReserveZone` (none … red line), when there is a zone profile.
    public let secondsInZones: [Double]?
    public let trimp: Double?
    public let kilocalories: Double?
    /// Every RR interval heard, in order (milliseconds).
    public let rrIntervals: [Double]
    public let hrv: HRVResult?
    public let hrvWindows: [HRVWindow]
    public let notes: [String]

    /// The largest median of five consecutive values (nil for fewer than five).
    static func heldMaximum(_ values: [Int]) -> Int? {
        guard values.count >= 5 else { return nil }
        var best = Int.min
        for start in 0...(values.count - 5) {
            best = Swift.max(best, values[start..<(start + 5)].sorted()[2])
        }
        return best
    }

    public init(
        readings unsorted: [SensorReading], startMilliseconds: Int64, endMilliseconds: Int64, physiology: PlayerPhysiology, includesHRV: Bool = true,
        correction: ArtifactCorrectionMethod = .kubios
    ) {
        let readings =
            unsorted
            .filter { Int64($0.atMilliseconds) >= startMilliseconds && Int64($0.atMilliseconds) < endMilliseconds }
            .sorted { ($0.atMilliseconds, $0.sequence) < ($1.atMilliseconds, $1.sequence) }
        let duration = max(0, Int((endMilliseconds - startMilliseconds + 999) / 1000))
        durationSeconds = duration
        readingCount = readings.count
        var perSecond = [Int?](repeating: nil, count: duration)
        let profile = physiology.zoneProfile
        zoneProfile = profile
        let trimpModel = profile.map { BanisterTRIMP(profile: $0, sex: physiology.sex) }
        var zones = [Double](repeating: 0, count: ReserveZone.allCases.count)
        var trimp = 0.0
        var covered = 0.0
        var weightedBPM = 0.0
        var minimum: Int?
        var maximum: Int?
        var rr = [Double]()
        for (index, reading) in readings.enumerated() {
            let second = Int((Int64(reading.atMilliseconds) - startMilliseconds) / 1000)
            if second >= 0 && second < duration && reading.beatsPerMinute > 0 { perSecond[second] = reading.beatsPerMinute }
            rr += reading.rrIntervalsMilliseconds
            // A reading of 0 bpm is a strap without a beat to report: heard, not counted.
            guard reading.beatsPerMinute > 0 else { continue }
            let nextAt = index + 1 < readings.count ? Int64(readings[index + 1].atMilliseconds) : endMilliseconds
            let span = min(Self.staleAfterSeconds, Double(nextAt - Int64(reading.atMilliseconds)) / 1000)
            let bpm = Double(reading.beatsPerMinute)
            minimum = Swift.min(minimum ?? reading.beatsPerMinute, reading.beatsPerMinute)
            maximum = Swift.max(maximum ?? reading.beatsPerMinute, reading.beatsPerMinute)
            guard span > 0 else { continue }
            covered += span
            weightedBPM += bpm * span
            if let profile, let trimpModel {
                zones[profile.reserveZone(beatsPerMinute: bpm).rawValue] += span
                trimp += trimpModel.impulse(beatsPerMinute: bpm, seconds: span)
            }
        }
        heartRate = perSecond
        coveredSeconds = covered
        minimumHeartRate = minimum
        maximumHeartRate = Self.heldMaximum(readings.map(\.beatsPerMinute).filter { $0 > 0 }) ?? maximum
        let average = covered > 0 ? weightedBPM / covered : nil
        averageHeartRate = average
        secondsInZones = profile == nil ? nil : zones
        self.trimp = trimpModel == nil ? nil : trimp
        var notes = [String]()
        if profile == nil { notes.append("zones and TRIMP need the player's resting and maximum heart rate (or birth date)") }
        if physiology.sex == nil && profile != nil { notes.append("TRIMP uses the men's constants because the player's sex is not given") }
        if let sex = physiology.sex, let age = physiology.ageYears, let weight = physiology.weightKilograms, let average {
            kilocalories = KeytelEnergy.kilocalories(sex: sex, averageBPM: average, weightKilograms: weight, ageYears: Double(age), hours: covered / 3600)
        } else {
            kilocalories = nil
            if !readings.isEmpty { notes.append("calories need the player's sex, birth date and weight") }
        }
        rrIntervals = rr
        // A strap that drops out leaves a gap, not a beat: intervals that are no interval at all
        // (0 or over 5 s) are left out of HRV, and said so.
        let usable = rr.filter { $0 > 0 && $0 <= RRValidation.maximumIntervalMilliseconds }
        if usable.count < rr.count { notes.append("\(rr.count - usable.count) RR values that are not intervals (0 or over 5 s) were left out of HRV") }
        do {
            guard includesHRV else { throw RRSeriesError.tooFewIntervals(count: 0) }
            let result = try HRVAnalysis.analyze(usable, options: HRVOptions(correction: correction))
            hrv = result
            hrvWindows = HRVAnalysis.windows(result.correction.corrected, windowSeconds: Self.hrvWindowSeconds)
            notes += result.warnings
        } catch {
            hrv = nil
            hrvWindows = []
            if !readings.isEmpty && includesHRV { notes.append("no HRV: \(error)") }
        }
        self.notes = notes
    }
}
