import Foundation

/// A synthetic RR series with the structure of a resting recording: respiratory sinus
/// arrhythmia (HF), a 0.1 Hz Mayer-wave oscillation (LF), a slow random drift (VLF) and beat
/// noise. Used by demos, benchmarks and the artifact-correction validation; deterministic
/// for a given seed.
public struct SyntheticRRModel: Sendable, Hashable {
    public var meanMilliseconds = 900.0
    public var respiratoryAmplitude = 30.0
    public var respiratoryFrequency = 0.25
    public var mayerAmplitude = 40.0
    public var mayerFrequency = 0.1
    public var driftStandardDeviation = 2.0
    public var noiseStandardDeviation = 12.0

    public init() {}

    public func generate(beats: Int, seed: UInt64) -> [Double] {
        var random = SplitMix64(seed: seed)
        let respiratoryPhase = Double.random(in: 0..<(2 * Double.pi), using: &random)
        let mayerPhase = Double.random(in: 0..<(2 * Double.pi), using: &random)
        var time = 0.0
        var drift = 0.0
        var series = [Double]()
        series.reserveCapacity(beats)
        for _ in 0..<beats {
            drift = 0.995 * drift + driftStandardDeviation * random.nextGaussian()
            let rr =
                meanMilliseconds
                + respiratoryAmplitude * sin(2 * Double.pi * respiratoryFrequency * time + respiratoryPhase)
                + mayerAmplitude * sin(2 * Double.pi * mayerFrequency * time + mayerPhase)
                + drift
                + noiseStandardDeviation * random.nextGaussian()
            let clamped = min(1_600, max(400, rr))
            series.append(clamped)
            time += clamped / 1000
        }
        return series
    }
}
