/// RR artifact detection and correction after Lipponen & Tarvainen 2019, "A robust algorithm
/// for heart rate variability time series artefact correction using novel beat
/// classification", J Med Eng Technol 43(3):173–181 — the method of Kubios HRV.
///
/// Two series are normalised by time-varying thresholds, α·QD over 91 beats (QD = half the
/// interquartile range of the absolute values, α = 5.2): dRR, the successive differences,
/// and mRR, the deviation from an 11-beat median (negative deviations doubled). A beat is
/// ectopic when dRR and its neighbours (S12) fall in the paper's ectopic region
/// (c1 = 0.13, c2 = 0.17); long or short when dRR with the next two (S22) or |mRR| > 3 say
/// so; a long beat that is twice the median is missed, a short beat that with the next
/// makes one median is extra. The flow follows the paper's Figure 1 as NeuroKit2's
/// `signal_fixpeaks(method="kubios")` implements it. Correction works on intervals: extra
/// beats are merged with the next, missed beats are split in two, ectopic, long and short
/// beats are replaced by linear interpolation between the nearest normal beats.
///
/// Streaming: every decision needs at most 51 beats of look-ahead (the centred 91-beat
/// windows), so `append` decides and emits beats about 51 beats late at O(window) cost per
/// beat, and `finish` decides the rest exactly as a batch run would (windows shrink at the
/// ends). Our choices where the paper is silent: the first dRR is 0 (there is no earlier
/// beat); thresholds never fall below 1 ms, so perfectly regular stretches do not divide
/// by zero; an extra beat consumes the next interval, which is not classified again.
public struct KubiosArtifactCorrector: Sendable {
    public static let alpha = 5.2
    public static let c1 = 0.13
    public static let c2 = 0.17
    public static let thresholdWindow = 91
    public static let medianWindow = 11
    public static let minimumThresholdMilliseconds = 1.0

    private static var halfWindow: Int { thresholdWindow / 2 }
    private static var halfMedian: Int { medianWindow / 2 }
    /// Beats of look-ahead a decision at i needs: mRR threshold at i + 1 over its window.
    private static var lookAhead: Int { 1 + halfWindow + halfMedian }

    private var rr: [Double] = []
    private var drr: [Double] = []
    private var threshold1: [Double] = []
    private var median: [Double] = []
    private var mrr: [Double] = []
    private var threshold2: [Double] = []
    private var drrWindow = SortedWindow()
    private var drrWindowEnd = 0
    private var mrrWindow = SortedWindow()
    private var mrrWindowEnd = 0

    private var nextToClassify = 0
    private var flags: [Int: RRArtifactType] = [:]
    private var consumed: Set<Int> = []
    public private(set) var artifacts: [RRArtifact] = []

    private var nextToCorrect = 0
    private var lastNormal: (index: Int, value: Double)?
    private var outputCount = 0
    public private(set) var correctedOutputIndices: [Int] = []

    public init() {}

    /// Feeds one interval (ms); returns corrected intervals that became final.
    public mutating func append(_ interval: Double) -> [Double] {
        drr.append(rr.last.map { interval - $0 } ?? 0)
        rr.append(interval)
        advance(finishing: false)
        return correct(finishing: false)
    }

    /// Ends the stream and returns everything not yet emitted.
    public mutating func finish() -> [Double] {
        advance(finishing: true)
        return correct(finishing: true)
    }

    public static func correct(_ rrMilliseconds: [Double]) -> RRCorrection {
        var corrector = KubiosArtifactCorrector()
        var output = [Double]()
        output.reserveCapacity(rrMilliseconds.count + 16)
        for interval in rrMilliseconds { output += corrector.append(interval) }
        output += corrector.finish()
        return RRCorrection(
            method: .kubios, inputCount: rrMilliseconds.count, corrected: output,
            artifacts: corrector.artifacts, correctedIndices: corrector.correctedOutputIndices)
    }

    // MARK: Thresholds and medians, each finalised as soon as its window is complete

    private mutating func advance(finishing: Bool) {
        let n = rr.count
        let half = Self.halfWindow
        while threshold1.count < n && (finishing || threshold1.count + half <= n - 1) {
            threshold1.append(Self.nextThreshold(at: threshold1.count, of: drr, window: &drrWindow, end: &drrWindowEnd))
        }
        while median.count < n && (finishing || median.count + Self.halfMedian <= n - 1) {
            let k = median.count
            let window = rr[max(0, k - Self.halfMedian)...min(n - 1, k + Self.halfMedian)].sorted()
            let value = Statistics.quantile(sorted: window, 0.5)
            median.append(value)
            let deviation = rr[k] - value
            mrr.append(deviation < 0 ? 2 * deviation : deviation)
        }
        let available = mrr.count
        while threshold2.count < n && (finishing || threshold2.count + half <= available - 1) {
            threshold2.append(Self.nextThreshold(at: threshold2.count, of: mrr, window: &mrrWindow, end: &mrrWindowEnd))
        }
        classify(finishing: finishing)
    }

    /// The threshold at `k` over |series| in [k − 45, k + 45] (clipped to what exists), then
    /// slides the window on by one.
    private static func nextThreshold(at k: Int, of series: [Double], window: inout SortedWindow, end: inout Int) -> Double {
        while end <= min(series.count - 1, k + halfWindow) {
            window.insert(abs(series[end]))
            end += 1
        }
        let value = threshold(window)
        if k - halfWindow >= 0 { window.remove(abs(series[k - halfWindow])) }
        return value
    }

    private static func threshold(_ window: SortedWindow) -> Double {
        let quartileDeviation = (window.quantile(0.75) - window.quantile(0.25)) / 2
        return max(alpha * quartileDeviation, minimumThresholdMilliseconds)
    }

    // MARK: Classification (Lipponen & Tarvainen 2019, Figure 1)

    private func normalizedDRR(_ k: Int) -> Double {
        let n = rr.count
        // Reflect beyond the ends, as numpy.pad(mode="reflect").
        var index = k
        if index < 0 { index = -index }
        if index > n - 1 { index = 2 * (n - 1) - index }
        index = min(max(index, 0), n - 1)
        return drr[index] / threshold1[index]
    }

    private func normalizedMRR(_ k: Int) -> Double { mrr[k] / threshold2[k] }

    private mutating func classify(finishing: Bool) {
        let n = rr.count
        let limit = finishing ? n - 2 : n - 1 - Self.lookAhead
        var i = nextToClassify
        while i < limit {
            if consumed.contains(i) {
                i += 1
                continue
            }
            let d = normalizedDRR(i)
            if abs(d) <= 1 {
                i += 1
                continue
            }
            let s12 = d > 0 ? max(normalizedDRR(i - 1), normalizedDRR(i + 1)) : min(normalizedDRR(i - 1), normalizedDRR(i + 1))
            if (d > 1 && s12 < -Self.c1 * d - Self.c2) || (d < -1 && s12 > -Self.c1 * d + Self.c2) {
                flag(i, .ectopic)
                i += 1
                continue
            }
            var candidates = [i]
            if abs(normalizedDRR(i + 1)) < abs(normalizedDRR(i + 2)) { candidates.append(i + 1) }
            for j in candidates {
                guard !consumed.contains(j), flags[j] == nil else {
                    i += 1
                    continue
                }
                let dj = normalizedDRR(j)
                let s22 = dj >= 0 ? min(normalizedDRR(j + 1), normalizedDRR(j + 2)) : max(normalizedDRR(j + 1), normalizedDRR(j + 2))
                let long = dj > 1 && s22 < -1
                let farFromMedian = abs(normalizedMRR(j)) > 3
                let short = dj < -1 && s22 > 1
                guard long || farFromMedian || short else {
                    i += 1
                    continue
                }
                let missed = abs(rr[j] / 2 - median[j]) < threshold2[j]
                let extra = j + 1 < n && abs(rr[j] + rr[j + 1] - median[j]) < threshold2[j]
                if short && extra {
                    flag(j, .extra)
                    consumed.insert(j + 1)
                } else if long && missed {
                    flag(j, .missed)
                } else {
                    flag(j, rr[j] > median[j] ? .long : .short)
                }
                i += 1
            }
        }
        // Every index below i is decided; flags only ever land on i or i + 1.
        nextToClassify = finishing ? n : i
    }

    private mutating func flag(_ index: Int, _ type: RRArtifactType) {
        flags[index] = type
        artifacts.append(RRArtifact(index: index, type: type))
    }

    // MARK: Correction, in order, once every beat up to the next normal one is classified

    private mutating func correct(finishing: Bool) -> [Double] {
        var output = [Double]()
        while nextToCorrect < nextToClassify {
            let j = nextToCorrect
            if consumed.contains(j) {
                nextToCorrect += 1
                continue
            }
            switch flags[j] {
            case nil:
                output.append(rr[j])
                lastNormal = (j, rr[j])
            case .extra?:
                output.append(rr[j] + (j + 1 < rr.count ? rr[j + 1] : 0))
                correctedOutputIndices.append(outputCount + output.count - 1)
            case .missed?:
                output += [rr[j] / 2, rr[j] / 2]
                correctedOutputIndices += [outputCount + output.count - 2, outputCount + output.count - 1]
            case .ectopic?, .long?, .short?:
                guard let value = interpolatedValue(at: j, finishing: finishing) else {
                    outputCount += output.count
                    return output
                }
                output.append(value)
                correctedOutputIndices.append(outputCount + output.count - 1)
            }
            nextToCorrect += 1
        }
        outputCount += output.count
        return output
    }

    /// Linear interpolation by beat index between the nearest normal beats; nil while the
    /// next normal beat is not yet classified.
    private func interpolatedValue(at j: Int, finishing: Bool) -> Double? {
        var next: Int?
        var k = j + 1
        while k < nextToClassify {
            if flags[k] == nil && !consumed.contains(k) {
                next = k
                break
            }
            k += 1
        }
        if next == nil && !finishing { return nil }
        switch (lastNormal, next) {
        case let (previous?, nextIndex?):
            let fraction = Double(j - previous.index) / Double(nextIndex - previous.index)
            return previous.value + (rr[nextIndex] - previous.value) * fraction
        case let (previous?, nil): return previous.value
        case let (nil, nextIndex?): return rr[nextIndex]
        case (nil, nil): return Statistics.median(rr)
        }
    }
}
