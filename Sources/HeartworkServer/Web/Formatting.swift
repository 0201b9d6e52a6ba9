import Foundation
import HeartworkCore

/// Human-readable values for pages.
enum Formatting {
    static func duration(_ seconds: Int) -> String {
        let hours = seconds / 3600, minutes = (seconds % 3600) / 60, rest = seconds % 60
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    static func day(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, timeZone: .gmt))
    }

    static func dateTime(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: .gmt)) + " UTC"
    }

    static func distance(_ meters: Double?, imperial: Bool) -> String {
        guard let meters else { return "–" }
        return imperial ? String(format: "%.2f mi", Length.miles(fromMeters: meters)) : String(format: "%.2f km", Length.kilometers(fromMeters: meters))
    }

    static func number(_ value: Double?, decimals: Int = 0, unit: String = "") -> String {
        guard let value else { return "–" }
        return String(format: "%.\(decimals)f", value) + (unit.isEmpty ? "" : " \(unit)")
    }
}
