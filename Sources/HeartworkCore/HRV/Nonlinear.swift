import Foundation

/// Nonlinear HRV indices.
public struct NonlinearIndices: Sendable, Hashable, Codable {
    /// Poincaré SD1 = sqrt(var(ΔRR)/2), ms (Brennan, Palaniswami & Kamen 2001).
    public var sd1: Double
    /// Poincaré SD2 = sqrt(2·SDNN² − SD1²), ms.
    public var sd2: Double
    public var sd1sd2Ratio: Double
    /// Area of the SD1/SD2 ellipse, π·SD1·SD2, ms².
    public var ellipseArea: Double
    /// Sample entropy, m = 2, r = 0.2·SDNN; nil when no templates match.
    public var sampleEntropy: Double?
    /// DFA short-term exponent over 4–16 beats.
    public var dfaAlpha1: Double?
    /// DFA long-term exponent over 16–64 beats, for N ≥ 256.
    public var dfaAlpha2: Double?

    public init?(rrMilliseconds rr: [Double]) {
        guard rr.count >= 3, RRValidation.allUsable(rr) else { return nil }
        let differences = zip(rr.dropFirst(), rr).map { $0 - $1 }
        let sdnnSquared = Statistics.sampleVariance(rr)
        sd1 = (Statistics.sampleVariance(differences) / 2).squareRoot()
        sd2 = max(0, 2 * sdnnSquared - sd1 * sd1).squareRoot()
        sd1sd2Ratio = sd2 > 0 ? sd1 / sd2 : .nan
        ellipseArea = Double.pi * sd1 * sd2
        sampleEntropy = SampleEntropy.compute(rr, dimension: 2, tolerance: 0.2 * sdnnSquared.squareRoot())
        dfaAlpha1 = DetrendedFluctuation.alpha(rr, boxSizes: Array(4...16))
        dfaAlpha2 = rr.count >= 256 ? DetrendedFluctuation.alpha(rr, boxSizes: Array(16...64)) : nil
    }
}

/// Sample entropy (Richman & Moorman 2000, Am J Physiol 278:H2039): −ln(A/B), where B counts
/// pairs of templates of length m and A pairs of length m + 1 within Chebyshev distance r,
/// templates starting at 0 … N − m − 1 for both lengths, self-matches excluded.
///
/// Pairs are found by sorting templates on their first value, so only pairs whose first
/// values lie within r are compared: about a tenth of all pairs for r = 0.2·SD.
public enum SampleEntropy {
    public static func compute(_ x: [Double], dimension m: Int, tolerance r: Double) -> Double? {
        let templateCount = x.count - m
        guard m >= 1, templateCount >= 2, r.isFinite, r >= 0 else { return nil }
        let order = (0..<templateCount).sorted { x[$0] < x[$1] }
        var matchesM = 0, matchesM1 = 0
        x.withUnsafeBufferPointer { values in
            order.withUnsafeBufferPointer { sorted in
                for a in 0..<templateCount {
                    let i = sorted[a]
                    let first = values[i]
                    var b = a + 1
                    while b < templateCount {
                        let j = sorted[b]
                        if values[j] - first > r { break }
                        b += 1
                        var matches = true
                        for k in 1..<m where abs(values[i + k] - values[j + k]) > r {
                            matches = false
                            break
                        }
                        guard matches else { continue }
                        matchesM += 1
                        if abs(values[i + m] - values[j + m]) <= r { matchesM1 += 1 }
                    }
                }
            }
        }
        guard matchesM > 0, matchesM1 > 0 else { return nil }
        return -log(Double(matchesM1) / Double(matchesM))
    }
}

/// Detrended fluctuation analysis (Peng et al. 1995, Chaos 5:82): integrate the
/// mean-removed series, cut it into non-overlapping boxes of n beats from the start, remove
/// each box's least-squares line, F(n) = sqrt(mean squared residual over all boxes), and
/// α = the least-squares slope of ln F(n) against ln n.
public enum DetrendedFluctuation {
    public static func fluctuation(integrated y: [Double], boxSize n: Int) -> Double? {
        let boxes = y.count / n
        guard n >= 2, boxes >= 1 else { return nil }
        // x = 0 … n−1 centred: x̄ = (n − 1)/2, Σ(x − x̄)² = n(n² − 1)/12.
        let xMean = Double(n - 1) / 2
        let sxx = Double(n) * Double(n * n - 1) / 12
        var residualSum = 0.0
        y.withUnsafeBufferPointer { values in
            for box in 0..<boxes {
                let start = box * n
                var sumY = 0.0
                for k in 0..<n { sumY += values[start + k] }
                let yMean = sumY / Double(n)
                var sxy = 0.0, syy = 0.0
                for k in 0..<n {
                    let dy = values[start + k] - yMean
                    sxy += (Double(k) - xMean) * dy
                    syy += dy * dy
                }
                residualSum += syy - sxy * sxy / sxx
            }
        }
        return (max(0, residualSum) / Double(boxes * n)).squareRoot()
    }

    public static func integrate(_ x: [Double]) -> [Double] {
        let mean = Statistics.mean(x)
        var sum = 0.0
        return x.map { value in
            sum += value - mean
            return sum
        }
    }

    /// Nil unless the series holds at least one box of the largest size.
    public static func alpha(_ x: [Double], boxSizes: [Int]) -> Double? {
        guard let largest = boxSizes.max(), x.count >= largest else { return nil }
        let y = integrate(x)
        var logN = [Double](), logF = [Double]()
        for n in boxSizes {
            guard let f = fluctuation(integrated: y, boxSize: n), f > 0 else { continue }
            logN.append(log(Double(n)))
            logF.append(log(f))
        }
        guard logN.count >= 2 else { return nil }
        return leastSquaresSlope(x: logN, y: logF)
    }

    static func leastSquaresSlope(x: [Double], y: [Double]) -> Double {
        let xMean = Statistics.mean(x), yMean = Statistics.mean(y)
        var sxy = 0.0, sxx = 0.0
        for (a, b) in zip(x, y) {
            sxy += (a - xMean) * (b - yMean)
            sxx += (a - xMean) * (a - xMean)
        }
        return sxy / sxx
    }
}
