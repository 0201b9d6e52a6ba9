import Foundation
import HeartworkCore
import Testing

/// Banister TRIMP and a player's part of a team session (issue 9). Golden values are worked
/// from the published formula by hand (Banister 1991; constants from Morton, Fitz-Clarke &
/// Banister 1990: men k = 0.64, b = 1.92; women k = 0.86, b = 1.67).
@Suite("Team session analysis")
struct TeamSessionAnalysisTests {
    let profile = try! ZoneProfile(restingHeartRate: 60, maximumHeartRate: 190)

    @Test func banisterTRIMPFollowsThePublishedFormula() {
        let men = BanisterTRIMP(profile: profile, sex: .male)
        // HRr = (150 − 60) / 130 = 0.692308; 10 min · 0.692308 · 0.64 · e^(1.92 · 0.692308)
        // = 16.7400 (evaluated with Python's math.exp).
        #expect(abs(men.impulse(beatsPerMinute: 150, seconds: 600) - 16.7400) < 0.001)
        let women = BanisterTRIMP(profile: profile, sex: .female)
        // 10 · 0.692308 · 0.86 · e^(1.67 · 0.692308) = 18.9195 (the same way).
        #expect(abs(women.impulse(beatsPerMinute: 150, seconds: 600) - 18.9195) < 0.001)
        #expect(BanisterTRIMP(profile: profile, sex: nil).k == 0.64, "unknown sex: the men's constants")
        #expect(men.impulse(beatsPerMinute: 50, seconds: 600) == 0, "below rest adds nothing")
        #expect(men.impulse(beatsPerMinute: 230, seconds: 60) == men.impulse(beatsPerMinute: 190, seconds: 60), "above the maximum counts as the maximum")
        #expect(men.impulse(beatsPerMinute: .nan, seconds: 60) == 0 && men.impulse(beatsPerMinute: 150, seconds: -5) == 0)
    }

    func readings(_ bpm: [Int?], start: Int = 1_000_000, stepMilliseconds: Int = 1000) -> [SensorReading] {
        bpm.enumerated().compactMap { index, value in
            value.map {
                SensorReading(
                    sequence: index, atMilliseconds: start + index * stepMilliseconds, beatsPerMinute: $0, contact: .detected,
                    rrIntervalTicks: [UInt16((60_000.0 / Double($0)) * 1.024)])
            }
        }
    }

    @Test func aSteadySessionMatchesTheFormulaAndTheZones() {
        let physiology = PlayerPhysiology(restingHeartRate: 60, maximumHeartRate: 190, sex: .male, ageYears: 30, weightKilograms: 75)
        let analysis = PlayerSessionAnalysis(
            readings: readings(Array(repeating: 150, count: 600)), startMilliseconds: 1_000_000, endMilliseconds: 1_600_000, physiology: physiology)
        #expect(analysis.durationSeconds == 600 && analysis.readingCount == 600 && analysis.coveredSeconds == 600)
        #expect(abs((analysis.trimp ?? 0) - 16.7400) < 0.001)
        // 150 bpm is 69 % of reserve: "moderate" starts at 60 + 0.7 · 130 = 151, so "low".
        #expect(analysis.secondsInZones == [0, 600, 0, 0, 0])
        #expect(analysis.averageHeartRate == 150 && analysis.maximumHeartRate == 150)
        // Keytel (men): (−55.0969 + 0.6309·150 + 0.1988·75 + 0.2017·30) / 4.184 kcal/min · 10 min = 144.60.
        #expect(abs((analysis.kilocalories ?? 0) - 144.60) < 0.01)
        #expect(analysis.hrv?.indices.beatCount == 600)
        // One interval of 409/1024 s a reading: 600 beats span 240 s, one 5-minute window.
        #expect(analysis.hrvWindows.count == 1 && analysis.hrvWindows[0].indices.beatCount == 600)
    }

    @Test func aSilentStrapStopsCountingAfterFiveSeconds() {
        // 60 s of readings, 60 s of silence, 60 s of readings: 120 s counted plus 5 s of the
        // reading before the gap.
        let values: [Int?] = Array(repeating: 120, count: 60) + Array(repeating: nil, count: 60) + Array(repeating: 120, count: 60)
        let analysis = PlayerSessionAnalysis(
            readings: readings(values), startMilliseconds: 1_000_000, endMilliseconds: 1_180_000,
            physiology: PlayerPhysiology(restingHeartRate: 60, maximumHeartRate: 190))
        #expect(analysis.coveredSeconds == 124, "59 + 5 + 60 seconds: each reading counts until the next, at most 5 s")
        #expect(analysis.heartRate.compactMap { $0 }.count == 120 && analysis.heartRate[90] == nil)
        #expect(analysis.kilocalories == nil && analysis.notes.contains { $0.contains("calories need") })
        #expect(analysis.notes.contains { $0.contains("men's constants") })
    }

    @Test func readingsOutsideTheWindowAndBrokenIntervalsAreLeftOut() {
        var input = readings(Array(repeating: 100, count: 30))
        input.append(SensorReading(sequence: 99, atMilliseconds: 999_000, beatsPerMinute: 200, contact: .detected))
        input.append(SensorReading(sequence: 98, atMilliseconds: 1_010_500, beatsPerMinute: 100, contact: .detected, rrIntervalTicks: [0]))
        let analysis = PlayerSessionAnalysis(readings: input.shuffled(), startMilliseconds: 1_000_000, endMilliseconds: 1_030_000, physiology: PlayerPhysiology())
        #expect(analysis.readingCount == 31 && analysis.maximumHeartRate == 100)
        #expect(analysis.trimp == nil && analysis.secondsInZones == nil, "no zones without resting and maximum heart rate")
        #expect(analysis.notes.contains { $0.contains("not intervals") })
        #expect(analysis.hrv != nil)
    }

    /// Issue 28: a loose strap's spike (225 for two readings among 150s) is not the player's
    /// "highest"; a climb held for five readings is.
    @Test func theHighestIgnoresAStrapSpikeButKeepsAHeldPeak() {
        let spiky: [Int?] = Array(repeating: 150, count: 30) + [225, 224] + Array(repeating: 152, count: 30)
        let spikeAnalysis = PlayerSessionAnalysis(readings: readings(spiky), startMilliseconds: 1_000_000, endMilliseconds: 1_062_000, physiology: PlayerPhysiology())
        #expect(spikeAnalysis.maximumHeartRate == 152)
        let climb: [Int?] = Array(repeating: 150, count: 30) + [170, 178, 184, 186, 185, 183] + Array(repeating: 150, count: 30)
        let climbAnalysis = PlayerSessionAnalysis(readings: readings(climb), startMilliseconds: 1_000_000, endMilliseconds: 1_066_000, physiology: PlayerPhysiology())
        #expect(climbAnalysis.maximumHeartRate == 184, "the median of 170, 178, 184, 186, 185")
        let short = PlayerSessionAnalysis(readings: readings([120, 130, 125]), startMilliseconds: 1_000_000, endMilliseconds: 1_003_000, physiology: PlayerPhysiology())
        #expect(short.maximumHeartRate == 130, "fewer than five readings: the highest reading")
    }

    @Test func theMaximumFallsBackToTheAgeFormula() {
        let physiology = PlayerPhysiology(restingHeartRate: 55, sex: .female, ageYears: 20)
        // Gellish: 206.9 − 0.67 · 20 = 193.5, rounded to 194.
        #expect(physiology.effectiveMaximumHeartRate == 194)
        #expect(physiology.zoneProfile?.maximumHeartRate == 194)
        #expect(PlayerPhysiology(ageYears: 300).effectiveMaximumHeartRate == nil)
    }
}
