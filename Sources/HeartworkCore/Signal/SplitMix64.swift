import Foundation

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny deterministic generator. Synthetic data,
/// demos and property tests draw the same values on every machine from the same seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension RandomNumberGenerator {
    /// A standard normal draw (Box–Muller), for synthetic physiological noise.
    public mutating func nextGaussian() -> Double {
        var u1 = 0.0
        repeat { u1 = Double.random(in: 0..<1, using: &self) } while u1 == 0
        let u2 = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
