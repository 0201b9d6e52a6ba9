import Foundation

/// Lomb–Scargle periodogram of unevenly sampled data (Lomb 1976; Scargle 1982), scaled to a
/// one-sided density so that band powers are comparable with Welch's: for N points over a
/// span T, PSD(f) = 2·P(f)·T/N, where P is the classical periodogram
/// P = ½[(Σ y cos ω(t−τ))² / Σ cos² ω(t−τ) + (Σ y sin ω(t−τ))² / Σ sin² ω(t−τ)].
/// A sinusoid of amplitude A then integrates to its variance A²/2.
public enum LombScargle {
    /// Frequencies k·Δf up to `maximumFrequency`, Δf = 1/(T·oversampling).
    public static func estimate(
        times: [Double], values: [Double], maximumFrequency: Double, oversampling: Double = 2
    ) -> PowerSpectrum? {
        let n = times.count
        guard n >= 3, values.count == n, let first = times.first, let last = times.last, last > first else { return nil }
        let span = last - first
        let step = 1 / (span * oversampling)
        let count = Int(maximumFrequency / step)
        guard count >= 1 else { return nil }
        let mean = values.reduce(0, +) / Double(n)
        let centred = values.map { $0 - mean }
        var frequencies = [Double](repeating: 0, count: count)
        var density = frequencies
        for k in 0..<count {
            let frequency = Double(k + 1) * step
            let omega = 2 * Double.pi * frequency
            var sin2 = 0.0
            var cos2 = 0.0
            for t in times {
                sin2 += sin(2 * omega * t)
                cos2 += cos(2 * omega * t)
            }
            let tau = atan2(sin2, cos2) / (2 * omega)
            var yc = 0.0
            var ys = 0.0
            var cc = 0.0
            var ss = 0.0
            for i in 0..<n {
                let angle = omega * (times[i] - tau)
                let c = cos(angle)
                let s = sin(angle)
                yc += centred[i] * c
                ys += centred[i] * s
                cc += c * c
                ss += s * s
            }
            let periodogram = 0.5 * (yc * yc / cc + ys * ys / ss)
            frequencies[k] = frequency
            density[k] = 2 * periodogram * span / Double(n)
        }
        return PowerSpectrum(frequencies: frequencies, density: density, binWidth: step)
    }
}
