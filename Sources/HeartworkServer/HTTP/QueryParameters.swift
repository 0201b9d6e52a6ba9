import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// Query parameters shared by list routes, each bounded.
enum QueryParameters {
    static func page(_ request: Request) throws -> Page {
        let parameters = request.uri.queryParameters
        let limit = try integer(parameters.get("limit"), name: "limit", range: 1...100) ?? 20
        let offset = try integer(parameters.get("offset"), name: "offset", range: 0...1_000_000) ?? 0
        return Page(limit: limit, offset: offset)
    }

    static func integer(_ text: String?, name: String, range: ClosedRange<Int>) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw Problem.badRequest("\(name) is a whole number from \(range.lowerBound) to \(range.upperBound)", field: name)
        }
        return value
    }

    /// An instant of the query: a date-time or a day (`InputParsing.dateTimeOrDay`).
    static func date(_ text: String?, name: String) throws -> Date? {
        try parsed { () throws(AppError) in try InputParsing.dateTimeOrDay(text, field: name) }
    }

    /// A day of the query or the path, required (`InputParsing.requiredDay`).
    static func day(_ text: String?, name: String) throws -> CalendarDay {
        try parsed { () throws(AppError) in try InputParsing.requiredDay(text, field: name) }
    }

    /// A value of the query or the path read by `InputParsing` (shared with the web pages and
    /// bodies): a mistake there is a malformed request, 400, where the same mistake in a body
    /// is an invalid entity, 422.
    private static func parsed<T>(_ parse: () throws(AppError) -> T) throws -> T {
        do {
            return try parse()
        } catch {
            throw Problem.badRequest(error.detail, field: error.field)
        }
    }
}
