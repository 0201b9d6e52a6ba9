import Foundation

/// The FitLabTeam seed's LF/HF (seed-001 digest §3.3, Annex B.2), kept so its number can be
/// reproduced: beat times from the first interval, a natural cubic spline sampled on the
/// grid t_k = k·T/L (L = ceil(T in s)·4, so from t = 0 and not exactly every 250 ms, yet
/// treated as 4 Hz), mean removed, a symmetric Hann window w[k] = ½(1 − cos(2πk/(L−1))),
/// zero padding to the next power of two, one FFT, and |X|²·8/3 summed over
/// LF 0.04 ≤ f ≤ 0.15 and HF 0.15 < f ≤ 0.4 for bins i < Nfft/2 with f = i·4/Nfft.
/// The original's bugs are not reproduced: the spline runs over all N points and the
/// padding past the last sample is zero (its off-by-one read past the end).
/// Only the ratio is meaningful; powers are reported in the seed's unnormalised units.
public enum FitLabLFHF {
    public static func indices(_ rr: [Double]) -> FrequencyDomainIndices? {
        guard rr.count >= 4, RRValidation.allUsable(rr) else { return nil }
        let times = FrequencyDomainAnalysis.beatTimes(rr).map { $0 * 1000 }
        guard let spline = CubicSpline(x: times, y: rr, boundary: .natural), let total = times.last else { return nil }
        let samplingRate = 4.0
        let length = Int((total / 1000).rounded(.up) * samplingRate)
        guard length >= 2 else { return nil }
        let step = total / Double(length)
        var samples = spline.evaluate(ascending: (0..<length).map { Double($0) * step })
        let mean = Statistics.mean(samples)
        for k in 0..<length {
            let window = 0.5 * (1 - cos(2 * Double.pi * Double(k) / Double(length - 1)))
            samples[k] = (samples[k] - mean) * window
        }
        var fftLength = 1
        while fftLength < length { fftLength <<= 1 }
        var real = samples + [Double](repeating: 0, count: fftLength - length)
        var imaginary = [Double](repeating: 0, count: fftLength)
        FFT(size: fftLength).forward(real: &real, imaginary: &imaginary)
        var lf = 0.0
        var hf = 0.0
        for i in 0..<(fftLength / 2) {
            let frequency = Double(i) / Double(fftLength) * samplingRate
            let power = (real[i] * real[i] + imaginary[i] * imaginary[i]) * 8 / 3
            if frequency >= 0.04 && frequency <= 0.15 { lf += power }
            if frequency > 0.15 && frequency <= 0.4 { hf += power }
        }
        return FrequencyDomainIndices(
            method: .fitlab, vlfPower: 0, lfPower: lf, hfPower: hf, totalPower: lf + hf,
            lfHfRatio: hf > 0 ? lf / hf : nil,
            lfNormalized: lf + hf > 0 ? 100 * lf / (lf + hf) : nil,
            hfNormalized: lf + hf > 0 ? 100 * hf / (lf + hf) : nil,
            vlfPeak: nil, lfPeak: nil, hfPeak: nil)
    }
}
