import Foundation

/// The FitLabTeam seed's own time-domain conventions, from its C++ `HRV` class (seed-001
/// digest §3.3 and "things a re-implementer could easily miss" 8): SDNN and SDSD are population
/// standard deviations (÷ N, and ÷ N−1 over the N−1 successive differences `RR[i] − RR[i+1]`),
/// RMSSD divides the summed squared differences by N−1, and pNN50 counts differences strictly
/// over 50 ms (a floating-point absolute value) and divides by N, as a fraction, not a
/// percentage. Computed in Double where the seed used float. Shown beside the standard indices
/// (`TimeDomainIndices`: sample SDs, pNN50 in % of N), which stay what the CLI prints.
public struct FitLabTimeDomain: Sendable, Hashable {
    public var sdnn: Double
    public var rmssd: Double
    public var sdsd: Double
    /// 0–1.
    public var pnn50Fraction: Double

    /// Nil for fewer than two intervals or values that are not intervals (`RRValidation`).
    public init?(rrMilliseconds rr: [Double]) {
        let n = rr.count
        guard n >= 2, RRValidation.allUsable(rr) else { return nil }
        var differences = [Double]()
        differences.reserveCapacity(n - 1)
        var squares = 0.0
        var over50 = 0
        for i in 0..<(n - 1) {
            let difference = rr[i] - rr[i + 1]
            differences.append(difference)
            squares += difference * difference
            if abs(difference) > 50 { over50 += 1 }
        }
        sdnn = Self.populationStandardDeviation(rr)
        rmssd = (squares / Double(n - 1)).squareRoot()
        sdsd = Self.populationStandardDeviation(differences)
        pnn50Fraction = Double(over50) / Double(n)
    }

    /// The seed's `HRV::std`: sqrt(Σ (x − mean)² / N).
    static func populationStandardDeviation(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)).squareRoot()
    }
}
