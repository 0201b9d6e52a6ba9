import Foundation

/// Time-domain and geometric HRV indices (Task Force of the ESC and NASPE 1996, Circulation
/// 93:1043) with NeuroKit2's conventions: sample standard deviations, pNNx as a percentage
/// of N (the number of intervals), RMSSD = sqrt(mean(ΔRR²)).
public struct TimeDomainIndices: Sendable, Hashable, Codable {
    public var meanNN: Double
    public var sdnn: Double
    public var rmssd: Double
    public var sdsd: Double
    public var nn50: Int
    public var pnn50: Double
    public var nn20: Int
    public var pnn20: Double
    public var meanHR: Double
    public var minHR: Double
    public var maxHR: Double
    public var medianNN: Double
    public var cvnn: Double
    /// HRV triangular index: N / the count of the modal 7.8125-ms histogram bin.
    public var triangularIndex: Double
    /// Baseline width of the triangle best fitting the histogram (ms).
    public var tinn: Double

    /// Histogram bin width: 1/128 s (Task Force 1996).
    public static let histogramBinMilliseconds = 1000.0 / 128

    /// Nil for fewer than two intervals or values that are not intervals (see `RRValidation`).
    public init?(rrMilliseconds rr: [Double]) {
        let n = rr.count
        guard n >= 2, RRValidation.allUsable(rr) else { return nil }
        var differences = [Double](repeating: 0, count: n - 1)
        var sumSquares = 0.0
        var nn50 = 0
        var nn20 = 0
        for i in 1..<n {
            let difference = rr[i] - rr[i - 1]
            differences[i - 1] = difference
            sumSquares += difference * difference
            if abs(difference) > 50 { nn50 += 1 }
            if abs(difference) > 20 { nn20 += 1 }
        }
        meanNN = Statistics.mean(rr)
        sdnn = Statistics.sampleStandardDeviation(rr)
        rmssd = (sumSquares / Double(n - 1)).squareRoot()
        sdsd = n > 2 ? Statistics.sampleStandardDeviation(differences) : 0
        self.nn50 = nn50
        self.nn20 = nn20
        pnn50 = 100 * Double(nn50) / Double(n)
        pnn20 = 100 * Double(nn20) / Double(n)
        let heartRates = rr.map { 60_000 / $0 }
        meanHR = Statistics.mean(heartRates)
        minHR = heartRates.min() ?? .nan
        maxHR = heartRates.max() ?? .nan
        let sorted = rr.sorted()
        medianNN = Statistics.quantile(sorted: sorted, 0.5)
        cvnn = sdnn / meanNN
        let histogram = RRHistogram(sortedMilliseconds: sorted, binWidth: Self.histogramBinMilliseconds)
        triangularIndex = Double(n) / Double(histogram.modalCount)
        tinn = histogram.triangularInterpolationWidth()
    }
}

/// Histogram of RR intervals in bins [k·w, (k+1)·w) anchored at 0 ms.
struct RRHistogram {
    let binWidth: Double
    /// Index of the first bin held in `counts`.
    let firstBin: Int
    let counts: [Int]

    init(sortedMilliseconds sorted: [Double], binWidth: Double) {
        self.binWidth = binWidth
        let first = Int((sorted.first! / binWidth).rounded(.down))
        let last = Int((sorted.last! / binWidth).rounded(.down))
        var counts = [Int](repeating: 0, count: last - first + 1)
        for value in sorted { counts[Int((value / binWidth).rounded(.down)) - first] += 1 }
        firstBin = first
        self.counts = counts
    }

    var modalCount: Int { counts.max() ?? 0 }

    /// TINN (Task Force 1996): the triangle q with q = 0 at N and M, q = Y at the modal bin X,
    /// linear in between, that minimises Σ (D − q)² over the histogram; TINN = M − N.
    /// N and M run over bin centres, from the empty bin before the first occupied one to the
    /// empty bin after the last. The two sides separate, so each is minimised on its own;
    /// ties keep the widest triangle's side first found (N ascending, M ascending).
    func triangularInterpolationWidth() -> Double {
        let modal = counts.firstIndex(of: modalCount)!
        let peak = Double(modalCount)
        // Positions in bins relative to the extended range: 0 is the empty bin before.
        let extended = [0] + counts + [0]
        let x = modal + 1
        func count(_ position: Int) -> Double { Double(extended[position]) }

        var bestLeft = (error: Double.infinity, position: 0)
        for candidate in 0..<x {
            var error = 0.0
            for position in 0..<x {
                let q = position <= candidate ? 0 : peak * Double(position - candidate) / Double(x - candidate)
                let residual = count(position) - q
                error += residual * residual
            }
            if error < bestLeft.error { bestLeft = (error, candidate) }
        }
        var bestRight = (error: Double.infinity, position: extended.count - 1)
        for candidate in (x + 1)..<extended.count {
            var error = 0.0
            for position in (x + 1)..<extended.count {
                let q = position >= candidate ? 0 : peak * Double(candidate - position) / Double(candidate - x)
                let residual = count(position) - q
                error += residual * residual
            }
            if error < bestRight.error { bestRight = (error, candidate) }
        }
        return Double(bestRight.position - bestLeft.position) * binWidth
    }
}
