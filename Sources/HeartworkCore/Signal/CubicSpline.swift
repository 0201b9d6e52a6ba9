/// Piecewise cubic interpolant through (x_i, y_i), with strictly increasing x.
///
/// Built the way scipy.interpolate.CubicSpline builds it: solve a tridiagonal system for
/// the slopes s_i, then each piece is y_i + s_i·t + c2·t² + c3·t³ with
/// c3 = (s_i + s_{i+1} − 2m_i)/h², c2 = (m_i − s_i)/h − c3·h, m_i the secant slope
/// (de Boor, "A Practical Guide to Splines", ch. IV). HRV resampling uses not-a-knot
/// (scipy's default); the seed's LF/HF uses a natural spline (Numerical Recipes `spline`
/// with zero end curvature). Only the slopes are stored: a 24-hour recording's spline
/// costs one extra array.
public struct CubicSpline: Sendable {
    public enum Boundary: Sendable {
        /// Third derivative continuous across the second and second-to-last knots.
        case notAKnot
        /// Zero second derivative at both ends.
        case natural
    }

    public let knots: [Double]
    public let values: [Double]
    private let slopes: [Double]

    /// Needs at least two points and strictly increasing `x`; returns nil otherwise.
    public init?(x: [Double], y: [Double], boundary: Boundary = .notAKnot) {
        let n = x.count
        guard n >= 2, y.count == n else { return nil }
        for i in 1..<n where !(x[i] > x[i - 1]) { return nil }
        knots = x
        values = y
        if n == 2 {
            let slope = (y[1] - y[0]) / (x[1] - x[0])
            slopes = [slope, slope]
        } else if n == 3 && boundary == .notAKnot {
            slopes = CubicSpline.parabolaSlopes(x: x, y: y)
        } else {
            slopes = CubicSpline.solveSlopes(x: x, y: y, boundary: boundary)
        }
    }

    /// Values at ascending points; points outside the knots extrapolate the end pieces.
    public func evaluate(ascending points: [Double]) -> [Double] {
        var result = [Double](repeating: 0, count: points.count)
        let lastPiece = knots.count - 2
        knots.withUnsafeBufferPointer { x in
            values.withUnsafeBufferPointer { y in
                slopes.withUnsafeBufferPointer { s in
                    result.withUnsafeMutableBufferPointer { out in
                        var piece = 0
                        var coefficients = Self.coefficients(piece: 0, x: x, y: y, s: s)
                        for (index, point) in points.enumerated() {
                            if piece < lastPiece && point >= x[piece + 1] {
                                repeat { piece += 1 } while piece < lastPiece && point >= x[piece + 1]
                                coefficients = Self.coefficients(piece: piece, x: x, y: y, s: s)
                            }
                            let t = point - x[piece]
                            out[index] = y[piece] + t * (s[piece] + t * (coefficients.c2 + t * coefficients.c3))
                        }
                    }
                }
            }
        }
        return result
    }

    public func evaluate(at point: Double) -> Double {
        var low = 0
        var high = knots.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if knots[middle] <= point { low = middle } else { high = middle - 1 }
        }
        return knots.withUnsafeBufferPointer { x in
            values.withUnsafeBufferPointer { y in
                slopes.withUnsafeBufferPointer { s in
                    let coefficients = Self.coefficients(piece: low, x: x, y: y, s: s)
                    let t = point - x[low]
                    return y[low] + t * (s[low] + t * (coefficients.c2 + t * coefficients.c3))
                }
            }
        }
    }

    private static func coefficients(
        piece i: Int, x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, s: UnsafeBufferPointer<Double>
    ) -> (c2: Double, c3: Double) {
        let inverseH = 1 / (x[i + 1] - x[i])
        let secant = (y[i + 1] - y[i]) * inverseH
        let t = (s[i] + s[i + 1] - 2 * secant) * inverseH
        return ((secant - s[i]) * inverseH - t, t * inverseH)
    }

    private static func parabolaSlopes(x: [Double], y: [Double]) -> [Double] {
        // Rows: s0 + s1 = 2·m0; h1·s0 + 2(h0 + h1)·s1 + h0·s2 = 3(h0·m1 + h1·m0); s1 + s2 = 2·m1.
        let a = x[1] - x[0]
        let b = x[2] - x[1]
        let m0 = (y[1] - y[0]) / a
        let m1 = (y[2] - y[1]) / b
        let rhs = 3 * (a * m1 + b * m0)
        // Substitute s0 = 2m0 − s1 and s2 = 2m1 − s1 into the middle row.
        let s1 = (rhs - b * 2 * m0 - a * 2 * m1) / (a + b)
        return [2 * m0 - s1, s1, 2 * m1 - s1]
    }

    /// The tridiagonal slope system (scipy's rows), solved by the Thomas algorithm:
    /// interior row i: h_i·s_{i−1} + 2(h_{i−1} + h_i)·s_i + h_{i−1}·s_{i+1} = 3(h_i·m_{i−1} + h_{i−1}·m_i).
    private static func solveSlopes(x xs: [Double], y ys: [Double], boundary: Boundary) -> [Double] {
        let n = xs.count
        var diagonal = [Double](repeating: 0, count: n)
        var rhs = [Double](repeating: 0, count: n)
        xs.withUnsafeBufferPointer { x in
            ys.withUnsafeBufferPointer { y in
                diagonal.withUnsafeMutableBufferPointer { d in
                    rhs.withUnsafeMutableBufferPointer { r in
                        func h(_ i: Int) -> Double { x[i + 1] - x[i] }
                        func m(_ i: Int) -> Double { (y[i + 1] - y[i]) / (x[i + 1] - x[i]) }
                        // Row 0 and its upper entry.
                        var upperPrevious: Double
                        switch boundary {
                        case .notAKnot:
                            let span = x[2] - x[0]
                            d[0] = h(1)
                            upperPrevious = span
                            r[0] = ((h(0) + 2 * span) * h(1) * m(0) + h(0) * h(0) * m(1)) / span
                        case .natural:
                            d[0] = 2
                            upperPrevious = 1
                            r[0] = 3 * m(0)
                        }
                        // Forward elimination through the interior rows; the reciprocal of each
                        // pivot is kept (in `d`) so back substitution only multiplies.
                        var hPrevious = h(0)
                        var mPrevious = m(0)
                        var pivot = d[0]
                        for i in 1..<(n - 1) {
                            let hi = h(i)
                            let mi = m(i)
                            let inverse = 1 / pivot
                            d[i - 1] = inverse
                            let factor = hi * inverse
                            pivot = 2 * (hPrevious + hi) - factor * upperPrevious
                            r[i] = 3 * (hi * mPrevious + hPrevious * mi) - factor * r[i - 1]
                            upperPrevious = hPrevious
                            hPrevious = hi
                            mPrevious = mi
                        }
                        // Last row.
                        let lowerLast: Double
                        let diagonalLast: Double
                        let rhsLast: Double
                        switch boundary {
                        case .notAKnot:
                            let span = x[n - 1] - x[n - 3]
                            lowerLast = span
                            diagonalLast = h(n - 3)
                            rhsLast = (h(n - 2) * h(n - 2) * m(n - 3) + (2 * span + h(n - 2)) * h(n - 3) * m(n - 2)) / span
                        case .natural:
                            lowerLast = 1
                            diagonalLast = 2
                            rhsLast = 3 * m(n - 2)
                        }
                        let inverse = 1 / pivot
                        d[n - 2] = inverse
                        let factor = lowerLast * inverse
                        r[n - 1] = (rhsLast - factor * r[n - 2]) / (diagonalLast - factor * upperPrevious)
                        // Back substitution; the upper entry of row i is h_{i−1} (row 0: as set above).
                        let firstUpper = boundary == .notAKnot ? x[2] - x[0] : 1
                        for i in stride(from: n - 2, through: 1, by: -1) {
                            r[i] = (r[i] - h(i - 1) * r[i + 1]) * d[i]
                        }
                        r[0] = (r[0] - firstUpper * r[1]) * d[0]
                    }
                }
            }
        }
        return rhs
    }
}
