import Foundation

/// Frequency-domain HRV indices: band powers in ms², normalised units and peaks.
public struct FrequencyDomainIndices: Sendable, Hashable, Codable {
    public var method: SpectrumMethod
    public var vlfPower: Double
    public var lfPower: Double
    public var hfPower: Double
    public var totalPower: Double
    public var lfHfRatio: Double?
    public var lfNormalized: Double?
    public var hfNormalized: Double?
    public var vlfPeak: Double?
    public var lfPeak: Double?
    public var hfPeak: Double?
}

/// How the spectrum is estimated.
public enum SpectrumMethod: String, Sendable, Hashable, Codable, CaseIterable {
    /// Cubic-spline resampling at 4 Hz and Welch's method (the default, as Kubios).
    case welch
    /// Lomb–Scargle on the uneven beat times, no resampling.
    case lombScargle = "lomb"
    /// The FitLabTeam seed's single Hann periodogram LF/HF (seed-001 §3.3).
    case fitlab
}

/// Frequency bands (Task Force 1996): lo ≤ f < hi, in Hz.
public enum HRVBand {
    public static let vlf = 0.0033..<0.04
    public static let lf = 0.04..<0.15
    public static let hf = 0.15..<0.40
}

/// The spectrum of an RR series and the indices read from it.
public enum FrequencyDomainAnalysis {
    public static let resamplingRate = 4.0
    /// 256 s at 4 Hz.
    public static let welchSegmentLength = 1024

    /// Beat times t_i = Σ_{j≤i} RR_j / 1000 (s).
    public static func beatTimes(_ rr: [Double]) -> [Double] {
        var times = [Double](repeating: 0, count: rr.count)
        var sum = 0.0
        for (index, interval) in rr.enumerated() {
            sum += interval
            times[index] = sum / 1000
        }
        return times
    }

    /// RR (ms) through a not-a-knot spline at (t_i, RR_i), sampled at 4 Hz from t_1 up to but
    /// excluding t_N, mean removed.
    public static func resampled(_ rr: [Double]) -> [Double]? {
        let times = beatTimes(rr)
        guard let spline = CubicSpline(x: times, y: rr, boundary: .notAKnot) else { return nil }
        let start = times[0]
        let end = times[times.count - 1]
        var count = Int(((end - start) * resamplingRate).rounded(.up))
        while count > 0 && start + Double(count - 1) / resamplingRate >= end { count -= 1 }
        let grid = (0..<count).map { start + Double($0) / resamplingRate }
        var values = spline.evaluate(ascending: grid)
        let mean = Statistics.mean(values)
        for index in values.indices { values[index] -= mean }
        return values
    }

    /// The spectrum by `method`; nil when the series is too short to have one.
    public static func spectrum(_ rr: [Double], method: SpectrumMethod) -> PowerSpectrum? {
        guard rr.count >= 4, RRValidation.allUsable(rr) else { return nil }
        switch method {
        case .welch, .fitlab:
            guard let samples = resampled(rr), samples.count >= 16 else { return nil }
            return WelchPeriodogram.estimate(samples, samplingRate: resamplingRate, segmentLength: welchSegmentLength)
        case .lombScargle:
            return LombScargle.estimate(times: beatTimes(rr), values: rr, maximumFrequency: HRVBand.hf.upperBound)
        }
    }

    public static func indices(_ rr: [Double], method: SpectrumMethod = .welch) -> FrequencyDomainIndices? {
        if method == .fitlab { return FitLabLFHF.indices(rr) }
        guard let spectrum = spectrum(rr, method: method) else { return nil }
        return indices(from: spectrum, method: method)
    }

    static func indices(from spectrum: PowerSpectrum, method: SpectrumMethod) -> FrequencyDomainIndices {
        let vlf = spectrum.power(in: HRVBand.vlf)
        let lf = spectrum.power(in: HRVBand.lf)
        let hf = spectrum.power(in: HRVBand.hf)
        let lfPlusHf = lf + hf
        return FrequencyDomainIndices(
            method: method, vlfPower: vlf, lfPower: lf, hfPower: hf, totalPower: vlf + lf + hf,
            lfHfRatio: hf > 0 ? lf / hf : nil,
            lfNormalized: lfPlusHf > 0 ? 100 * lf / lfPlusHf : nil,
            hfNormalized: lfPlusHf > 0 ? 100 * hf / lfPlusHf : nil,
            vlfPeak: spectrum.peakFrequency(in: HRVBand.vlf),
            lfPeak: spectrum.peakFrequency(in: HRVBand.lf),
            hfPeak: spectrum.peakFrequency(in: HRVBand.hf))
    }
}
