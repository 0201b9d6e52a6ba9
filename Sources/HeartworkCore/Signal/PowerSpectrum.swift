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
    /// Plan and window for the 1024-sample segments HRV uses, made once per process.
    private static let standardPlan = SegmentPlan(length: 1024)

    /// An FFT plan with its periodic ("DFT-even") Hann window, as scipy.signal.get_window("hann", n).
    struct SegmentPlan: Sendable {
        let fft: FFT
        let window: [Double]
        let windowPower: Double

        init(length: Int) {
            fft = FFT(size: length)
            window = (0..<length).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(length)) }
            windowPower = window.reduce(0) { $0 + $1 * $1 }
        }
    }

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
        let plan = length == standardPlan.fft.size ? standardPlan : SegmentPlan(length: length)
        let half = length / 2
        var segmentStarts = [Int]()
        var start = 0
        while start + length <= samples.count {
            segmentStarts.append(start)
            start += step
        }
        // Segment means from prefix sums: one pass per segment instead of two.
        var prefix = [Double](repeating: 0, count: samples.count + 1)
        for (index, value) in samples.enumerated() { prefix[index + 1] = prefix[index] + value }
        var accumulated = [Double](repeating: 0, count: half + 1)
        var real = [Double](repeating: 0, count: length)
        var imaginary = [Double](repeating: 0, count: length)
        // Two real segments per complex transform: z = a + i·b.
        var index = 0
        while index < segmentStarts.count {
            let hasSecond = index + 1 < segmentStarts.count
            fill(&real, from: samples, start: segmentStarts[index], prefix: prefix, window: plan.window)
            if hasSecond {
                fill(&imaginary, from: samples, start: segmentStarts[index + 1], prefix: prefix, window: plan.window)
            } else {
                for k in 0..<length { imaginary[k] = 0 }
            }
            plan.fft.forward(real: &real, imaginary: &imaginary)
            for k in 0...half {
                let mirror = (length - k) % length
                // A[k] = (Z[k] + conj Z[N−k]) / 2, B[k] = (Z[k] − conj Z[N−k]) / 2i
                let aRe = (real[k] + real[mirror]) / 2
                let aIm = (imaginary[k] - imaginary[mirror]) / 2
                let bRe = (imaginary[k] + imaginary[mirror]) / 2
                let bIm = (real[mirror] - real[k]) / 2
                accumulated[k] += aRe * aRe + aIm * aIm + (hasSecond ? bRe * bRe + bIm * bIm : 0)
            }
            index += 2
        }
        let scale = 1 / (samplingRate * plan.windowPower * Double(segmentStarts.count))
        var density = accumulated.map { $0 * scale }
        // One-sided: double everything but DC and, for even lengths, the Nyquist bin.
        for k in 1..<(half + 1) where !(length % 2 == 0 && k == half) { density[k] *= 2 }
        let binWidth = samplingRate / Double(length)
        return PowerSpectrum(
            frequencies: (0...half).map { Double($0) * binWidth }, density: density, binWidth: binWidth)
    }

    /// One segment, its mean removed (detrend="constant"), times the window.
    private static func fill(_ buffer: inout [Double], from samples: [Double], start: Int, prefix: [Double], window: [Double]) {
        let length = window.count
        let mean = (prefix[start + length] - prefix[start]) / Double(length)
        samples.withUnsafeBufferPointer { source in
            window.withUnsafeBufferPointer { w in
                buffer.withUnsafeMutableBufferPointer { out in
                    for k in 0..<length { out[k] = (source[start + k] - mean) * w[k] }
                }
            }
        }
    }
}
