import Foundation

/// Nonlinear HRV indices.
public struct NonlinearIndices: Sendable, Hashable, Codable {
    /// Poincaré SD1 = sqrt(var(ΔRR)/2), ms (Brennan, Palaniswami & Kamen 2001).
    public var sd1: Double
    /// Poincaré SD2 = sqrt(2·SDNN² − SD1²), ms.
    public var sd2: Double
    /// Nil when SD2 is zero.
    public var sd1sd2Ratio: Double?
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
        sd1sd2Ratio = sd2 > 0 ? sd1 / sd2 : nil
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
        var matchesM = 0
        var matchesM1 = 0
        if m == 2 {
            (matchesM, matchesM1) = countPairsOfTwo(
                Array(x[0..<templateCount]), Array(x[1..<(templateCount + 1)]), Array(x[2..<(templateCount + 2)]), r)
        } else {
            let order = (0..<templateCount).sorted { x[$0] < x[$1] }
            // Template components in sorted order, so the scan reads memory in sequence.
            var components = [[Double]](repeating: [], count: m + 1)
            for k in 0...m { components[k] = order.map { x[$0 + k] } }
            for a in 0..<templateCount {
                var b = a + 1
                while b < templateCount && components[0][b] - components[0][a] <= r {
                    var matches = true
                    for k in 1..<m where abs(components[k][a] - components[k][b]) > r {
                        matches = false
                        break
                    }
                    if matches {
                        matchesM += 1
                        if abs(components[m][a] - components[m][b]) <= r { matchesM1 += 1 }
                    }
                    b += 1
                }
            }
        }
        guard matchesM > 0, matchesM1 > 0 else { return nil }
        return -log(Double(matchesM1) / Double(matchesM))
    }

    /// The m = 2 case on a grid of r × r cells over (x_i, x_{i+1}): a matching pair lies in the
    /// same or a neighbouring cell, so each cell is paired with itself and four of its eight
    /// neighbours (each unordered pair once). About 2 checks per match instead of the ~7 of
    /// a scan over the sorted first component.
    private static func countPairsOfTwo(_ first: [Double], _ second: [Double], _ third: [Double], _ r: Double) -> (Int, Int) {
        let count = first.count
        guard r > 0, let low0 = first.min(), let high0 = first.max(), let low1 = second.min(), let high1 = second.max() else {
            return countPairsInBand(first, second, third, r)
        }
        let columns = Int(((high0 - low0) / r).rounded(.down)) + 1
        let rows = Int(((high1 - low1) / r).rounded(.down)) + 1
        guard columns < 4096, rows < 4096 else { return countPairsInBand(first, second, third, r) }
        // Counting sort of the points by cell (column-major), then each cell's run.
        let cellCount = columns * rows
        var cellOf = [Int](repeating: 0, count: count)
        var runStart = [Int](repeating: 0, count: cellCount + 1)
        for index in 0..<count {
            let column = Int(((first[index] - low0) / r).rounded(.down))
            let row = Int(((second[index] - low1) / r).rounded(.down))
            cellOf[index] = column * rows + row
            runStart[cellOf[index] + 1] += 1
        }
        for cell in 0..<cellCount { runStart[cell + 1] += runStart[cell] }
        var fill = runStart
        var x0 = [Double](repeating: 0, count: count)
        var x1 = x0
        var x2 = x0
        for index in 0..<count {
            let position = fill[cellOf[index]]
            fill[cellOf[index]] += 1
            x0[position] = first[index]
            x1[position] = second[index]
            x2[position] = third[index]
        }
        var matchesM = 0
        var matchesM1 = 0
        x0.withUnsafeBufferPointer { x0 in
            x1.withUnsafeBufferPointer { x1 in
                x2.withUnsafeBufferPointer { x2 in
                    for column in 0..<columns {
                        for row in 0..<rows {
                            let cell = column * rows + row
                            let (start, end) = (runStart[cell], runStart[cell + 1])
                            guard start < end else { continue }
                            for a in start..<end {
                                let counts = pairs(a, start: a + 1, end: end, x0, x1, x2, r)
                                matchesM += counts.m
                                matchesM1 += counts.m1
                            }
                            // Forward neighbours: (c, r+1), (c+1, r−1), (c+1, r), (c+1, r+1).
                            var neighbours = [(Int, Int)]()
                            if row + 1 < rows { neighbours.append((runStart[cell + 1], runStart[cell + 2])) }
                            if column + 1 < columns {
                                let next = cell + rows
                                let low = row > 0 ? next - 1 : next
                                let high = row + 1 < rows ? next + 1 : next
                                neighbours.append((runStart[low], runStart[high + 1]))
                            }
                            for (neighbourStart, neighbourEnd) in neighbours where neighbourStart < neighbourEnd {
                                for a in start..<end {
                                    let counts = pairs(a, start: neighbourStart, end: neighbourEnd, x0, x1, x2, r)
                                    matchesM += counts.m
                                    matchesM1 += counts.m1
                                }
                            }
                        }
                    }
                }
            }
        }
        return (matchesM, matchesM1)
    }

    @inline(__always)
    private static func pairs(
        _ a: Int, start: Int, end: Int,
        _ x0: UnsafeBufferPointer<Double>, _ x1: UnsafeBufferPointer<Double>, _ x2: UnsafeBufferPointer<Double>, _ r: Double
    ) -> (m: Int, m1: Int) {
        let (v0, v1, v2) = (x0[a], x1[a], x2[a])
        var m = 0
        var m1 = 0
        var b = start
        while b < end {
            // Bitwise, not short-circuit: about half the candidates match, so branches mispredict.
            let close = (abs(x0[b] - v0) <= r ? 1 : 0) & (abs(x1[b] - v1) <= r ? 1 : 0)
            m &+= close
            m1 &+= close & (abs(x2[b] - v2) <= r ? 1 : 0)
            b += 1
        }
        return (m, m1)
    }

    /// Scan over templates sorted by their first value (used when r = 0).
    private static func countPairsInBand(_ first: [Double], _ second: [Double], _ third: [Double], _ r: Double) -> (Int, Int) {
        let order = first.indices.sorted { first[$0] < first[$1] }
        var matchesM = 0
        var matchesM1 = 0
        for (position, a) in order.enumerated() {
            var next = position + 1
            while next < order.count && first[order[next]] - first[a] <= r {
                let b = order[next]
                if abs(second[b] - second[a]) <= r {
                    matchesM += 1
                    if abs(third[b] - third[a]) <= r { matchesM1 += 1 }
                }
                next += 1
            }
        }
        return (matchesM, matchesM1)
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
                var sxy = 0.0
                var syy = 0.0
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
        var logN = [Double]()
        var logF = [Double]()
        for n in boxSizes {
            guard let f = fluctuation(integrated: y, boxSize: n), f > 0 else { continue }
            logN.append(log(Double(n)))
            logF.append(log(f))
        }
        guard logN.count >= 2 else { return nil }
        return leastSquaresSlope(x: logN, y: logF)
    }

    static func leastSquaresSlope(x: [Double], y: [Double]) -> Double {
        let xMean = Statistics.mean(x)
        let yMean = Statistics.mean(y)
        var sxy = 0.0
        var sxx = 0.0
        for (a, b) in zip(x, y) {
            sxy += (a - xMean) * (b - yMean)
            sxx += (a - xMean) * (a - xMean)
        }
        return sxy / sxx
    }
}
