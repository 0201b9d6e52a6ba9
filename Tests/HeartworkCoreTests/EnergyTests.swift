import HeartworkCore
import Testing

@Suite("Energy (Keytel et al. 2005)")
struct EnergyTests {
    /// Golden, seed-000 §3.4 worked example, checked by hand:
    /// male   −55.0969 + 0.6309·150 + 0.1988·70 + 0.2017·24 = 58.2949 kJ/min
    ///        58.2949 / 4.184 × 60 × 0.5 = 417.98 kcal
    /// female −20.4022 + 0.4472·150 − 0.1263·70 + 0.074·24 = 39.6128 kJ/min
    ///        39.6128 / 4.184 × 60 × 0.5 = 284.03 kcal
    @Test func thesisWorkedExample() {
        let male = KeytelEnergy.kilocalories(sex: .male, averageBPM: 150, weightKilograms: 70, ageYears: 24, hours: 0.5)
        let female = KeytelEnergy.kilocalories(sex: .female, averageBPM: 150, weightKilograms: 70, ageYears: 24, hours: 0.5)
        #expect(abs(male - 58.2949 / 4.184 * 30) < 1e-9)
        #expect(abs(male - 417.98) < 0.005)
        #expect(abs(female - 39.6128 / 4.184 * 30) < 1e-9)
        #expect(abs(female - 284.03) < 0.005)
    }

    /// Hand calculation: female at 60 bpm, 70 kg, 24 y gives −0.6353 kJ/min, so 0 kcal.
    @Test func lowHeartRatesNeverGiveNegativeEnergy() {
        #expect(KeytelEnergy.kilocaloriesPerMinute(sex: .female, averageBPM: 60, weightKilograms: 70, ageYears: 24) < 0)
        #expect(KeytelEnergy.kilocalories(sex: .female, averageBPM: 60, weightKilograms: 70, ageYears: 24, hours: 1) == 0)
    }

    @Test func accumulatorUsesTheRunningMeanAndElapsedTime() {
        var accumulator = KeytelAccumulator(sex: .male, weightKilograms: 70, ageYears: 24)
        #expect(accumulator.kilocalories == 0)
        for second in 1...1800 {
            accumulator.add(beatsPerMinute: second % 2 == 0 ? 140 : 160, elapsedSeconds: Double(second))
        }
        #expect(accumulator.runningMeanBPM == 150)
        let expected = KeytelEnergy.kilocalories(sex: .male, averageBPM: 150, weightKilograms: 70, ageYears: 24, hours: 0.5)
        #expect(abs(accumulator.kilocalories - expected) < 1e-9)
    }

    @Test func accumulatorNeverGoesBelowZero() {
        var accumulator = KeytelAccumulator(sex: .female, weightKilograms: 90, ageYears: 20)
        for second in 1...600 {
            #expect(accumulator.add(beatsPerMinute: 55, elapsedSeconds: Double(second)) == 0)
        }
    }

    /// 1 lb = 0.45359237 kg exactly (international pound, 1959): 145 lb = 65.77089365 kg.
    @Test func poundsAreConvertedAtTheEdge() {
        #expect(abs(BodyMass.kilograms(fromPounds: 145) - 65.770_893_65) < 1e-9)
        #expect(abs(BodyMass.pounds(fromKilograms: BodyMass.kilograms(fromPounds: 200)) - 200) < 1e-9)
    }
}
