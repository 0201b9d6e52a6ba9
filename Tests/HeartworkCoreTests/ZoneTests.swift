import Foundation
import HeartworkCore
import Testing

@Suite("Zones")
struct ZoneTests {
    /// Golden: seed-000 digest §3.5 worked example (age 24, resting 65, Gellish HRmax 190.82).
    @Test func heartMateThresholdsForTheThesisAthlete() throws {
        let profile = try ZoneProfile(ageYears: 24, restingHeartRate: 65)
        #expect(abs(profile.maximumHeartRate - 190.82) < 1e-9)
        #expect(abs(profile.heartRateReserve - 125.82) < 1e-9)
        let expected = [140.492, 153.074, 165.656, 178.238, 190.820]
        for (threshold, golden) in zip(profile.reserveZoneThresholds, expected) {
            #expect(abs(threshold - golden) < 1e-9)
        }
    }

    /// Golden: seed-000 digest §3.5, "With 220 − age instead … 143.6 / 156.7 / 169.8 / 182.9 / 196.0".
    @Test func foxThresholds() throws {
        let profile = try ZoneProfile(ageYears: 24, restingHeartRate: 65, maximumHeartRateMethod: .fox)
        let expected = [143.6, 156.7, 169.8, 182.9, 196.0]
        for (threshold, golden) in zip(profile.reserveZoneThresholds, expected) {
            #expect(abs(threshold - golden) < 1e-9)
        }
    }

    /// Golden, hand calculation: Tanaka 2001, 208 − 0.7 × 40 = 180; Gellish 206.9 − 0.67 × 40 = 180.1.
    @Test func maximumHeartRateEstimators() {
        #expect(abs(MaximumHeartRateMethod.tanaka.maximumHeartRate(ageYears: 40) - 180) < 1e-9)
        #expect(abs(MaximumHeartRateMethod.gellish.maximumHeartRate(ageYears: 40) - 180.1) < 1e-9)
        #expect(MaximumHeartRateMethod.fox.maximumHeartRate(ageYears: 40) == 180)
        #expect(MaximumHeartRateMethod.measured(beatsPerMinute: 187).maximumHeartRate(ageYears: 40) == 187)
    }

    /// Karvonen (seed-000 Eq. 2.7), hand calculation: 50 + 0.75 × (190 − 50) = 155.
    @Test func karvonenThreshold() throws {
        let profile = try ZoneProfile(restingHeartRate: 50, maximumHeartRate: 190)
        #expect(profile.karvonenThreshold(fractionOfReserve: 0.75) == 155)
    }

    @Test(arguments: [
        (140.4, ReserveZone.none), (140.5, .low), (153.0, .low), (153.1, .moderate),
        (165.7, .high), (178.3, .redLine), (190.82, .redLine), (215, .redLine), (80, .none),
    ])
    func reserveZoneClassification(bpm: Double, zone: ReserveZone) throws {
        let profile = try ZoneProfile(ageYears: 24, restingHeartRate: 65)
        #expect(profile.reserveZone(beatsPerMinute: bpm) == zone)
    }

    /// RISE bands on HRmax 200 (moderate widened, issue 25): 45 % = 90, 60 % = 120, 80 % = 160, 93 % = 186 bpm.
    @Test(arguments: [
        (89.9, IntensityZone.rest), (90, .light), (119.9, .light), (120, .moderate), (128, .moderate), (154, .moderate),
        (159.9, .moderate), (160, .vigorous), (185.9, .vigorous), (186, .extreme), (230, .extreme),
    ])
    func intensityZoneClassification(bpm: Double, zone: IntensityZone) throws {
        let profile = try ZoneProfile(restingHeartRate: 60, maximumHeartRate: 200)
        #expect(profile.intensityZone(beatsPerMinute: bpm) == zone)
        #expect([0, 1, 2, 4, 8][zone.rawValue] == zone.pointsPerMinute)
    }

    @Test func implausibleInputsAreRejectedWithTheReason() {
        #expect(throws: PhysiologyError.ageOutOfRange(-3)) { try ZoneProfile(ageYears: -3, restingHeartRate: 65) }
        #expect(throws: PhysiologyError.ageOutOfRange(250)) { try ZoneProfile(ageYears: 250, restingHeartRate: 65) }
        #expect(throws: PhysiologyError.restingHeartRateOutOfRange(0)) { try ZoneProfile(ageYears: 30, restingHeartRate: 0) }
        #expect(throws: PhysiologyError.maximumHeartRateOutOfRange(400)) {
            try ZoneProfile(ageYears: 30, restingHeartRate: 60, maximumHeartRateMethod: .measured(beatsPerMinute: 400))
        }
        #expect(throws: PhysiologyError.restingNotBelowMaximum(resting: 130, maximum: 120)) {
            try ZoneProfile(restingHeartRate: 130, maximumHeartRate: 120)
        }
        #expect(throws: PhysiologyError.self) {
            try ZoneProfile(restingHeartRate: .nan, maximumHeartRate: 190)
        }
        let message = PhysiologyError.restingNotBelowMaximum(resting: 130, maximum: 120).description
        #expect(message.contains("130") && message.contains("below the maximum"))
    }

    @Test func profileRoundTripsThroughJSONAndValidatesOnTheWayIn() throws {
        let profile = try ZoneProfile(ageYears: 24, restingHeartRate: 65)
        let data = try JSONEncoder().encode(profile)
        #expect(try JSONDecoder().decode(ZoneProfile.self, from: data) == profile)
        let broken = Data(#"{"restingHeartRate": 200, "maximumHeartRate": 190}"#.utf8)
        #expect(throws: PhysiologyError.self) { try JSONDecoder().decode(ZoneProfile.self, from: broken) }
    }
}
