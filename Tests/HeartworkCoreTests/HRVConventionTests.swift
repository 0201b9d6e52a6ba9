import HeartworkCore
import Testing

/// Issue 25, F11: the seed's time-domain conventions beside the standard ones.
@Suite("HRV conventions")
struct HRVConventionTests {
    // Worked by hand from the seed's C++ (seed-001 digest §3.3): RR 800, 850, 820, 900, 780 ms.
    // Mean 830; Σ(x − mean)² = 8800 → SDNN = sqrt(8800 / 5) = 41.952; the standard (sample) SD is
    // sqrt(8800 / 4) = 46.904. Differences RR[i] − RR[i+1]: −50, 30, −80, 120 (mean 5; Σ(d − 5)² =
    // 24100) → SDSD = sqrt(24100 / 4) = 77.621; RMSSD = sqrt(24200 / 4) = 77.782. |d| > 50 for
    // 80 and 120 (50 itself does not count) → pNN50 = 2 / 5 = 0.4 (the standard: 40 %).
    let rr = [800.0, 850, 820, 900, 780]

    @Test func theSeedsConventions() throws {
        let seed = try #require(FitLabTimeDomain(rrMilliseconds: rr))
        #expect(abs(seed.sdnn - 41.952354) < 1e-5)
        #expect(abs(seed.sdsd - 77.620873) < 1e-5)
        #expect(abs(seed.rmssd - 77.781746) < 1e-5)
        #expect(seed.pnn50Fraction == 0.4)
        #expect(FitLabTimeDomain(rrMilliseconds: [800]) == nil)
    }

    @Test func theStandardOnesAreUnchanged() throws {
        // What the CLI's `hrv` prints stays the Task Force / NeuroKit2 convention.
        let standard = try #require(TimeDomainIndices(rrMilliseconds: rr))
        #expect(abs(standard.sdnn - 46.904158) < 1e-5)
        #expect(standard.pnn50 == 40)
        #expect(abs(standard.rmssd - 77.781746) < 1e-5)
    }
}
