import Foundation
import HeartworkFormats

/// A workout written as a file, with the name to save it under.
public struct ExportedWorkout: Sendable {
    public var bytes: [UInt8]
    public var format: ActivityFileFormat
    /// `heartwork-running-2026-06-01-0630.fit`, in the owner's time zone (the day and time the
    /// athlete knows the workout by; UTC for a user without a zone).
    public var fileName: String

    static func day(_ date: Date, zone: TimeZone = TimeZone(identifier: "UTC")!) -> String { String(stamp(date, zone: zone).prefix(10)) }

    static func stamp(_ date: Date, zone: TimeZone = TimeZone(identifier: "UTC")!) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ v: Int?) -> String {
            let n = v ?? 0
            return n < 10 ? "0\(n)" : "\(n)"
        }
        return "\(c.year ?? 1970)-\(two(c.month))-\(two(c.day))-\(two(c.hour))\(two(c.minute))"
    }
}
