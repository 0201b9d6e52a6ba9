import Foundation

/// A one-sided power spectral density on an evenly spaced or arbitrary frequency grid.
public struct PowerSpectrum: Sendable, Hashable {
    /// Frequencies in Hz, ascending.
    public let frequencies: [Double]
    /// Density in (signal unit)²/Hz at each frequency.
    public let density: [Double]
    /// Width each bin stands for when integrating, in Hz.
    public let binWidth: Double

    public init(frequencies: [Double], density: [Double], binWidth: Double) {
        self.frequencies = frequencies
        self.density = density
        self.binWidth = binWidth
    }

    /// Σ PSD(f)·Δf over the bins with lo ≤ f < hi.
    public func power(in band: Range<Double>) -> Double {
        var total = 0.0
        for (frequency, value) in zip(frequencies, density) where band.contains(frequency) {
            total += value * binWidth
        }
        return total
    }

    /// The frequency of the largest density inside the band (the first one on ties).
    public func peakFrequency(in band: Range<Double>) -> Double? {
        var best: (frequency: Double, value: Double)?
        for (frequency, value) in zip(frequencies, density) where band.contains(frequency) {
            if best == nil || value > best!.value { best = (frequency, value) }
        }
        return best?.frequency
    }
}

/// Welch's averaged modified periodogram (Welch 1967), as scipy.signal.welch computes it
/// with window="hann", detrend="constant", scaling="density", average="mean".
public enum WelchPeriodogram {
    /// - Parameters:
    ///   - samples: evenly sampled signal.
    ///   - samplingRate: samples per second.
    ///   - segmentLength: samples per segment; the whole signal when it is shorter.
    ///   - overlapFraction: 0.5 for 50 % overlap.
    public static func estimate(
        _ samples: [Double], samplingRate: Double, segmentLength: Int, overlapFraction: Double = 0.5
    ) -> PowerSpectrum? {
        guard samples.count >= 2, segmentLength >= 2 else { return nil }
        let length = min(segmentLength, samples.count)
        let step = max(1, length - Int(Double(length) * overlapFraction))
        // Periodic ("DFT-even") Hann window, as scipy.signal.get_window("hann", n).
        let window = (0..<length).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(length)) }
        let windowPower = window.reduce(0) { $0 + $1 * $1 }
        let fft = FFT(size: length)
        let half = length / 2
        var accumulated = [Double](repeating: 0, count: half + 1)
        var segmentStarts = [Int]()
        var start = 0
        while start + length <= samples.count {
            segmentStarts.append(start)
            start += step
        }
        func prepared(_ start: Int) -> [Double] {
            var mean = 0.0
            for i in start..<(start + length) { mean += samples[i] }
            mean /= Double(length)
            return (0..<length).map { (samples[start + $0] - mean) * window[$0] }
        }
        var index = 0
        while index < segmentStarts.count {
            let first = prepared(segmentStarts[index])
            let second = index + 1 < segmentStarts.count ? prepared(segmentStarts[index + 1]) : [Double](repeating: 0, count: length)
            let (powerA, powerB) = fft.powerSpectra(first, second)
            for k in 0...half {
                accumulated[k] += powerA[k] + (index + 1 < segmentStarts.count ? powerB[k] : 0)
            }
            index += 2
        }
        let scale = 1 / (samplingRate * windowPower * Double(segmentStarts.count))
        var density = accumulated.map { $0 * scale }
        // One-sided: double everything but DC and, for even lengths, the Nyquist bin.
        for k in 1...half where !(length % 2 == 0 && k == half) { density[k] *= 2 }
        if half == 0 { density = [density[0]] }
        let binWidth = samplingRate / Double(length)
        return PowerSpectrum(
            frequencies: (0...half).map { Double($0) * binWidth }, density: density, binWidth: binWidth)
    }
}
