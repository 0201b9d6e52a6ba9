import Foundation

/// A day of the proleptic Gregorian calendar (yyyy-mm-dd), without a time zone.
///
/// Pure arithmetic (Howard Hinnant's `days_from_civil` / `civil_from_days`), so Core needs no
/// `Calendar`; a birth date, a measurement's day or a day of daily metrics is one of these.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Nil unless the three make a real date (February 30 is not one) in years 1–9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Strictly `yyyy-mm-dd`: four-digit year, two-digit month and day, nothing around them.
    public init?(iso text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = Self.digits(bytes[0..<4]), let month = Self.digits(bytes[5..<7]), let day = Self.digits(bytes[8..<10])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `days` after 1970-01-01 (negative before it).
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// The calendar day of an instant, at a UTC offset (0 for UTC).
    public init(_ date: Date, utcOffsetSeconds: Int = 0) {
        let seconds = (date.timeIntervalSince1970 + Double(utcOffsetSeconds)).rounded(.down)
        let clamped = max(-1e14, min(1e14, seconds))
        self.init(daysSinceEpoch: Int((clamped / 86_400).rounded(.down)))
    }

    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Midnight starting this day at a UTC offset.
    public func start(utcOffsetSeconds: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(daysSinceEpoch) * 86_400 - Double(utcOffsetSeconds))
    }

    /// Whole years from this day to `later` (an age on that day; a 29 February birthday
    /// counts from 1 March in other years).
    public func wholeYears(until later: CalendarDay) -> Int {
        var years = later.year - year
        if (later.month, later.day) < (month, day) { years -= 1 }
        return years
    }

    public func adding(days: Int) -> CalendarDay { CalendarDay(daysSinceEpoch: daysSinceEpoch + days) }

    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The value of a short run of ASCII digits (at most 9, so it cannot overflow), or nil
    /// if anything else is in it. Shared with the RFC 3339 reader in Formats.
    public static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count <= 9 else { return nil }
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
