/// Piecewise cubic interpolant through (x_i, y_i), with strictly increasing x.
///
/// Built the way scipy.interpolate.CubicSpline builds it: solve a tridiagonal system for
/// the slopes s_i, then each piece is y_i + s_i·t + c2·t² + c3·t³ (de Boor, "A Practical
/// Guide to Splines", ch. IV). HRV resampling uses not-a-knot (scipy's default); the seed's
/// LF/HF uses a natural spline (Numerical Recipes `spline` with zero end curvature).
public struct CubicSpline: Sendable {
    public enum Boundary: Sendable {
        /// Third derivative continuous across the second and second-to-last knots.
        case notAKnot
        /// Zero second derivative at both ends.
        case natural
    }

    public let knots: [Double]
    public let values: [Double]
    private let c1: [Double], c2: [Double], c3: [Double]

    /// Needs at least two points and strictly increasing `x`; returns nil otherwise.
    public init?(x: [Double], y: [Double], boundary: Boundary = .notAKnot) {
        let n = x.count
        guard n >= 2, y.count == n else { return nil }
        for i in 1..<n where !(x[i] > x[i - 1]) { return nil }
        var dx = [Double](repeating: 0, count: n - 1)
        var slope = dx
        for i in 0..<(n - 1) {
            dx[i] = x[i + 1] - x[i]
            slope[i] = (y[i + 1] - y[i]) / dx[i]
        }
        let s: [Double]
        if n == 2 {
            s = [slope[0], slope[0]]
        } else if n == 3 && boundary == .notAKnot {
            // A single parabola through the three points (scipy's special case).
            s = CubicSpline.parabolaSlopes(dx: dx, slope: slope)
        } else {
            s = CubicSpline.slopes(x: x, dx: dx, slope: slope, boundary: boundary)
        }
        var c1 = [Double](repeating: 0, count: n - 1), c2 = c1, c3 = c1
        for i in 0..<(n - 1) {
            let t = (s[i] + s[i + 1] - 2 * slope[i]) / dx[i]
            c1[i] = s[i]
            c2[i] = (slope[i] - s[i]) / dx[i] - t
            c3[i] = t / dx[i]
        }
        knots = x
        values = y
        self.c1 = c1
        self.c2 = c2
        self.c3 = c3
    }

    /// Values at ascending points; points outside the knots extrapolate the end pieces.
    public func evaluate(ascending points: [Double]) -> [Double] {
        var result = [Double](repeating: 0, count: points.count)
        var piece = 0
        let lastPiece = knots.count - 2
        for (index, point) in points.enumerated() {
            while piece < lastPiece && point >= knots[piece + 1] { piece += 1 }
            result[index] = value(piece: piece, at: point)
        }
        return result
    }

    public func evaluate(at point: Double) -> Double {
        var low = 0, high = knots.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if knots[middle] <= point { low = middle } else { high = middle - 1 }
        }
        return value(piece: low, at: point)
    }

    private func value(piece: Int, at point: Double) -> Double {
        let t = point - knots[piece]
        return values[piece] + t * (c1[piece] + t * (c2[piece] + t * c3[piece]))
    }

    private static func parabolaSlopes(dx: [Double], slope: [Double]) -> [Double] {
        // Rows: s0 + s1 = 2·m0; dx1·s0 + 2(dx0 + dx1)·s1 + dx0·s2 = 3(dx0·m1 + dx1·m0); s1 + s2 = 2·m1.
        let (a, b) = (dx[0], dx[1])
        let rhs = 3 * (a * slope[1] + b * slope[0])
        // Substitute s0 = 2m0 − s1 and s2 = 2m1 − s1 into the middle row.
        let s1 = (rhs - b * 2 * slope[0] - a * 2 * slope[1]) / (2 * (a + b) - b - a)
        return [2 * slope[0] - s1, s1, 2 * slope[1] - s1]
    }

    /// Tridiagonal slope system, solved by the Thomas algorithm (diagonally dominant inside).
    private static func slopes(x: [Double], dx: [Double], slope: [Double], boundary: Boundary) -> [Double] {
        let n = x.count
        var lower = [Double](repeating: 0, count: n)
        var diagonal = lower, upper = lower, rhs = lower
        for i in 1..<(n - 1) {
            lower[i] = dx[i]
            diagonal[i] = 2 * (dx[i - 1] + dx[i])
            upper[i] = dx[i - 1]
            rhs[i] = 3 * (dx[i] * slope[i - 1] + dx[i - 1] * slope[i])
        }
        switch boundary {
        case .notAKnot:
            let startSpan = x[2] - x[0]
            diagonal[0] = dx[1]
            upper[0] = startSpan
            rhs[0] = ((dx[0] + 2 * startSpan) * dx[1] * slope[0] + dx[0] * dx[0] * slope[1]) / startSpan
            let endSpan = x[n - 1] - x[n - 3]
            lower[n - 1] = endSpan
            diagonal[n - 1] = dx[n - 3]
            rhs[n - 1] = (dx[n - 2] * dx[n - 2] * slope[n - 3] + (2 * endSpan + dx[n - 2]) * dx[n - 3] * slope[n - 2]) / endSpan
        case .natural:
            diagonal[0] = 2
            upper[0] = 1
            rhs[0] = 3 * slope[0]
            lower[n - 1] = 1
            diagonal[n - 1] = 2
            rhs[n - 1] = 3 * slope[n - 2]
        }
        // Forward elimination.
        for i in 1..<n {
            let factor = lower[i] / diagonal[i - 1]
            diagonal[i] -= factor * upper[i - 1]
            rhs[i] -= factor * rhs[i - 1]
        }
        var s = [Double](repeating: 0, count: n)
        s[n - 1] = rhs[n - 1] / diagonal[n - 1]
        for i in stride(from: n - 2, through: 0, by: -1) {
            s[i] = (rhs[i] - upper[i] * s[i + 1]) / diagonal[i]
        }
        return s
    }
}
