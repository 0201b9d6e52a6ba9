import Foundation

/// Everything Heartwork works out about one local day of a user's watch data (issue 11): the
/// heart-rate picture, steps, the night before with recovery (RISE), the day's RISE intensity
/// and strain, readiness against the user's own bands, and training load. Stored as it is
/// (`GET /api/days/{date}` answers from the store) and recomputed when its inputs change.
public struct DailySummary: Sendable, Hashable, Codable {
    public struct HeartRate: Sendable, Hashable, Codable {
        public var minimum: Double
        public var maximum: Double
        public var average: Double
        public var samples: Int
        /// The day's last reading and when it was taken (the Intensity view's "current heart
        /// rate", seed 004 F3); nil in days stored before it was kept.
        public var latest: Double?
        public var latestAt: Date?
    }

    public struct Sleep: Sendable, Hashable, Codable {
        public var inBedHours: Double
        /// Nil when the watch recorded time in bed only.
        public var asleepHours: Double?
        /// 1–10: the user's rating, or the estimate from the stages until they give one.
        public var quality: Int
        /// "entered" or "estimated".
        public var qualitySource: String
        public var recoveryPercent: Double?
        /// When the night began and ended: the user's bed and wake time, else the first and last
        /// instant the recorded time in bed covers (nil in days stored before they were kept).
        public var bedTime: Date?
        public var wakeTime: Date?
        /// "entered" when the user set the bed and wake time (seed 004's "Time Slept"), else
        /// "recorded"; nil in days stored before it was kept (recorded).
        public var timeSource: String?
        /// With an entered time: the hours in bed the watch or phone recorded, if any.
        public var recordedInBedHours: Double?
    }

    public struct Workload: Sendable, Hashable, Codable {
        /// The day's Banister TRIMP (sum over its workouts' heart rate).
        public var trimp: Double
        public var acute: Double
        public var chronic: Double
        public var balance: Double
        public var ratio: Double?
        /// Days since the first day with training load in the 126 days looked at (0: none
        /// yet); the ratio says something only from `TrainingLoad.minimumHistoryDays` on.
        /// Nil in days stored before formula 3.
        public var historyDays: Int?
    }

    /// yyyy-mm-dd, the local date.
    public var date: String
    /// The UTC offset the day was cut at (the offset where most of its samples were taken).
    public var utcOffsetSeconds: Int
    /// False when nothing was recorded that day (every metric below is then empty).
    public var hasData: Bool
    public var heartRate: HeartRate?
    public var restingHeartRate: Double?
    /// Mean SDNN of the day's HRV readings, ms (the watch's measure).
    public var hrvSDNNMilliseconds: Double?
    public var steps: Int?
    public var sleep: Sleep?
    public var rise: RISE.Day?
    /// The highest heart rate of the 6 months up to this day (the RISE zones' anchor), or the
    /// profile's maximum when the watch has none.
    public var maximumHeartRate: Double?
    public var readiness: Readiness.Result
    public var load: Workload
    /// "sick" or "traveling" when the user marked the day.
    public var mark: String?
}

/// A night's bed and wake time as the user set them (seed 004 F2, "Time Slept": "users can
/// adjust the hours they were sleep if the calculated time is inaccurate"). It stands for the
/// recorded night's time in bed until the user clears it.
public struct ManualSleep: Sendable, Hashable, Codable {
    public var bedTime: Date
    public var wakeTime: Date

    /// The longest night taken, in hours.
    public static let maximumHours = 20.0
    /// A night ends before this local time on its day (`DailyCalculator.nightWindow`).
    public static let latestWakeMinute = 18 * 60

    public init(bedTime: Date, wakeTime: Date) {
        self.bedTime = bedTime
        self.wakeTime = wakeTime
    }

    public var seconds: Double { wakeTime.timeIntervalSince(bedTime) }

    /// Why clock times (minutes after local midnight) do not make a night of `day`, or nil.
    public enum Fault: Error, Sendable, Hashable, CustomStringConvertible {
        case sameTime
        case wakeTooLate
        case tooLong(hours: Double)
        case outOfRange

        public var description: String {
            switch self {
            case .sameTime: "the bed time and the wake time are the same"
            case .wakeTooLate: "the wake time is before 18:00 (a day's night ends between 18:00 the evening before and 18:00 on the day)"
            case .tooLong(let hours): "a night is at most \(Int(ManualSleep.maximumHours)) hours (this one is \((hours * 10).rounded() / 10))"
            case .outOfRange: "a time of day is from 00:00 to 23:59"
            }
        }
    }

    /// The night of `day` from clock times: the wake time is on the day (before 18:00), the bed
    /// time the last time at its clock time before the wake time — the evening before when it
    /// is later on the clock (23:10 → 07:05), the same day when earlier (01:30 → 09:00).
    public static func night(bedMinute: Int, wakeMinute: Int, day: CalendarDay, utcOffsetSeconds: Int) -> Result<ManualSleep, Fault> {
        guard (0..<1440).contains(bedMinute), (0..<1440).contains(wakeMinute) else { return .failure(.outOfRange) }
        guard bedMinute != wakeMinute else { return .failure(.sameTime) }
        guard wakeMinute < latestWakeMinute else { return .failure(.wakeTooLate) }
        let midnight = day.start(utcOffsetSeconds: utcOffsetSeconds)
        let wake = midnight.addingTimeInterval(Double(wakeMinute) * 60)
        let bed = midnight.addingTimeInterval(Double(bedMinute - (bedMinute > wakeMinute ? 1440 : 0)) * 60)
        let hours = wake.timeIntervalSince(bed) / 3600
        guard hours <= maximumHours else { return .failure(.tooLong(hours: hours)) }
        return .success(ManualSleep(bedTime: bed, wakeTime: wake))
    }
}

/// The inputs of one day, already read and resolved across sources.
public struct DailyInput: Sendable {
    public var day: CalendarDay
    public var utcOffsetSeconds: Int
    public var heartRate: [HealthSample]
    public var restingHeartRate: [HealthSample]
    public var hrv: [HealthSample]
    public var steps: [HealthSample]
    /// Sleep samples of the night ending on this day (see `DailyCalculator.nightWindow`),
    /// resolved by `HealthSourcePriority.resolveSleep`.
    public var sleep: [HealthSample]
    /// The bed and wake time the user set for the night, which stand for the recorded ones.
    public var manualSleep: ManualSleep?
    /// The day's workouts, as start and end instants.
    public var workouts: [(id: String, name: String, start: Date, end: Date)]
    /// The previous days' summaries, oldest first (up to 182; gaps allowed).
    public var history: [DailySummary]
    public var sleepQuality: Int?
    public var mark: Readiness.Status?
    public var profileMaximumHeartRate: Double?
    public var profileRestingHeartRate: Double?
    public var sex: Sex?

    public init(
        day: CalendarDay, utcOffsetSeconds: Int, heartRate: [HealthSample] = [], restingHeartRate: [HealthSample] = [],
        hrv: [HealthSample] = [], steps: [HealthSample] = [], sleep: [HealthSample] = [],
        workouts: [(id: String, name: String, start: Date, end: Date)] = [], history: [DailySummary] = [],
        sleepQuality: Int? = nil, mark: Readiness.Status? = nil, profileMaximumHeartRate: Double? = nil,
        profileRestingHeartRate: Double? = nil, sex: Sex? = nil, manualSleep: ManualSleep? = nil
    ) {
        self.day = day
        self.utcOffsetSeconds = utcOffsetSeconds
        self.heartRate = heartRate
        self.restingHeartRate = restingHeartRate
        self.hrv = hrv
        self.steps = steps
        self.sleep = sleep
        self.workouts = workouts
        self.history = history
        self.sleepQuality = sleepQuality
        self.mark = mark
        self.profileMaximumHeartRate = profileMaximumHeartRate
        self.profileRestingHeartRate = profileRestingHeartRate
        self.sex = sex
        self.manualSleep = manualSleep
    }
}

/// Works out a `DailySummary`. Heartwork's choices where the seeds are silent (docs/DAILY-HEALTH.md):
///
/// - The night of a day is the sleep that ends between 18:00 the evening before and 18:00 on
///   the day (local time); time in bed is the union of its "in bed" intervals (a phone's),
///   or of all its intervals when only stages were recorded; time asleep is the sum of the
///   asleep stages (a watch's), each resolved by the source order on its own
///   (`HealthSourcePriority.resolveSleep`). A bed and wake time the user set stand for the
///   recorded time in bed (seed 004's "Time Slept").
/// - The resting heart rate is the watch's resting value for the day (the mean when several),
///   else the profile's; RISE's inactive band starts there (60 when neither is known).
/// - The day's average heart rate is over time (each reading for the time to the next, at
///   most 10 minutes), not over readings.
/// - The 6-month maximum is the highest heart-rate sample of the day and the 182 days before
///   it, never below the profile's maximum when the profile has one.
/// - TRIMP counts the heart-rate samples inside the day's workouts (each for the time to the
///   next sample, at most 10 minutes, as RISE counts them).
public enum DailyCalculator {
    public static let maximumWindowDays = 182
    /// Which version of this calculator's formulas a stored day was worked out by. Raise it
    /// whenever a change alters what a stored day holds: at start, days stored by an older
    /// version are worked out again (`DailyHealthService.recomputeOutdated`).
    /// 1: before issue 25. 2: recovery not capped at 100 %, intensity's moderate band
    /// widened to 60–80 %, hours in bed the union of in-bed records and hours asleep the sum
    /// of asleep stages, time slept set by hand. 3: the load's `historyDays` (issue 41).
    public static let formulaVersion = 3
    public static let defaultRestingHeartRate = 60.0

    /// The instants a day's night may end in: 18:00 the evening before to 18:00 on the day.
    public static func nightWindow(_ day: CalendarDay, utcOffsetSeconds: Int) -> ClosedRange<Date> {
        let start = day.start(utcOffsetSeconds: utcOffsetSeconds)
        return start.addingTimeInterval(-6 * 3600)...start.addingTimeInterval(18 * 3600)
    }

    public static func summary(_ input: DailyInput) -> DailySummary {
        let dayStart = input.day.start(utcOffsetSeconds: input.utcOffsetSeconds)
        let beats = input.heartRate.filter { $0.value.isFinite && $0.value > 0 }
        let heartRate: DailySummary.HeartRate? =
            beats.isEmpty
            ? nil
            : {
                // The average over time: a reading stands for the time to the next (at most RISE's
                // 10 minutes), so a workout's readings every few seconds do not outweigh the rest.
                let sorted = beats.sorted { $0.start < $1.start }
                let values = sorted.map(\.value)
                return .init(
                    minimum: values.min() ?? 0, maximum: values.max() ?? 0, average: averageOverTime(sorted) ?? 0, samples: values.count,
                    latest: sorted.last?.value, latestAt: sorted.last?.start)
            }()
        let restingValues = input.restingHeartRate.map(\.value).filter { $0.isFinite && $0 > 0 }
        let resting = restingValues.isEmpty ? nil : round1(restingValues.reduce(0, +) / Double(restingValues.count))
        let hrvValues = input.hrv.map(\.value).filter { $0.isFinite && $0 > 0 }
        let hrv = hrvValues.isEmpty ? nil : round1(hrvValues.reduce(0, +) / Double(hrvValues.count))
        let stepValues = input.steps.map(\.value).filter { $0.isFinite && $0 >= 0 }
        let steps = stepValues.isEmpty ? nil : Int(stepValues.reduce(0, +).rounded())
        let sleep = sleepSummary(input.sleep, quality: input.sleepQuality, manual: input.manualSleep)

        // The 6-month maximum: the day's and the history's, never below the profile's.
        let since = input.day.adding(days: -maximumWindowDays).description
        var maximum = input.history.filter { $0.date >= since }.compactMap { $0.heartRate?.maximum }.max()
        if let today = heartRate?.maximum { maximum = max(maximum ?? today, today) }
        if let profile = input.profileMaximumHeartRate, profile.isFinite, profile > 0 { maximum = max(maximum ?? profile, profile) }

        let restingForZones = resting ?? input.profileRestingHeartRate ?? defaultRestingHeartRate
        var rise: RISE.Day?
        var trimp = 0.0
        if let maximum, !beats.isEmpty {
            let timed = beats.map { TimedHeartRate(timeSeconds: $0.start.timeIntervalSince(dayStart), beatsPerMinute: $0.value) }
            let workouts = input.workouts.map {
                RISE.Workout(id: $0.id, name: $0.name, startSeconds: $0.start.timeIntervalSince(dayStart), endSeconds: $0.end.timeIntervalSince(dayStart))
            }
            rise = RISE.day(samples: timed, workouts: workouts, restingHeartRate: restingForZones, maximumHeartRate: maximum)
            if let profile = try? ZoneProfile(restingHeartRate: restingForZones, maximumHeartRate: maximum) {
                trimp = self.trimp(timed.sorted { $0.timeSeconds < $1.timeSeconds }, workouts: workouts, model: BanisterTRIMP(profile: profile, sex: input.sex))
            }
        }

        // Readiness over the history and this day.
        var days = input.history.suffix(Readiness.normalWindowDays + Readiness.shortWindowDays).map {
            Readiness.DayValues(
                hrvMilliseconds: $0.hrvSDNNMilliseconds, isSDNN: true, restingHeartRate: $0.restingHeartRate,
                mark: $0.mark.flatMap(Readiness.Status.init(rawValue:)))
        }
        days.append(Readiness.DayValues(hrvMilliseconds: hrv, isSDNN: true, restingHeartRate: resting, mark: input.mark))
        let hasData = heartRate != nil || resting != nil || hrv != nil || steps != nil || sleep != nil
        let readiness = hasData || input.mark != nil ? Readiness.assess(days) : Readiness.Result(status: .unknown, inputs: [], reason: "no data for this day")

        // Training load: the daily TRIMP series of the last 42 × 3 days (missing days are rest days).
        let first = input.day.adding(days: -3 * TrainingLoad.chronicDays)
        var series = [Double](repeating: 0, count: 3 * TrainingLoad.chronicDays + 1)
        for past in input.history {
            guard let day = CalendarDay(iso: past.date) else { continue }
            let index = day.daysSinceEpoch - first.daysSinceEpoch
            if index >= 0, index < series.count - 1 { series[index] = past.load.trimp }
        }
        series[series.count - 1] = trimp
        let point = TrainingLoad.series(dailyTRIMP: series).last
        let firstLoad = series.firstIndex { $0.isFinite && $0 > 0 }
        let load = DailySummary.Workload(
            trimp: round1(trimp), acute: point?.acute ?? 0, chronic: point?.chronic ?? 0,
            balance: point?.balance ?? 0, ratio: point?.ratio, historyDays: firstLoad.map { series.count - 1 - $0 } ?? 0)
        return DailySummary(
            date: input.day.description, utcOffsetSeconds: input.utcOffsetSeconds, hasData: hasData, heartRate: heartRate,
            restingHeartRate: resting, hrvSDNNMilliseconds: hrv, steps: steps, sleep: sleep, rise: rise, maximumHeartRate: maximum,
            readiness: readiness, load: load, mark: input.mark?.rawValue)
    }

    /// Time in bed, asleep, the quality and recovery of a night's samples (resolved by
    /// `HealthSourcePriority.resolveSleep`), or of the bed and wake time the user set: those
    /// give the time in bed (the recorded stages then give only the estimated quality).
    public static func sleepSummary(_ samples: [HealthSample], quality entered: Int?, manual: ManualSleep? = nil) -> DailySummary.Sleep? {
        let valid = samples.filter { $0.kind == .sleep && $0.end > $0.start }
        let manual = manual.flatMap { $0.seconds > 0 && $0.seconds.isFinite ? $0 : nil }
        guard !valid.isEmpty || manual != nil else { return nil }
        func union(_ parts: [HealthSample]) -> Double {
            var total = 0.0
            var current: (Date, Date)?
            for part in parts.sorted(by: { $0.start < $1.start }) {
                if let (s, e) = current, part.start <= e {
                    current = (s, max(e, part.end))
                } else {
                    if let (s, e) = current { total += e.timeIntervalSince(s) }
                    current = (part.start, part.end)
                }
            }
            if let (s, e) = current { total += e.timeIntervalSince(s) }
            return total
        }
        let stage = { (s: HealthSample) in HealthSample.SleepStage(rawValue: Int(s.value)) }
        let inBed = valid.filter { stage($0) == .inBed }
        // The asleep stages of resolved sources do not overlap: their union is their sum (a
        // stretch one source wrote twice counts once).
        let asleepParts = valid.filter { stage($0)?.isAsleep == true }
        let bedParts = inBed.isEmpty ? valid : inBed
        let recordedSeconds = valid.isEmpty ? nil : union(bedParts)
        let recordedAsleep = asleepParts.isEmpty ? nil : union(asleepParts)
        let inBedSeconds = manual?.seconds ?? recordedSeconds ?? 0
        // Quality: the user's rating, else the share of the recorded night asleep.
        let rated = entered.flatMap { (1...10).contains($0) ? $0 : nil }
        let quality = rated ?? RISE.estimatedSleepQuality(inBedSeconds: recordedSeconds ?? 0, asleepSeconds: recordedAsleep)
        let hours = inBedSeconds / 3600
        return .init(
            inBedHours: round2(hours), asleepHours: manual == nil ? recordedAsleep.map { round2($0 / 3600) } : nil, quality: quality,
            qualitySource: rated != nil ? "entered" : "estimated",
            recoveryPercent: RISE.recoveryPercent(hoursInBed: hours, quality: quality).map(round1),
            bedTime: manual?.bedTime ?? bedParts.map(\.start).min(), wakeTime: manual?.wakeTime ?? bedParts.map(\.end).max(),
            timeSource: manual == nil ? "recorded" : "entered",
            recordedInBedHours: manual == nil ? nil : recordedSeconds.map { round2($0 / 3600) })
    }

    /// The average of readings over time, to one decimal: each reading stands for the time to
    /// the next one (at least 1 s, at most RISE's 10 minutes). `sorted` by start; nil when empty.
    public static func averageOverTime(_ sorted: [HealthSample]) -> Double? {
        var weighted = 0.0
        var seconds = 0.0
        for (index, sample) in sorted.enumerated() where sample.value.isFinite {
            let next = index + 1 < sorted.count ? sorted[index + 1].start : sample.start.addingTimeInterval(RISE.maximumSampleSeconds)
            let span = min(RISE.maximumSampleSeconds, max(1, next.timeIntervalSince(sample.start)))
            weighted += sample.value * span
            seconds += span
        }
        return seconds > 0 ? round1(weighted / seconds) : nil
    }

    static func trimp(_ sorted: [TimedHeartRate], workouts: [RISE.Workout], model: BanisterTRIMP) -> Double {
        guard !workouts.isEmpty else { return 0 }
        var total = 0.0
        for (i, sample) in sorted.enumerated() {
            guard workouts.contains(where: { sample.timeSeconds >= $0.startSeconds && sample.timeSeconds < $0.endSeconds }) else { continue }
            let next = i + 1 < sorted.count ? sorted[i + 1].timeSeconds : sample.timeSeconds + RISE.maximumSampleSeconds
            let seconds = min(RISE.maximumSampleSeconds, max(0, next - sample.timeSeconds))
            total += model.impulse(beatsPerMinute: sample.beatsPerMinute, seconds: seconds)
        }
        return total.isFinite ? total : 0
    }

    static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    static func round2(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
