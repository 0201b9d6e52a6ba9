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
        #expect(stagesOnly?.inBedHours == 8 && stagesOnly?.quality == 10 && stagesOnly?.recoveryPercent == 100, "capped at 100 %")
        #expect(DailyCalculator.sleepSummary([], quality: 8) == nil)
        // The night of a day ends between 18:00 the evening before and 18:00 on the day.
        let window = DailyCalculator.nightWindow(Self.day, utcOffsetSeconds: 3600)
        #expect(window.lowerBound == Self.midnight.addingTimeInterval(-7 * 3600) && window.upperBound == Self.midnight.addingTimeInterval(17 * 3600))
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
        // A profile maximum above what the watch saw is kept; none at all leaves RISE out.
        #expect(
            DailyCalculator.summary(DailyInput(day: Self.day, utcOffsetSeconds: 0, heartRate: [Self.sample(.heartRate, 0, 70)], profileMaximumHeartRate: 200)).maximumHeartRate
                == 200)
        let empty = DailyCalculator.summary(DailyInput(day: Self.day, utcOffsetSeconds: 0))
        #expect(!empty.hasData && empty.rise == nil && empty.readiness.reason == "no data for this day")
    }
}
