import Foundation
import HeartworkCore
import Testing

/// A day's summary (issue 11, `DailyCalculator`): the night, the 6-month maximum, the load,
/// and independence from the order samples come in.
@Suite("Daily summary")
struct DailySummaryTests {
    static let day = CalendarDay(year: 2026, month: 11, day: 20)!
    static let midnight = day.start()

    static func sample(_ kind: HealthSample.Kind, _ seconds: Double, _ value: Double, until end: Double? = nil) -> HealthSample {
        HealthSample(
            kind: kind, start: midnight.addingTimeInterval(seconds), end: midnight.addingTimeInterval(end ?? seconds),
            utcOffsetSeconds: 0, value: value, source: "Watch")
    }

    static func sleep(_ stage: HealthSample.SleepStage, from: Double, to: Double) -> HealthSample {
        sample(.sleep, from * 3600, Double(stage.rawValue), until: to * 3600)
    }

    @Test func theNightIsTheUnionOfItsIntervalsAndRecoveryFollowsRISE() {
        // In bed twice, overlapping: 22:30–03:00 and 02:00–06:00 → 7.5 h; asleep 23:00–05:30 in two stages → 6.5 h.
        let night = [
            Self.sleep(.inBed, from: -1.5, to: 3), Self.sleep(.inBed, from: 2, to: 6),
            Self.sleep(.core, from: -1, to: 3), Self.sleep(.deep, from: 3, to: 5.5),
        ]
        let estimated = DailyCalculator.sleepSummary(night, quality: nil)
        #expect(estimated?.inBedHours == 7.5 && estimated?.asleepHours == 6.5)
        #expect(estimated?.quality == 9 && estimated?.qualitySource == "estimated")
        #expect(estimated?.recoveryPercent == 84.4)
        // The seed's worked example: 7.5 h in bed, quality 8 → 75 %.
        let rated = DailyCalculator.sleepSummary(night, quality: 8)
        #expect(rated?.recoveryPercent == 75 && rated?.qualitySource == "entered")
        // Stages only (no "in bed"): the time in bed is the stages' union; a rating out of range is not used.
        let stagesOnly = DailyCalculator.sleepSummary([Self.sleep(.core, from: 0, to: 4), Self.sleep(.rem, from: 4, to: 8)], quality: 11)
        #expect(stagesOnly?.inBedHours == 8 && stagesOnly?.quality == 10 && stagesOnly?.recoveryPercent == 100)
        #expect(DailyCalculator.sleepSummary([], quality: 8) == nil)
        // The night of a day ends between 18:00 the evening before and 18:00 on the day.
        let window = DailyCalculator.nightWindow(Self.day, utcOffsetSeconds: 3600)
        #expect(window.lowerBound == Self.midnight.addingTimeInterval(-7 * 3600) && window.upperBound == Self.midnight.addingTimeInterval(17 * 3600))
    }

    /// A sample of `source` (a phone or a watch) for the two-device nights.
    static func sleep(_ stage: HealthSample.SleepStage, from: Double, to: Double, source: String, device: String? = nil) -> HealthSample {
        HealthSample(
            kind: .sleep, start: midnight.addingTimeInterval(from * 3600), end: midnight.addingTimeInterval(to * 3600), utcOffsetSeconds: 0,
            value: Double(stage.rawValue), source: source, device: device)
    }

    /// Issue 25: an iPhone's in-bed records and a Watch's stages in one night. Hours in bed is
    /// the span the in-bed records cover (their union); hours asleep the sum of the asleep
    /// stages; each kind resolved by the source order on its own. (Before, the watch's stages
    /// displaced the phone's in-bed records, and the night was the stages' span: 7 h, not 8.5.)
    @Test func aPhonesTimeInBedAndAWatchsStagesOfOneNightBothCount() throws {
        let phone = "Anna’s iPhone"
        let watch = "Anna’s Apple Watch"
        // The phone: in bed 22:30–01:00 and 00:30–07:00 (overlapping records): 8.5 h.
        // The watch: core 23:00–01:00, awake 01:00–01:15, deep 01:15–03:00, not worn 03:00–03:30,
        // REM 03:30–05:00, core 05:00–06:30: asleep 2 + 1.75 + 1.5 + 1.5 = 6.75 h.
        let night = [
            Self.sleep(.inBed, from: -1.5, to: 1, source: phone), Self.sleep(.inBed, from: 0.5, to: 7, source: phone),
            Self.sleep(.core, from: -1, to: 1, source: watch), Self.sleep(.awake, from: 1, to: 1.25, source: watch),
            Self.sleep(.deep, from: 1.25, to: 3, source: watch), Self.sleep(.rem, from: 3.5, to: 5, source: watch),
            Self.sleep(.core, from: 5, to: 6.5, source: watch),
        ]
        var random = SplitMix64(seed: 25)
        for order in [night, night.reversed(), night.shuffled(using: &random)] {
            let resolved = HealthSourcePriority().resolveSleep(order)
            #expect(resolved.count == night.count, "the phone's in-bed records and the watch's stages all stand")
            let summary = try #require(DailyCalculator.sleepSummary(resolved, quality: nil))
            #expect(summary.inBedHours == 8.5, "the union of the phone's in-bed records, 22:30–07:00")
            #expect(summary.asleepHours == 6.75, "the sum of the watch's asleep stages, not its gaps or its awake quarter")
            #expect(summary.quality == 8 && summary.qualitySource == "estimated", "round(6.75 / 8.5 × 10) = 8")
            #expect(summary.recoveryPercent == 85, "8.5 h × 8/10 ÷ 8 × 100 (seed 004 Figure-2)")
            #expect(summary.bedTime == Self.midnight.addingTimeInterval(-1.5 * 3600) && summary.wakeTime == Self.midnight.addingTimeInterval(7 * 3600))
            #expect(summary.timeSource == "recorded" && summary.recordedInBedHours == nil)
        }
        // The old way (one resolution over both kinds) lost the phone's records: 7 h in bed, the stages' span without their gap.
        let mixed = try #require(DailyCalculator.sleepSummary(HealthSourcePriority().resolve(night), quality: nil))
        #expect(mixed.inBedHours == 7, "the defect this test guards against")

        // Two sources of each kind: the higher-ranked stands where they overlap, the other fills its gaps.
        let ring = "Ring"
        let both =
            night + [
                Self.sleep(.inBed, from: -2, to: 7.5, source: watch),  // the watch's own in-bed record wins over the phone's
                Self.sleep(.asleep, from: -1, to: 6.5, source: phone),  // the phone's "asleep" loses to the watch's stages it overlaps
                Self.sleep(.deep, from: 3, to: 3.5, source: ring),  // a third source's stage in the watch's gap
            ]
        let resolved = HealthSourcePriority().resolveSleep(both)
        let summary = try #require(DailyCalculator.sleepSummary(resolved, quality: nil))
        #expect(summary.inBedHours == 9.5, "the watch's in-bed record (21:30–07:30) displaces the phone's it overlaps")
        #expect(summary.asleepHours == 7.25, "the watch's 6.75 h and the ring's half hour in the watch's gap; the phone's asleep overlaps both")
        // The user's own order can put the phone first: its in-bed records and its asleep record then stand.
        let phoneFirst = try #require(DailyCalculator.sleepSummary(HealthSourcePriority(order: [phone]).resolveSleep(both), quality: nil))
        #expect(phoneFirst.inBedHours == 8.5 && phoneFirst.asleepHours == 7.5, "\(phoneFirst)")
    }

    /// Seed 004 F2 "Time Slept": a bed and wake time the user sets stand for the recorded time
    /// in bed; recovery follows; the recorded stages still estimate the quality.
    @Test func aBedAndWakeTimeSetByTheUserStandForTheRecordedNight() throws {
        let night = [Self.sleep(.inBed, from: -1.5, to: 6), Self.sleep(.core, from: -1, to: 5.5)]
        // 23:10 → 07:05 on the clock: bed the evening before, 7 h 55 min.
        let manual = try ManualSleep.night(bedMinute: 23 * 60 + 10, wakeMinute: 7 * 60 + 5, day: Self.day, utcOffsetSeconds: 0).get()
        #expect(manual.bedTime == Self.midnight.addingTimeInterval(-50 * 60) && manual.wakeTime == Self.midnight.addingTimeInterval(7 * 3600 + 5 * 60))
        let set = try #require(DailyCalculator.sleepSummary(night, quality: 8, manual: manual))
        #expect(set.inBedHours == 7.92 && set.asleepHours == nil && set.timeSource == "entered" && set.recordedInBedHours == 7.5)
        #expect(set.recoveryPercent == 79.2, "7.92 h × 8/10 ÷ 8 × 100")
        // Without a rating the recorded night's share asleep is the quality (6.5 / 7.5 → 9).
        #expect(DailyCalculator.sleepSummary(night, quality: nil, manual: manual)?.quality == 9)
        // A night with nothing recorded: the user's times alone (quality 8 until rated).
        let alone = try #require(DailyCalculator.sleepSummary([], quality: nil, manual: manual))
        #expect(alone.inBedHours == 7.92 && alone.quality == 8 && alone.recordedInBedHours == nil)
        // 01:30 → 09:00: bed on the same day; 21:00 → 08:00 is 11 h: at quality 10, 137.5 % (not capped).
        let late = try ManualSleep.night(bedMinute: 90, wakeMinute: 540, day: Self.day, utcOffsetSeconds: 3600).get()
        #expect(late.bedTime == Self.midnight.addingTimeInterval(30 * 60) && late.seconds == 7.5 * 3600)
        let long = try ManualSleep.night(bedMinute: 21 * 60, wakeMinute: 8 * 60, day: Self.day, utcOffsetSeconds: 0).get()
        #expect(DailyCalculator.sleepSummary(night, quality: 10, manual: long)?.recoveryPercent == 137.5)
        // Refused with the reason.
        #expect(ManualSleep.night(bedMinute: 420, wakeMinute: 420, day: Self.day, utcOffsetSeconds: 0) == .failure(.sameTime))
        #expect(ManualSleep.night(bedMinute: 60, wakeMinute: 19 * 60, day: Self.day, utcOffsetSeconds: 0) == .failure(.wakeTooLate))
        #expect(ManualSleep.night(bedMinute: 10 * 60, wakeMinute: 9 * 60, day: Self.day, utcOffsetSeconds: 0) == .failure(.tooLong(hours: 23)))
        #expect(ManualSleep.night(bedMinute: -1, wakeMinute: 9 * 60, day: Self.day, utcOffsetSeconds: 0) == .failure(.outOfRange))
        // The day's summary takes it through its input.
        let day = DailyCalculator.summary(DailyInput(day: Self.day, utcOffsetSeconds: 0, sleep: night, manualSleep: manual))
        #expect(day.hasData && day.sleep?.timeSource == "entered" && day.sleep?.inBedHours == 7.92)
    }

    @Test func theDaysLastReadingIsItsCurrentHeartRate() {
        let day = DailyCalculator.summary(
            DailyInput(day: Self.day, utcOffsetSeconds: 0, heartRate: [Self.sample(.heartRate, 7200, 61), Self.sample(.heartRate, 50_000, 74), Self.sample(.heartRate, 3600, 58)]))
        #expect(day.heartRate?.latest == 74 && day.heartRate?.latestAt == Self.midnight.addingTimeInterval(50_000))
    }

    @Test func aDaysSummaryDoesNotDependOnTheOrderOfItsSamples() {
        var heart = [HealthSample]()
        for minute in stride(from: 0, to: 1440, by: 5) {
            heart.append(Self.sample(.heartRate, Double(minute * 60), minute < 360 ? 55 : (minute >= 1020 && minute < 1065 ? 150 : 72)))
        }
        let input = { (samples: [HealthSample]) in
            DailyInput(
                day: Self.day, utcOffsetSeconds: 0, heartRate: samples, restingHeartRate: [Self.sample(.restingHeartRate, 0, 52)],
                hrv: [Self.sample(.heartRateVariabilitySDNN, 25_200, 45)], steps: [Self.sample(.steps, 32_400, 1000), Self.sample(.steps, 46_800, 2000)],
                sleep: [Self.sleep(.inBed, from: -1.5, to: 6)],
                workouts: [(id: "run", name: "running", start: Self.midnight.addingTimeInterval(61_200), end: Self.midnight.addingTimeInterval(63_900))],
                profileMaximumHeartRate: 190, sex: .female)
        }
        let reference = DailyCalculator.summary(input(heart))
        #expect(reference.hasData && reference.steps == 3000 && reference.restingHeartRate == 52 && reference.hrvSDNNMilliseconds == 45)
        #expect(reference.rise?.workouts.first?.intensity ?? 0 > 0 && reference.load.trimp > 0)
        var random = SplitMix64(seed: 11)
        for _ in 0..<5 {
            #expect(DailyCalculator.summary(input(heart.shuffled(using: &random))) == reference)
        }
    }

    @Test func theMaximumLooksBackSixMonthsAndTheLoadBuildsFromHistory() {
        func past(_ daysAgo: Int, maximum: Double, trimp: Double) -> DailySummary {
            var summary = DailyCalculator.summary(
                DailyInput(
                    day: Self.day.adding(days: -daysAgo), utcOffsetSeconds: 0,
                    heartRate: [Self.sample(.heartRate, 0, maximum)]))
            summary.load.trimp = trimp
            return summary
        }
        let history = [past(200, maximum: 201, trimp: 0), past(100, maximum: 195, trimp: 50)] + (1...42).reversed().map { past($0, maximum: 150, trimp: 60) }
        let today = DailyCalculator.summary(DailyInput(day: Self.day, utcOffsetSeconds: 0, heartRate: [Self.sample(.heartRate, 3600, 70)], history: history))
        #expect(today.maximumHeartRate == 195, "200 days ago is older than six months; 100 days ago is not")
        #expect(today.load.chronic > 30 && today.load.acute > 40, "\(today.load)")
        #expect(today.load.historyDays == 100, "the first day with load was 100 days ago")
        // Issue 41: one first run, no history: a ratio (of 2.6) but no history to judge it by.
        let first = DailyCalculator.summary(DailyInput(day: Self.day, utcOffsetSeconds: 0, history: [past(3, maximum: 150, trimp: 90)]))
        #expect((first.load.ratio ?? 0) > 2 && first.load.historyDays == 3 && 3 < TrainingLoad.minimumHistoryDays, "\(first.load)")
        // A profile maximum above what the watch saw is kept; none at all leaves RISE out.
        #expect(
            DailyCalculator.summary(DailyInput(day: Self.day, utcOffsetSeconds: 0, heartRate: [Self.sample(.heartRate, 0, 70)], profileMaximumHeartRate: 200)).maximumHeartRate
                == 200)
        let empty = DailyCalculator.summary(DailyInput(day: Self.day, utcOffsetSeconds: 0))
        #expect(!empty.hasData && empty.rise == nil && empty.readiness.reason == "no data for this day")
    }
}
