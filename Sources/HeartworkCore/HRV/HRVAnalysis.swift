/// Options for an HRV analysis.
public struct HRVOptions: Sendable, Hashable {
    public var correction: ArtifactCorrectionMethod
    public var spectrum: SpectrumMethod
    public var includesNonlinear: Bool

    public init(correction: ArtifactCorrectionMethod = .kubios, spectrum: SpectrumMethod = .welch, includesNonlinear: Bool = true) {
        self.correction = correction
        self.spectrum = spectrum
        self.includesNonlinear = includesNonlinear
    }
}

/// Every index of one series (or one window of it).
public struct HRVIndices: Sendable, Hashable {
    public var beatCount: Int
    public var durationSeconds: Double
    public var timeDomain: TimeDomainIndices?
    public var frequencyDomain: FrequencyDomainIndices?
    public var nonlinear: NonlinearIndices?
}

/// A whole analysis: the correction, the indices and what the user should know.
public struct HRVResult: Sendable {
    public var correction: RRCorrection
    public var indices: HRVIndices
    /// The spectrum the frequency indices came from, for charts.
    public var spectrum: PowerSpectrum?
    public var warnings: [String]
}

/// One row of a windowed analysis.
public struct HRVWindow: Sendable, Hashable {
    public var startSeconds: Double
    public var indices: HRVIndices
}

public enum HRVAnalysis {
    /// Corrects the series and computes every index.
    public static func analyze(_ rrMilliseconds: [Double], options: HRVOptions = HRVOptions()) throws(RRSeriesError) -> HRVResult {
        try validate(rrMilliseconds)
        var warnings = [String]()
        let implausible = rrMilliseconds.filter { !RRValidation.plausibleMilliseconds.contains($0) }.count
        if implausible > 0 {
            let handling =
                options.correction == .none
                ? "kept as recorded because correction is off"
                : "handed to the \(options.correction.rawValue) artifact stage"
            warnings.append("\(implausible) interval\(implausible == 1 ? " is" : "s are") outside 200–2000 ms (30–300 bpm): \(handling)")
        }
        let correction = options.correction.correct(rrMilliseconds)
        if !correction.isReliable {
            warnings.append("\(formatPercent(correction.correctedPercent)) of beats were corrected (more than 5 %): the indices are not reliable")
        }
        let corrected = correction.corrected
        let spectrum = options.spectrum == .fitlab ? nil : FrequencyDomainAnalysis.spectrum(corrected, method: options.spectrum)
        var indices = indices(of: corrected, options: options, spectrum: spectrum)
        if options.spectrum == .fitlab { indices.frequencyDomain = FitLabLFHF.indices(corrected) }
        return HRVResult(correction: correction, indices: indices, spectrum: spectrum, warnings: warnings)
    }

    /// Indices over consecutive windows of `windowSeconds` of an (already corrected) series.
    /// A beat belongs to the window in which it starts; the last window may be shorter.
    public static func windows(_ rrMilliseconds: [Double], windowSeconds: Double, options: HRVOptions = HRVOptions()) -> [HRVWindow] {
        guard windowSeconds > 0, windowSeconds.isFinite else { return [] }
        var windows = [HRVWindow]()
        var beatStart = 0.0
        var current = [Double]()
        var currentIndex = 0
        func close() {
            guard !current.isEmpty else { return }
            let spectrum = options.spectrum == .fitlab ? nil : FrequencyDomainAnalysis.spectrum(current, method: options.spectrum)
            var windowIndices = indices(of: current, options: options, spectrum: spectrum)
            if options.spectrum == .fitlab { windowIndices.frequencyDomain = FitLabLFHF.indices(current) }
            windows.append(HRVWindow(startSeconds: Double(currentIndex) * windowSeconds, indices: windowIndices))
            current.removeAll(keepingCapacity: true)
        }
        for interval in rrMilliseconds {
            let index = Int(beatStart / 1000 / windowSeconds)
            if index != currentIndex {
                close()
                currentIndex = index
            }
            current.append(interval)
            beatStart += interval
        }
        close()
        return windows
    }

    static func indices(of rr: [Double], options: HRVOptions, spectrum: PowerSpectrum?) -> HRVIndices {
        HRVIndices(
            beatCount: rr.count,
            durationSeconds: rr.reduce(0, +) / 1000,
            timeDomain: TimeDomainIndices(rrMilliseconds: rr),
            frequencyDomain: spectrum.map { FrequencyDomainAnalysis.indices(from: $0, method: options.spectrum) },
            nonlinear: options.includesNonlinear ? NonlinearIndices(rrMilliseconds: rr) : nil)
    }

    public static func validate(_ rr: [Double]) throws(RRSeriesError) {
        guard rr.count >= 2 else { throw .tooFewIntervals(count: rr.count) }
        for (index, value) in rr.enumerated() where !(value.isFinite && value > 0 && value <= RRValidation.maximumIntervalMilliseconds) {
            throw .notAnInterval(index: index, milliseconds: value)
        }
    }

    private static func formatPercent(_ value: Double) -> String {
        "\((value * 10).rounded() / 10) %"
    }
}
