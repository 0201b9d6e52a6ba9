import Foundation
import HeartworkCore
import HeartworkTestSupport
import Testing

/// A range's heart rate (issue 24): seed 003's "minimum, maximum and average calculations for a
/// period of time", the average over time with gaps capped at 10 minutes, the series per
/// second, minute or hour; and the anomaly detector's two corrections.
@Suite("Heart-rate ranges and the detector's corrections")
struct HeartRateRangeTests {
    /// 2026-11-20T00:00:00Z: on the hour.
    static let t0 = Date(timeIntervalSince1970: 1_795_132_800)

    static func sample(_ seconds: Double, _ bpm: Double) -> HealthSample {
        let time = t0.addingTimeInterval(seconds)
        return HealthSample(kind: .heartRate, start: time, end: time, utcOffsetSeconds: 0, value: bpm, source: "Watch")
    }

    /// 60 bpm for a minute, 120 until the next reading an hour later (capped at 10 minutes),
    /// then 90 for 10 minutes: (60·60 + 120·600 + 90·600) / 1260 s.
    @Test func theAverageIsOverTimeAndAGapCountsAtMostTenMinutes() {
        let samples = [Self.sample(0, 60), Self.sample(60, 120), Self.sample(3660, 90)]
        let range = HeartRateRange.summarize(samples, from: Self.t0, to: Self.t0.addingTimeInterval(7200), bucketSeconds: 3600)
        #expect(range.minimum == 60 && range.maximum == 120 && range.samples == 3)
        let average: Double = (60 * 60 + 120 * 600 + 90 * 600) / 1260
        #expect(range.average == (average * 10).rounded() / 10)
        #expect(range.coveredSeconds == 1260)
        #expect(range.buckets.count == 2)
        let first: Double = (60 * 60 + 120 * 600) / 660
        #expect(range.buckets[0].average == (first * 10).rounded() / 10 && range.buckets[0].coveredSeconds == 660)
        #expect(range.buckets[1].start == Self.t0.addingTimeInterval(3600) && range.buckets[1].average == 90 && range.buckets[1].minimum == 90)
        let perMinute = HeartRateRange.summarize(samples, from: Self.t0, to: Self.t0.addingTimeInterval(7200), bucketSeconds: 60)
        #expect(perMinute.buckets.count == 1 + 10 + 10, "a reading fills the minutes it stands for")
        #expect(perMinute.average == range.average, "the range's figures do not depend on the resolution")
    }

    /// The seed's `.strictStartDate`: a sample belongs to the range it starts in; the one after
    /// the range ends the last one's time; nothing counts past the range's end.
    @Test func aSampleBelongsToTheRangeItStartsIn() {
        let samples = [Self.sample(-30, 200), Self.sample(0, 60), Self.sample(120, 80), Self.sample(200, 40)]
        let range = HeartRateRange.summarize(samples, from: Self.t0, to: Self.t0.addingTimeInterval(150), bucketSeconds: 1)
        #expect(range.samples == 2 && range.minimum == 60 && range.maximum == 80)
        // 60 for 120 s; 80 from 120 s until the range ends at 150 s.
        #expect(range.coveredSeconds == 150 && range.buckets.count == 150)
        let average: Double = (60 * 120 + 80 * 30) / 150
        #expect(range.average == (average * 10).rounded() / 10)
        #expect(HeartRateRange.summarize([], from: Self.t0, to: Self.t0.addingTimeInterval(60), bucketSeconds: 1).average == nil)
        #expect(HeartRateRange.summarize(samples, from: Self.t0, to: Self.t0, bucketSeconds: 1).buckets.isEmpty)
    }

    /// Health Auto Export's per-minute entries (value = the minute's average): a day of them
    /// is 24 hourly buckets of 60 minutes; per second, 86,400 buckets.
    @Test func perMinuteEntriesMakeADay() {
        let samples = (0..<1440).map { Self.sample(Double($0) * 60, $0 % 2 == 0 ? 60 : 70) }
        let hours = HeartRateRange.summarize(samples, from: Self.t0, to: Self.t0.addingTimeInterval(86_400), bucketSeconds: 3600)
        #expect(hours.buckets.count == 24 && hours.buckets.allSatisfy { $0.average == 65 && $0.coveredSeconds == 3600 && $0.minimum == 60 && $0.maximum == 70 })
        let seconds = HeartRateRange.summarize(samples, from: Self.t0, to: Self.t0.addingTimeInterval(86_400), bucketSeconds: 1)
        #expect(seconds.buckets.count == 86_400 && seconds.average == 65)
    }

    /// A 20-minute walk of 2,000 steps in one sample is 500 steps in each of its four 5-minute
    /// slots: all four are activity, not only the first.
    @Test func aStepSampleIsSpreadOverTheTimeItCovers() {
        let detector = HeartRateAnomalyDetector()
        let readings = (0..<12).map { TimedHeartRate(timeSeconds: Double($0) * 300 + 10, beatsPerMinute: 90) }
        let walk = detector.resample(heartRate: readings, steps: [(startSeconds: 600, endSeconds: 1800, count: 2000)], from: 0, to: 3600)
        #expect(walk.map { $0 == nil } == [false, false, true, true, true, true, false, false, false, false, false, false])
        // The same steps at an instant are one slot's.
        let instant = detector.resample(heartRate: readings, steps: [(startSeconds: 600, endSeconds: 600, count: 2000)], from: 0, to: 3600)
        #expect(instant.map { $0 == nil } == [false, false, true, false, false, false, false, false, false, false, false, false])
        // An hour's 1,000 steps from a phone are 83 a slot: at rest.
        let phone = detector.resample(heartRate: readings, steps: [(startSeconds: 0, endSeconds: 3600, count: 1000)], from: 0, to: 3600)
        #expect(phone.allSatisfy { $0 != nil })
        // A sample reaching outside the grid counts only its share inside it; nonsense is ignored.
        let outside = detector.resample(
            heartRate: readings,
            steps: [(startSeconds: -1e300, endSeconds: 1e300, count: 100), (startSeconds: 3000, endSeconds: 4200, count: 880), (startSeconds: .nan, endSeconds: 1, count: 5)],
            from: 0, to: 3600)
        #expect(outside.count == 12 && outside[9] == 90 && outside[10] == nil && outside[11] == nil)
    }

    /// The day is tested by a model fitted on the days before it: whatever the day holds, the
    /// model is the same, and only the day's anomalies are given.
    @Test func theDayIsTestedByAModelOfTheDaysBefore() throws {
        var random = SplitMix64(seed: 24)
        let detector = HeartRateAnomalyDetector()
        let before = (0..<(7 * 288)).map { _ in 60 + random.nextGaussian() * 1.5 }
        let quiet = (0..<288).map { _ in 60 + random.nextGaussian() * 1.5 }
        var feverish = quiet
        for i in 100..<200 { feverish[i] += 20 }  // a day-long rise would be the day's normal were it fitted on
        let a = try #require(detector.anomalies(in: (before + quiet).map(Optional.some), start: 0, testingFrom: before.count))
        let b = try #require(detector.anomalies(in: (before + feverish).map(Optional.some), start: 0, testingFrom: before.count))
        #expect(a.model == b.model && a.model == detector.fit(before.map(Optional.some)))
        #expect(b.anomalies.contains { abs($0.startSeconds - Double(before.count + 100) * 300) <= 600 })
        #expect((a.anomalies + b.anomalies).allSatisfy { $0.startSeconds >= Double(before.count) * 300 })
        #expect(detector.anomalies(in: quiet.map(Optional.some), start: 0, testingFrom: 0) == nil, "no days before, no model")
    }
}
