import Foundation
import HeartworkCore
import Testing

@Suite("Signal processing")
struct SignalTests {
    /// Law: the FFT equals the DFT definition X[k] = Σ x[n]·e^(−2πikn/N), for radix-2 and
    /// Bluestein lengths alike.
    @Test(arguments: [1, 2, 8, 64, 1024, 3, 5, 12, 100, 153, 480, 1000])
    func fftMatchesTheDefinition(size: Int) {
        var random = SplitMix64(seed: UInt64(size))
        let re = (0..<size).map { _ in Double.random(in: -1...1, using: &random) }
        let im = (0..<size).map { _ in Double.random(in: -1...1, using: &random) }
        var fastRe = re
        var fastIm = im
        FFT(size: size).forward(real: &fastRe, imaginary: &fastIm)
        var worst = 0.0
        for k in 0..<size {
            var sumRe = 0.0
            var sumIm = 0.0
            for n in 0..<size {
                let angle = -2 * Double.pi * Double(k * n % size) / Double(size)
                sumRe += re[n] * cos(angle) - im[n] * sin(angle)
                sumIm += re[n] * sin(angle) + im[n] * cos(angle)
            }
            worst = max(worst, abs(sumRe - fastRe[k]), abs(sumIm - fastIm[k]))
        }
        #expect(worst < 1e-9 * Double(size))
    }

    @Test func notAKnotSplineReproducesACubicExactly() throws {
        let x = [0.0, 0.7, 1.9, 2.4, 3.8, 5.0, 6.1]
        let cubic = { (t: Double) in 2 - t + 0.5 * t * t - 0.1 * t * t * t }
        let spline = try #require(CubicSpline(x: x, y: x.map(cubic)))
        for t in stride(from: -0.5, through: 6.5, by: 0.05) {
            #expect(abs(spline.evaluate(at: t) - cubic(t)) < 1e-9)
        }
        let three = try #require(CubicSpline(x: [0, 1, 3], y: [1, 2, 10]))
        #expect(abs(three.evaluate(at: 2) - 5) < 1e-12)  // the parabola t² + 1
    }

    @Test func naturalSplineHasStraightEnds() throws {
        let spline = try #require(CubicSpline(x: [0, 1, 2, 3, 4], y: [0, 1, 0, 1, 0], boundary: .natural))
        for knot in 0..<5 { #expect(abs(spline.evaluate(at: Double(knot)) - [0, 1, 0, 1, 0][knot]) < 1e-12) }
        // Zero curvature at the ends: the second difference there vanishes as h → 0.
        let h = 1e-4
        let curvature = (spline.evaluate(at: 2 * h) - 2 * spline.evaluate(at: h) + spline.evaluate(at: 0)) / (h * h)
        #expect(abs(curvature) < 1e-2)
        #expect(CubicSpline(x: [0, 0, 1], y: [1, 2, 3]) == nil)
    }

    /// A sinusoid of amplitude A has variance A²/2; Welch's band power around it must hold it.
    @Test func welchBandPowerOfASinusoid() throws {
        let amplitude = 30.0
        let samples = (0..<4800).map { amplitude * sin(2 * Double.pi * 0.1 * Double($0) / 4) }
        let spectrum = try #require(WelchPeriodogram.estimate(samples, samplingRate: 4, segmentLength: 1024))
        let power = spectrum.power(in: 0.05..<0.15)
        #expect(abs(power - amplitude * amplitude / 2) / (amplitude * amplitude / 2) < 0.01)
        #expect(abs((spectrum.peakFrequency(in: 0.04..<0.15) ?? 0) - 0.1) < 0.004)
    }

    @Test func lombScargleBandPowerOfAnUnevenSinusoid() throws {
        var random = SplitMix64(seed: 8)
        var t = 0.0
        var times = [Double]()
        var values = [Double]()
        while t < 600 {
            t += Double.random(in: 0.7...1.1, using: &random)
            times.append(t)
            values.append(20 * sin(2 * Double.pi * 0.25 * t))
        }
        let spectrum = try #require(LombScargle.estimate(times: times, values: values, maximumFrequency: 0.4))
        let power = spectrum.power(in: 0.15..<0.4)
        #expect(abs(power - 200) / 200 < 0.03)
    }

    @Test func quantilesInterpolateLikeNumpy() {
        // numpy.quantile([1, 2, 4, 8], [0.25, 0.5, 0.75]) = 1.75, 3.0, 5.0
        #expect(Statistics.quantile(sorted: [1, 2, 4, 8], 0.25) == 1.75)
        #expect(Statistics.quantile(sorted: [1, 2, 4, 8], 0.5) == 3)
        #expect(Statistics.quantile(sorted: [1, 2, 4, 8], 0.75) == 5)
        #expect(Statistics.median([5, 1, 3]) == 3)
    }
}

@Suite("HRV analysis")
struct HRVAnalysisTests {
    /// Hand calculation on seed-001 §3.3's vector [800, 810, 790, 870, 800, 750] with the
    /// issue's (NeuroKit2) conventions: ΔRR = 10, −20, 80, −70, −50.
    @Test func timeDomainByHand() throws {
        let indices = try #require(TimeDomainIndices(rrMilliseconds: [800, 810, 790, 870, 800, 750]))
        #expect(abs(indices.meanNN - 803.3333333333334) < 1e-9)
        #expect(abs(indices.rmssd - (14_300.0 / 5).squareRoot()) < 1e-9)  // Σ ΔRR² = 14 300
        #expect(indices.nn50 == 2)  // 80, 70; exactly 50 does not count
        #expect(abs(indices.pnn50 - 100 * 2.0 / 6) < 1e-12)
        // Sample SD of ΔRR: mean −10, Σ(d − mean)² = 13 800 → sqrt(13 800/4).
        #expect(abs(indices.sdsd - (13_800.0 / 4).squareRoot()) < 1e-9)
    }

    @Test func streamingTimeDomainFollowsTheBatchIndicesOverItsWindow() throws {
        let series = SyntheticRRModel().generate(beats: 3000, seed: 12)
        var streaming = StreamingTimeDomain(windowSeconds: 120)
        var window = [Double]()
        for (index, rr) in series.enumerated() {
            streaming.append(rr)
            window.append(rr)
            while window.reduce(0, +) > 120_000 && window.count > 1 { window.removeFirst() }
            guard index % 97 == 0, window.count > 2 else { continue }
            let batch = try #require(TimeDomainIndices(rrMilliseconds: window))
            #expect(streaming.count == window.count)
            #expect(abs((streaming.meanNN ?? 0) - batch.meanNN) <= 1e-9 * batch.meanNN)
            #expect(abs((streaming.sdnn ?? 0) - batch.sdnn) <= 1e-9 * batch.sdnn)
            #expect(abs((streaming.rmssd ?? 0) - batch.rmssd) <= 1e-9 * batch.rmssd)
            #expect(abs((streaming.sdsd ?? 0) - batch.sdsd) <= 1e-9 * batch.sdsd)
            #expect(streaming.pnn50 == batch.pnn50 && streaming.pnn20 == batch.pnn20)
            #expect(abs((streaming.meanHR ?? 0) - batch.meanHR) <= 1e-9 * batch.meanHR)
        }
    }

    @Test func windowsCoverTheRecordingInOrder() throws {
        let series = SyntheticRRModel().generate(beats: 4200, seed: 4)  // about an hour
        let windows = HRVAnalysis.windows(series, windowSeconds: 300)
        let total = series.reduce(0, +) / 1000
        #expect(windows.count == Int((total / 300).rounded(.up)))
        #expect(windows.map(\.startSeconds) == (0..<windows.count).map { Double($0) * 300 })
        #expect(windows.map(\.indices.beatCount).reduce(0, +) == series.count)
        for window in windows.dropLast() {
            #expect(abs(window.indices.durationSeconds - 300) < 2)
            #expect(window.indices.frequencyDomain != nil && window.indices.nonlinear?.sampleEntropy != nil)
        }
    }

    @Test func badSeriesAreRejectedWithTheReason() {
        #expect(throws: RRSeriesError.tooFewIntervals(count: 1)) { try HRVAnalysis.analyze([800]) }
        #expect(throws: RRSeriesError.notAnInterval(index: 2, milliseconds: 0)) { try HRVAnalysis.analyze([800, 810, 0, 790]) }
        #expect(throws: RRSeriesError.notAnInterval(index: 1, milliseconds: 30_000)) { try HRVAnalysis.analyze([800, 30_000, 790]) }
        #expect(throws: RRSeriesError.self) { try HRVAnalysis.analyze([800, .nan, 790]) }
        #expect(TimeDomainIndices(rrMilliseconds: [800, -5]) == nil)
    }

    @Test func implausibleButWellFormedValuesGoToTheArtifactStageWithAWarning() throws {
        var series = SyntheticRRModel().generate(beats: 400, seed: 9)
        series[200] = 3500
        let result = try HRVAnalysis.analyze(series)
        #expect(result.warnings.first?.contains("1 interval is outside 200–2000 ms") == true)
        #expect(result.correction.artifacts.contains { $0.index == 200 })
        #expect(!result.correction.corrected.contains(3500))
        let uncorrected = try HRVAnalysis.analyze(series, options: HRVOptions(correction: .none))
        #expect(uncorrected.warnings.first?.contains("kept as recorded") == true)
    }
}
