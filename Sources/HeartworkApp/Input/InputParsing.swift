import Foundation
import HeartworkCore
import HeartworkFormats

/// Text from a form or a JSON body turned into the domain's closed sets and values, with
/// one message per mistake for every edge (API, web pages, command line).
public enum InputParsing {
    public static func calendarDay(_ text: String, field: String) throws(AppError) -> CalendarDay {
        guard let day = CalendarDay(iso: text.trimmingCharacters(in: .whitespaces)) else {
            throw AppError.invalid("'\(text)' is not a date written as yyyy-mm-dd", field: field)
        }
        return day
    }

    /// A day in a query, a path or a form, where none means "not given" (nil); one given is
    /// exactly yyyy-mm-dd.
    public static func optionalDay(_ text: String?, field: String) throws(AppError) -> CalendarDay? {
        guard let text, !text.isEmpty else { return nil }
        guard text.utf8.count == 10, let day = CalendarDay(iso: text) else {
            throw AppError.invalid("\(field) is a date such as 2026-11-01, not \(text.prefix(40))", field: field)
        }
        return day
    }

    /// A day that must be given.
    public static func requiredDay(_ text: String?, field: String) throws(AppError) -> CalendarDay {
        guard let day = try optionalDay(text, field: field) else {
            throw AppError.invalid("\(field) is required, a date such as 2026-11-01", field: field)
        }
        return day
    }

    /// A time of day as hh:mm (24-hour), as the minute of the day.
    public static func minuteOfDay(_ text: String?, field: String) throws(AppError) -> Int {
        let parts = (text ?? "").trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
            (0..<24).contains(hours), (0..<60).contains(minutes)
        else {
            throw AppError.invalid("a time of day such as 18:00", field: field)
        }
        return hours * 60 + minutes
    }

    /// A day's mark: `sick` or `traveling`; nil (JSON null, or `none` from a form) clears it.
    public static func dayMark(_ text: String?, field: String) throws(AppError) -> Readiness.Status? {
        switch text {
        case nil, "none": return nil
        case "sick": return .sick
        case "traveling": return .traveling
        case let other?: throw AppError.invalid("a day is marked sick, traveling or none, not \(other.prefix(40))", field: field)
        }
    }

    /// A query's instant: a date-time (RFC 3339) or a day (its start, UTC).
    public static func dateTimeOrDay(_ text: String?, field: String) throws(AppError) -> Date? {
        guard let text else { return nil }
        guard let date = RFC3339.parseDateTimeOrDay(text) else {
            throw AppError.invalid("\(field) is a date or date-time, such as 2026-11-01 or 2026-11-01T06:00:00Z", field: field)
        }
        return date
    }

    public static func dateTime(_ text: String, field: String) throws(AppError) -> Date {
        guard let date = RFC3339.parse(text) else {
            throw AppError.invalid("'\(text)' is not a date-time such as 2026-11-21T07:30:00Z", field: field)
        }
        return date
    }

    public static func oneOf<T: RawRepresentable & CaseIterable>(_ text: String, _ type: T.Type, field: String, what: String) throws(AppError) -> T
    where T.RawValue == String {
        guard let value = T(rawValue: text) else {
            throw AppError.invalid("\(what) is one of \(T.allCases.map(\.rawValue).joined(separator: ", "))", field: field)
        }
        return value
    }
}
