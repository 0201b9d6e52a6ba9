import Foundation
import HeartworkCore

/// Internet date-times (RFC 3339, the ISO 8601 profile JSON APIs use), parsed strictly:
/// `2026-11-21T07:30:00Z`, `2026-11-21T07:30:00.250+01:00`. Every field is range-checked
/// (no 31 February, no 25:61:61), so a wrong date is refused instead of rolled over into
/// another one, as lenient parsers do.
public enum RFC3339 {
    /// The instant, or nil when `text` is not such a date-time. Also keeps the UTC offset
    /// the text was written with, in seconds.
    public static func parseWithOffset(_ text: some StringProtocol) -> (date: Date, utcOffsetSeconds: Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40,
            let day = CalendarDay(iso: String(decoding: bytes[0..<10], as: UTF8.self)),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]), let second = number(bytes[17..<19]),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, let digit = number(bytes[index..<(index + 1)]) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index - start <= 9 else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.count == index + 6, bytes[index + 3] == UInt8(ascii: ":"),
                let hours = number(bytes[(index + 1)..<(index + 3)]), let minutes = number(bytes[(index + 4)..<(index + 6)]),
                hours <= 23, minutes <= 59
            else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = Double(day.daysSinceEpoch) * 86_400 + Double(hour * 3600 + minute * 60 + second) + fraction - Double(offset)
        return (Date(timeIntervalSince1970: seconds), offset)
    }

    public static func parse(_ text: some StringProtocol) -> Date? { parseWithOffset(text)?.date }

    /// A date-time (`parse`) or, for query bounds, a bare day taken as its UTC midnight.
    public static func parseDateTimeOrDay(_ text: some StringProtocol) -> Date? {
        parse(text) ?? CalendarDay(iso: text)?.start()
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        CalendarDay.digits(bytes)
    }
}
