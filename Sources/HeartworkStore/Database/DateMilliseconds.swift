import Foundation

/// Times are stored as BIGINT milliseconds since 1970 on both engines.
extension Date {
    public var millisecondsSince1970: Int64 {
        let milliseconds = (timeIntervalSince1970 * 1000).rounded()
        // Clamped: a date from outside can never overflow the conversion.
        return Int64(max(-9.2e18, min(9.2e18, milliseconds.isFinite ? milliseconds : 0)))
    }

    public init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
