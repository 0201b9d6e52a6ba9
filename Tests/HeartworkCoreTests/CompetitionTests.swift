import HeartworkCore
import HeartworkTestSupport
import Testing

@Suite("Competition")
struct CompetitionTests {
    /// Both sides: age 24, resting 65 → low from 140.492, moderate from 153.074 (seed-000 §3.5).
    private let thesisAthlete = try! ZoneProfile(ageYears: 24, restingHeartRate: 65)

    @Test func higherConfirmedZoneScoresEachSecond() {
        let a = [Double?](repeating: 160, count: 60)  // moderate
        let b = [Double?](repeating: 145, count: 60)  // low
        let result = CompetitionEngine.evaluate(a: a, b: b, profileA: thesisAthlete, profileB: thesisAthlete)
        // Both confirm on second 14 (the 15th); from then on A is strictly higher: 60 − 14 = 46.
        #expect(result.a.confirmedZones[13] == .none && result.a.confirmedZones[14] == .moderate)
        #expect(result.a.score == 46 && result.b.score == 0)
        #expect(result.outcome == .winner(.a))
        #expect(result.marginSeconds == 46)
        #expect(result.a.timeInZone[.moderate] == 60 && result.b.timeInZone[.low] == 60)
        #expect(result.durationSeconds == 60)
    }

    @Test func equalZonesScoreNobodyAndEndInADraw() {
        let same = [Double?](repeating: 150, count: 100)
        let result = CompetitionEngine.evaluate(a: same, b: same, profileA: thesisAthlete, profileB: thesisAthlete)
        #expect(result.a.score == 0 && result.b.score == 0)
        #expect(result.outcome == .draw && result.marginSeconds == 0)
    }

    /// Zones are relative: the same 150 bpm is Moderate for a resting-50 athlete with HRmax 180
    /// (150 ≥ 50 + 0.7·130 = 141) but only Low for the thesis athlete.
    @Test func eachSideUsesItsOwnProfile() throws {
        let fit = try ZoneProfile(restingHeartRate: 50, maximumHeartRate: 180)
        let same = [Double?](repeating: 150, count: 30)
        let result = CompetitionEngine.evaluate(a: same, b: same, profileA: fit, profileB: thesisAthlete)
        #expect(result.a.rawZones[0] == .moderate && result.b.rawZones[0] == .low)
        #expect(result.a.score == 16)
    }

    @Test func missingSecondsAndTheShorterSeriesCountAsZoneNone() {
        let a: [Double?] = [160, nil] + [Double?](repeating: 160, count: 8)
        let b = [Double?](repeating: 145, count: 12)
        let result = CompetitionEngine.evaluate(a: a, b: b, profileA: thesisAthlete, profileB: thesisAthlete)
        #expect(result.durationSeconds == 12)
        #expect(result.a.rawZones[1] == .none && result.a.rawZones[10] == .none && result.a.rawZones[11] == .none)
    }

    @Test func zoneChangesAreWordedForAnnouncement() {
        var engine = CompetitionEngine(profileA: thesisAthlete, profileB: thesisAthlete)
        var events = [ZoneChangeEvent]()
        for _ in 0..<20 { events += engine.advance(a: 170, b: 160) }  // A high, B moderate
        #expect(events.count == 2)
        let aMoved = events[0]
        #expect(aMoved.second == 14 && aMoved.competitor == .a && aMoved.to == .high)
        #expect(aMoved.announcement(for: .a) == "You moved up to High")
        #expect(aMoved.announcement(for: .b) == "Your opponent moved up to High; you are in Moderate")
        for _ in 0..<15 { events += engine.advance(a: 145, b: 160) }
        let aDropped = events[2]
        #expect(aDropped.direction == .down)
        #expect(aDropped.announcement(for: .b) == "Your opponent moved down to Low; you are in Moderate")
    }

    /// Law: a live or ghost match fed one second (or any chunk) at a time gives exactly the
    /// result of scoring the whole series at once.
    @Test func incrementalEqualsBatch() throws {
        var random = SplitMix64(seed: 0xC0FF_EE15)
        for _ in 0..<200 {
            let profileA = try ZoneProfile(
                ageYears: Double.random(in: 15...70, using: &random),
                restingHeartRate: Double.random(in: 40...80, using: &random))
            let profileB = try ZoneProfile(
                restingHeartRate: Double.random(in: 40...80, using: &random),
                maximumHeartRate: Double.random(in: 160...205, using: &random))
            let duration = Int.random(in: 0...900, using: &random)
            let seriesA = randomWalk(count: duration, using: &random)
            let seriesB = randomWalk(count: Int.random(in: 0...duration, using: &random), using: &random)

            let batch = CompetitionEngine.evaluate(a: seriesA, b: seriesB, profileA: profileA, profileB: profileB)

            var engine = CompetitionEngine(profileA: profileA, profileB: profileB)
            var streamedEvents = [ZoneChangeEvent]()
            var second = 0
            while second < duration {
                let chunk = Int.random(in: 1...60, using: &random)
                for index in second..<min(duration, second + chunk) {
                    streamedEvents += engine.advance(a: seriesA[index], b: index < seriesB.count ? seriesB[index] : nil)
                }
                second += chunk
            }
            #expect(engine.result == batch)
            #expect(streamedEvents == batch.events)
        }
    }

    /// A heart rate drifting like a run, with dropouts, spanning every zone.
    private func randomWalk(count: Int, using random: inout SplitMix64) -> [Double?] {
        var bpm = Double.random(in: 90...190, using: &random)
        return (0..<count).map { _ in
            bpm = min(210, max(60, bpm + Double.random(in: -3...3, using: &random)))
            return Int.random(in: 0..<50, using: &random) == 0 ? nil : bpm
        }
    }
}
