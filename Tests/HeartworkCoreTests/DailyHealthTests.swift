import Foundation
import HeartworkCore
import Testing

/// RISE's daily metrics (seed 004), readiness, training load and the anomaly detector (issue 11).
@Suite("Daily health: RISE, readiness, load, anomalies")
struct DailyHealthTests {
    // MARK: RISE

    @Test func recoveryMatchesTheDigestsWorkedExampleAndIsNotCapped() {
        // seed-004 digest §3.1: 7.5 h in bed, quality 8/10 → 7.5 × 0.8 / 8 × 100 = 75 %.
        #expect(RISE.recoveryPercent(hoursInBed: 7.5, quality: 8) == 75)
        // §7.3: "9 h at 100% gives 112.5%" — the seed's formula has no cap, and issue 25 asks for it as the seed computes it.
        #expect(RISE.recoveryPercent(hoursInBed: 9, quality: 10) == 112.5)
        #expect(RISE.recoveryPercent(hoursInBed: 10, quality: 10) == 125, "§3.1 [GAP]: 10 h × 100 % / 8 = 125 %")
        #expect(RISE.recoveryPercent(hoursInBed: 8, quality: 10) == 100)
        #expect(RISE.recoveryPercent(hoursInBed: 4, quality: 5) == 25)
        #expect(RISE.recoveryPercent(hoursInBed: 7, quality: 0) == nil)
        #expect(RISE.recoveryPercent(hoursInBed: 7, quality: 11) == nil)
        #expect(RISE.recoveryPercent(hoursInBed: .nan, quality: 5) == nil)
        #expect(RISE.recoveryPercent(hoursInBed: -1, quality: 5) == nil)
    }

    @Test func theEstimatedSleepQualityIsTheShareAsleep() {
        #expect(RISE.estimatedSleepQuality(inBedSeconds: 8 * 3600, asleepSeconds: 7.2 * 3600) == 9)
        #expect(RISE.estimatedSleepQuality(inBedSeconds: 8 * 3600, asleepSeconds: 0) == 1)
        #expect(RISE.estimatedSleepQuality(inBedSeconds: 8 * 3600, asleepSeconds: 9 * 3600) == 10)
        #expect(RISE.estimatedSleepQuality(inBedSeconds: 8 * 3600, asleepSeconds: nil) == 8)
    }

    @Test func intensityPassesThroughTheSeedsThreeAnchors() {
        // seed-004 digest §3.2: 30 minutes light (1 point/min) → 1, moderate (2) → 5, extreme (8) → 10.
        #expect(RISE.intensity(points: 30) == 1)
        #expect(RISE.intensity(points: 60) == 5)
        #expect(RISE.intensity(points: 240) == 10)
        // Piecewise linear in log2: 120 points lies halfway between 60 and 240.
        #expect(RISE.intensity(points: 120) == 7.5)
        #expect(RISE.intensity(points: 1) == 0)
        #expect(RISE.intensity(points: 0) == 0)
        #expect(RISE.intensity(points: 10_000) == 10)
        #expect(RISE.intensity(points: .infinity) == 0)
        // Monotone between the anchors.
        var previous = -1.0
        for points in stride(from: 1.0, through: 400, by: 0.5) {
            let value = RISE.intensity(points: points)
            #expect(value >= previous)
            previous = value
        }
    }

    @Test func strainMatchesTheSeedsExample() {
        // seed-004 Figure-5: (9.8 Lacrosse + 6.0 Weight Lifting + 1.0 Cleaning)/2 − 4 h sitting/4 = 7.4.
        #expect(RISE.strain(workoutIntensities: [9.8, 6.0, 1.0], elevatedIntensity: 0, inactiveHours: 4) == 7.4)
        #expect(RISE.strain(workoutIntensities: [], elevatedIntensity: 0, inactiveHours: 4) == 0, "clamped at 0")
        #expect(RISE.strain(workoutIntensities: [10, 10, 10], elevatedIntensity: 5, inactiveHours: 0) == 10, "clamped at 10")
    }

    /// A day with known answers: 30 min light effort outside workouts, a 30-min workout at 90 %
    /// of the maximum (vigorous, 4 points a minute), then 4 h sitting.
    static func knownDay() -> (samples: [TimedHeartRate], workouts: [RISE.Workout]) {
        var samples = [TimedHeartRate]()
        let h = 3600.0
        for s in stride(from: 8 * h, to: 8.5 * h, by: 60) { samples.append(.init(timeSeconds: s, beatsPerMinute: 100)) }  // 50 %: light
        samples.append(.init(timeSeconds: 8.5 * h, beatsPerMinute: 50))  // below rest: counts as nothing
        for s in stride(from: 9 * h, to: 9.5 * h, by: 5) { samples.append(.init(timeSeconds: s, beatsPerMinute: 180)) }  // 90 %: vigorous
        samples.append(.init(timeSeconds: 9.5 * h, beatsPerMinute: 50))
        for s in stride(from: 10 * h, to: 14 * h, by: 300) { samples.append(.init(timeSeconds: s, beatsPerMinute: 80)) }  // 40 %: inactive
        samples.append(.init(timeSeconds: 14 * h, beatsPerMinute: 50))
        return (samples, [RISE.Workout(id: "w1", name: "Lacrosse", startSeconds: 9 * h, endSeconds: 9.5 * h)])
    }

    @Test func aDaysMetricsFromItsSamples() {
        let (samples, workouts) = Self.knownDay()
        let day = RISE.day(samples: samples, workouts: workouts, restingHeartRate: 60, maximumHeartRate: 200)
        #expect(day.workouts.first?.points == 120)
        #expect(day.workouts.first?.intensity == 7.5)
        #expect(day.workouts.first?.minutesInZones == [0, 0, 30, 0])
        #expect(day.elevatedPoints == 30 && day.elevatedIntensity == 1 && day.elevatedHours == 0.5)
        #expect(day.inactiveHours == 4)
        // (7.5 + 1)/2 = 4.25 after the workout; − 4/4 after the sitting: 3.25.
        #expect(day.maximumStrain == 4.3)
        #expect(day.strain == 3.3)
    }

    @Test func aDaysMetricsDoNotDependOnTheOrderOfItsSamples() {
        let (samples, workouts) = Self.knownDay()
        let reference = RISE.day(samples: samples, workouts: workouts, restingHeartRate: 60, maximumHeartRate: 200)
        var random = SplitMix64(seed: 11)
        for _ in 0..<5 {
            let shuffled = samples.shuffled(using: &random)
            #expect(RISE.day(samples: shuffled, workouts: workouts, restingHeartRate: 60, maximumHeartRate: 200) == reference)
        }
        // Samples outside the day, and nonsense, are left out.
        let noisy =
            samples + [
                .init(timeSeconds: -5, beatsPerMinute: 190), .init(timeSeconds: 90_000, beatsPerMinute: 190),
                .init(timeSeconds: .nan, beatsPerMinute: 100), .init(timeSeconds: 20 * 3600, beatsPerMinute: .infinity),
            ]
        #expect(RISE.day(samples: noisy, workouts: workouts, restingHeartRate: 60, maximumHeartRate: 200) == reference)
        let empty = RISE.day(samples: [], workouts: [], restingHeartRate: 60, maximumHeartRate: 200)
        #expect(empty.strain == 0 && empty.coveredSeconds == 0)
        #expect(RISE.day(samples: samples, workouts: workouts, restingHeartRate: 60, maximumHeartRate: 0).coveredSeconds == 0)
    }

    @Test func theWeeklyAverageCountsOnlyDaysWithAValue() {
        #expect(RISE.weeklyAverage([75, nil, 85, nil, nil, nil, 80]) == 80)
        #expect(RISE.weeklyAverage([nil, nil]) == nil)
    }

    // MARK: Readiness

    static func days(count: Int, hrv: (Int) -> Double, resting: (Int) -> Double = { _ in 55 }) -> [Readiness.DayValues] {
        (0..<count).map { Readiness.DayValues(hrvMilliseconds: hrv($0), restingHeartRate: resting($0)) }
    }

    @Test func readinessComparesTheWeekWithTheNormalBand() {
        var random = SplitMix64(seed: 5)
        let noise = (0..<67).map { _ in random.nextGaussian() * 0.15 }
        let normal = Readiness.assess(Self.days(count: 67, hrv: { exp(log(50) + noise[$0]) }))
        #expect(normal.status == .normal, "\(normal.reason)")
        let low = Readiness.assess(Self.days(count: 67, hrv: { exp(log(50) + noise[$0] - ($0 >= 60 ? 0.5 : 0)) }))
        #expect(low.status == .strained)
        #expect(low.inputs.first?.reason.contains("below your normal band") == true, "\(low.reason)")
        #expect(low.inputs.first?.band != nil)
        let high = Readiness.assess(Self.days(count: 67, hrv: { exp(log(50) + noise[$0] + ($0 >= 60 ? 0.5 : 0)) }))
        #expect(high.status == .ready)
        let feverish = Readiness.assess(Self.days(count: 67, hrv: { exp(log(50) + noise[$0]) }, resting: { $0 == 66 ? 64 : 55 }))
        #expect(feverish.status == .strained)
        #expect(feverish.inputs.last?.reason.contains("more than 5 above your 30-day baseline 55") == true, "\(feverish.reason)")
    }

    @Test func readinessSaysWhatItLacksAndHonoursMarks() {
        let young = Readiness.assess(Self.days(count: 5, hrv: { _ in 50 }))
        #expect(young.status == .unknown)
        #expect(young.inputs.first?.reason == "your normal band is learnt from 14 days with HRV: 5 so far")
        #expect(Readiness.assess([]).status == .unknown)
        var sick = Self.days(count: 67, hrv: { _ in 50 })
        sick[66].mark = .sick
        let result = Readiness.assess(sick)
        #expect(result.status == .sick && result.reason.contains("marked this day sick"))
    }

    // MARK: Training load

    @Test func trainingLoadIsExponentiallyWeighted() {
        let points = TrainingLoad.series(dailyTRIMP: Array(repeating: 100, count: 300))
        // First day: λ = 2/8 and 2/43 (Williams et al. 2017).
        #expect(points[0].acute == 25 && points[0].chronic == 4.7)
        #expect(abs(points[299].acute - 100) < 0.1 && abs(points[299].chronic - 100) < 0.1 && abs(points[299].balance) < 0.2)
        let rest = TrainingLoad.series(dailyTRIMP: Array(repeating: 100, count: 100) + Array(repeating: 0, count: 10))
        #expect(rest[109].balance > 0, "a rest week leaves one fresher")
        #expect(TrainingLoad.series(dailyTRIMP: [.nan, -5])[1].acute == 0)
    }

    // MARK: Anomalies

    /// A week of resting heart rate every 5 min (an AR(1) process around 60 bpm), with 12
    /// injected half-hour rises of 15 bpm and 6 rises explained by steps.
    @Test func theDetectorFindsInjectedAnomaliesAndNotExplainedOnes() throws {
        var random = SplitMix64(seed: 2026)
        let slots = 7 * 288
        var values = [Double](repeating: 60, count: slots)
        for i in 1..<slots { values[i] = 60 + 0.7 * (values[i - 1] - 60) + random.nextGaussian() * 1.5 }
        var injected = [Int]()
        var explained = [Int]()
        for k in 0..<18 {
            let start = 3 * 288 + 20 + k * 50
            for i in start..<(start + 6) { values[i] += 15 }
            if k % 3 == 2 { explained.append(start) } else { injected.append(start) }
        }
        let readings = values.enumerated().map { TimedHeartRate(timeSeconds: Double($0.offset) * 300 + 10, beatsPerMinute: $0.element) }
        let steps: [(startSeconds: Double, endSeconds: Double, count: Double)] = explained.flatMap { start in
            (start..<(start + 6)).map { slot in
                let at = Double(slot) * 300 + 60
                return (startSeconds: at, endSeconds: at, count: 400.0)
            }
        }
        let detector = HeartRateAnomalyDetector()
        let series = detector.resample(heartRate: readings, steps: steps, from: 0, to: Double(slots) * 300)
        #expect(series.count == slots)
        let model = try #require(detector.fit(Array(series.prefix(3 * 288))))
        #expect(abs(model.coefficients[0] - 0.7) < 0.15, "the AR(1) coefficient is found: \(model.coefficients)")
        let anomalies = detector.detect(series, model: model, start: 0)
        let found = injected.filter { start in anomalies.contains { abs($0.startSeconds - Double(start) * 300) <= 600 } }
        let falseAlarms = anomalies.filter { a in !injected.contains { abs(a.startSeconds - Double($0) * 300) <= 600 } }
        let sensitivity = Double(found.count) / Double(injected.count)
        print("anomaly detector: sensitivity \(found.count)/\(injected.count) = \(sensitivity), false alarms \(falseAlarms.count) in \(slots - 3 * 288) slots")
        #expect(sensitivity >= 0.9)
        #expect(falseAlarms.count <= 1)
        #expect(anomalies.allSatisfy { $0.slots >= 3 && $0.reason.contains("above") })
        #expect(!anomalies.contains { a in explained.contains { abs(a.startSeconds - Double($0) * 300) <= 600 } }, "steps explain a rise")
    }

    @Test func theDetectorNeedsEnoughDataAndSurvivesNonsense() {
        let detector = HeartRateAnomalyDetector(order: 3)
        #expect(detector.fit([60, 61, 62]) == nil)
        #expect(detector.fit(Array(repeating: nil, count: 500)) == nil)
        let flat = detector.fit(Array(repeating: 60.0, count: 500))
        #expect(flat != nil, "a flat series is solvable")
        #expect(detector.resample(heartRate: [], from: 10, to: 5).isEmpty)
        let odd = HeartRateAnomalyDetector(order: -3, bandSD: .nan, consecutive: 0, intervalSeconds: 0)
        #expect(odd.order == 1 && odd.bandSD == 3 && odd.consecutive == 1 && odd.intervalSeconds == 300)
    }
}

/// Several devices, one truth (issue 11): exact repeats are stored once; the source priority
/// picks one value per overlapping interval, whatever order the files came in.
@Suite("Health samples from several sources")
struct HealthSampleMergeTests {
    static let t0 = Date(timeIntervalSince1970: 1_774_594_800)

    static func steps(_ minute: Int, _ length: Int, _ value: Double, _ source: String, device: String? = nil) -> HealthSample {
        HealthSample(
            kind: .steps, start: t0.addingTimeInterval(Double(minute * 60)), end: t0.addingTimeInterval(Double((minute + length) * 60)),
            utcOffsetSeconds: 3600, value: value, source: source, device: device)
    }

    @Test func exactRepeatsAreStoredOnce() {
        let a = [Self.steps(0, 10, 800, "Anna’s iPhone"), Self.steps(0, 10, 790, "Anna’s Apple Watch")]
        let first = HealthSampleMerge.union([], a)
        #expect(first.added == 2)
        let again = HealthSampleMerge.union(first.samples, a)
        #expect(again.added == 0 && again.samples == first.samples)
    }

    @Test func theWatchOutranksThePhoneAndTheUserCanChangeIt() {
        let samples = [
            Self.steps(0, 10, 812, "Anna’s iPhone"), Self.steps(0, 10, 790, "Anna’s Apple Watch"),
            Self.steps(5, 10, 300, "Anna’s iPhone"),  // overlaps the watch's: left out
            Self.steps(20, 5, 100, "Anna’s iPhone"),
        ]  // the watch recorded nothing then: kept
        let resolved = HealthSourcePriority().resolve(samples)
        #expect(resolved.map(\.value) == [790, 100])
        let phoneFirst = HealthSourcePriority(order: ["Anna’s iPhone"]).resolve(samples)
        #expect(phoneFirst.map(\.value) == [812, 300, 100], "the phone's own samples never displace each other")
        // Instants: two straps at the same second give one reading; a second apart, both.
        let hr = { (second: Double, bpm: Double, source: String) in
            HealthSample(
                kind: .heartRate, start: Self.t0.addingTimeInterval(second), end: Self.t0.addingTimeInterval(second),
                utcOffsetSeconds: 0, value: bpm, source: source, device: source)
        }
        let beats = HealthSourcePriority().resolve([hr(0, 70, "Polar H10"), hr(0, 72, "Apple Watch"), hr(3, 75, "Polar H10")])
        #expect(beats.map(\.value) == [72, 75])
    }

    @Test func theResultDoesNotDependOnImportOrder() {
        var random = SplitMix64(seed: 99)
        let sources = ["Apple Watch", "iPhone", "Garmin", "Oura"]
        let all = (0..<200).map { _ in
            Self.steps(Int(random.next() % 600), 1 + Int(random.next() % 30), Double(random.next() % 1000), sources[Int(random.next() % 4)])
        }
        let reference = HealthSourcePriority().resolve(HealthSampleMerge.union([], all).samples)
        for _ in 0..<10 {
            let shuffled = all.shuffled(using: &random)
            let cut = Int(random.next() % UInt64(all.count))
            let merged = HealthSampleMerge.union(HealthSampleMerge.union([], Array(shuffled[..<cut])).samples, Array(shuffled[cut...]))
            #expect(HealthSourcePriority().resolve(merged.samples) == reference)
        }
        // What stands never overlaps across sources.
        for (i, a) in reference.enumerated() {
            for b in reference[(i + 1)...] where a.source != b.source {
                #expect(!(a.start < b.end && b.start < a.end))
            }
        }
    }
}
