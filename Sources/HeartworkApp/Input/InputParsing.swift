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
