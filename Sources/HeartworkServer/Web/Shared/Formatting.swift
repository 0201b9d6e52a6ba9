import Foundation
import HeartworkCore

/// Values as pages show them: in the user's units and time zone.
enum Formatting {
    static func duration(_ seconds: Int) -> String {
        let seconds = max(0, seconds)
        let hours = seconds / 3600
        let minutes = (seconds % 3600) / 60
        let rest = seconds % 60
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]

    /// "Sat 21 Nov 2026".
    static func day(_ day: CalendarDay) -> String {
        let weekday = weekdays[((day.daysSinceEpoch % 7) + 7) % 7]
        return "\(weekday) \(day.day) \(months[day.month - 1]) \(day.year)"
    }

    static func day(_ date: Date, zone: TimeZone = .gmt) -> String {
        day(CalendarDay(date, utcOffsetSeconds: zone.secondsFromGMT(for: date)))
    }

    /// "21 Nov" in the zone: an axis's date.
    static func shortDay(_ date: Date, zone: TimeZone = .gmt) -> String {
        let day = CalendarDay(date, utcOffsetSeconds: zone.secondsFromGMT(for: date))
        return "\(day.day) \(months[day.month - 1])"
    }

    /// "Sat 21 Nov 2026, 07:30 CET" in the zone.
    static func dateTime(_ date: Date, zone: TimeZone = .gmt) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let seconds = Int((date.timeIntervalSince1970 + Double(offset)).rounded(.down))
        let minutesOfDay = ((seconds % 86_400) + 86_400) % 86_400 / 60
        let name = zone.abbreviation(for: date) ?? zone.identifier
        return day(date, zone: zone) + String(format: ", %02d:%02d ", minutesOfDay / 60, minutesOfDay % 60) + name
    }

    static func distance(_ meters: Double?, units: UnitSystem) -> String {
        guard let meters else { return "–" }
        return units == .imperial ? String(format: "%.2f mi", Length.miles(fromMeters: meters)) : String(format: "%.2f km", Length.kilometers(fromMeters: meters))
    }

    static func number(_ value: Double?, decimals: Int = 0, unit: String = "") -> String {
        guard let value, value.isFinite else { return "–" }
        return String(format: "%.\(decimals)f", value) + (unit.isEmpty ? "" : " \(unit)")
    }

    /// "1 session", "3 sessions", "1,652 new samples".
    static func count(_ n: some BinaryInteger, _ noun: String, plural: String? = nil) -> String {
        "\(Int(n).formatted(.number.locale(Locale(identifier: "en_US")))) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    /// A value for a form field: up to `decimals` places, without trailing zeros ("2.5", "20",
    /// "1.25"), so what a person typed reads back as they typed it.
    static func field(_ value: Double, decimals: Int = 2) -> String {
        guard value.isFinite else { return "" }
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// Body height: "178 cm", or "5 ft 10 in".
    static func height(_ meters: Double?, units: UnitSystem) -> String {
        guard let meters else { return "–" }
        guard units == .imperial else { return String(format: "%.0f cm", meters * 100) }
        let inches = Int((meters / 0.0254).rounded())
        return "\(inches / 12) ft \(inches % 12) in"
    }

    /// Elevation: metres or feet.
    static func elevation(_ meters: Double, units: UnitSystem) -> String {
        units == .imperial ? String(format: "%.0f ft", meters / 0.3048) : String(format: "%.0f m", meters)
    }

    static func weight(_ kilograms: Double?, units: UnitSystem) -> String {
        guard let kilograms else { return "–" }
        return units == .imperial ? String(format: "%.1f lb", BodyMass.pounds(fromKilograms: kilograms)) : String(format: "%.1f kg", kilograms)
    }
}
