import HeartworkCore
import Testing

@Suite("Heart-rate streams")
struct HeartRateSeriesTests {
    private func reading(_ time: Double, _ bpm: Double) -> TimedHeartRate {
        TimedHeartRate(timeSeconds: time, beatsPerMinute: bpm)
    }

    @Test func irregularReadingsLandOnTheOneHertzGrid() throws {
        let readings = [
            reading(0.2, 100), reading(0.9, 101), reading(2.1, 102), reading(3.0, 103), reading(3.99, 104),
        ]
        let series = try HeartRateSeries.resampling(readings, originSeconds: 0)
        // second 0 keeps its last reading (101), second 1 holds it, 2 → 102, 3 → last in bin (104).
        #expect(series.beatsPerMinute == [101, 101, 102, 104])
        // By default the grid starts at the first reading: bins [0.2, 1.2), [1.2, 2.2) …
        let fromFirst = try HeartRateSeries.resampling(readings)
        #expect(fromFirst.originSeconds == 0.2)
        #expect(fromFirst.beatsPerMinute == [101, 102, 103, 104])
    }

    @Test func gapsHoldTheLastValueForFiveSecondsThenGoMissing() throws {
        let series = try HeartRateSeries.resampling([reading(0, 120), reading(10, 130)], originSeconds: 0)
        #expect(series.beatsPerMinute == [120, 120, 120, 120, 120, 120, nil, nil, nil, nil, 130])
    }

    @Test func zeroBeatsPerMinuteIsALossOfContactNotAValue() throws {
        let series = try HeartRateSeries.resampling([reading(0, 120), reading(1, 0), reading(2, 0), reading(3, 125)])
        #expect(series.beatsPerMinute == [120, nil, nil, 125])
    }

    @Test func badReadingsAreNamed() {
        #expect(throws: HeartRateStreamError.timeGoesBackwards(index: 1, timeSeconds: 4, previousSeconds: 5)) {
            try HeartRateSeries.resampling([reading(5, 100), reading(4, 100)])
        }
        #expect(throws: HeartRateStreamError.implausibleHeartRate(index: 0, beatsPerMinute: 400)) {
            try HeartRateSeries.resampling([reading(0, 400)])
        }
        #expect(throws: HeartRateStreamError.beforeOrigin(index: 0, timeSeconds: 1, originSeconds: 2)) {
            try HeartRateSeries.resampling([reading(1, 100)], originSeconds: 2)
        }
        #expect(throws: HeartRateStreamError.self) {
            try HeartRateSeries.resampling([reading(.infinity, 100)])
        }
    }

    @Test func fittingLocksTheDuration() {
        let series = HeartRateSeries(beatsPerMinute: [100, 101, 102])
        #expect(series.fitted(toSeconds: 2).beatsPerMinute == [100, 101])
        #expect(series.fitted(toSeconds: 5).beatsPerMinute == [100, 101, 102, nil, nil])
    }

    /// Hand calculation: values 100, 110, 120 → mean 110, sample SD 10.
    @Test func summaryStatistics() throws {
        let summary = try #require(HeartRateSummary(HeartRateSeries(beatsPerMinute: [100, nil, 110, 120])))
        #expect(summary.durationSeconds == 4)
        #expect(summary.secondsWithReading == 3)
        #expect(summary.minimumBPM == 100 && summary.maximumBPM == 120)
        #expect(summary.meanBPM == 110)
        #expect(abs(summary.standardDeviationBPM - 10) < 1e-12)
        #expect(HeartRateSummary(HeartRateSeries(beatsPerMinute: [nil, nil])) == nil)
    }

    /// seed-000 §3.11: the mean of a 20-second reading; readings after 20 s are ignored.
    @Test func restingHeartRateIsTheMeanOfTwentySeconds() throws {
        let readings = (0..<25).map { second -> TimedHeartRate in
            let bpm: Double = second < 20 ? Double(60 + second % 2) : 90
            return reading(Double(second), bpm)
        }
        #expect(try RestingHeartRate.measure(readings) == 60.5)
        #expect(throws: HeartRateStreamError.tooShort(seconds: 10, required: 20)) {
            try RestingHeartRate.measure((0..<10).map { reading(Double($0), 60) })
        }
        let withDropout = (0..<20).map { second -> TimedHeartRate in
            let bpm: Double = (5..<12).contains(second) ? 0 : 60
            return reading(Double(second), bpm)
        }
        #expect(throws: HeartRateStreamError.gapInReading(second: 5)) { try RestingHeartRate.measure(withDropout) }
    }
}
