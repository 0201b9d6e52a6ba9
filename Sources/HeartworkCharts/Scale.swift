import Foundation

/// Maps a data interval onto a pixel interval, and picks round tick values.
public struct LinearScale: Sendable {
    public let domain: ClosedRange<Double>
    public let range: (start: Double, end: Double)

    public init(domain: ClosedRange<Double>, range: (start: Double, end: Double)) {
        // A degenerate domain still gets a visible span.
        self.domain =
            domain.lowerBound == domain.upperBound
            ? (domain.lowerBound - 1)...(domain.upperBound + 1) : domain
        self.range = range
    }

    public func callAsFunction(_ value: Double) -> Double {
        let fraction = (value - domain.lowerBound) / (domain.upperBound - domain.lowerBound)
        return range.start + fraction * (range.end - range.start)
    }

    /// About `count` ticks at 1, 2 or 5 × 10ⁿ steps inside the domain.
    public func ticks(count: Int = 5) -> [Double] {
        let step = Self.niceStep(span: domain.upperBound - domain.lowerBound, count: count)
        var tick = (domain.lowerBound / step).rounded(.up) * step
        var ticks = [Double]()
        while tick <= domain.upperBound + step * 1e-9 && ticks.count < 50 {
            ticks.append(abs(tick) < step * 1e-9 ? 0 : tick)
            tick += step
        }
        return ticks
    }

    public static func niceStep(span: Double, count: Int) -> Double {
        guard span > 0, span.isFinite else { return 1 }
        let raw = span / Double(max(1, count))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let residual = raw / magnitude
        let nice: Double = residual < 1.5 ? 1 : residual < 3 ? 2 : residual < 7 ? 5 : 10
        return nice * magnitude
    }

    /// A domain widened to round tick values around the data, with optional padding.
    public static func niceDomain(_ values: some Sequence<Double>, padding: Double = 0, includeZero: Bool = false) -> ClosedRange<Double> {
        var low = Double.infinity
        var high = -Double.infinity
        for value in values where value.isFinite {
            low = min(low, value)
            high = max(high, value)
        }
        if !low.isFinite { return 0...1 }
        if includeZero {
            low = min(low, 0)
            high = max(high, 0)
        }
        let span = max(high - low, abs(high) * 0.01, 1e-9)
        low -= span * padding
        high += span * padding
        let step = niceStep(span: high - low, count: 5)
        return ((low / step).rounded(.down) * step)...((high / step).rounded(.up) * step)
    }
}

/// Tick labels without noise: as many decimals as the step needs (0.05 → 2), none for 250.
func tickLabel(_ value: Double, step: Double) -> String {
    if abs(value) >= 10_000 { return String(format: "%.0fk", value / 1000) }
    let decimals = max(0, Int(-log10(step).rounded(.down)))
    return String(format: "%.\(min(decimals, 4))f", value)
}
