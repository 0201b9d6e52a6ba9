import Foundation
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

    static func date(_ text: String?, name: String) throws -> Date? {
        guard let text else { return nil }
        if let date = RFC3339.parseDateTimeOrDay(text) { return date }
        throw Problem.badRequest("\(name) is a date or date-time, such as 2026-11-01 or 2026-11-01T06:00:00Z", field: name)
    }
}
