import Foundation
import HeartworkApp
import Hummingbird

/// application/x-www-form-urlencoded bodies, read with Hummingbird's `URLEncodedFormDecoder`
/// into each page's form type (fields are optional strings: the services check the values).
enum WebForm {
    static let maximumBytes = 1024 * 1024

    /// `requiringFields`: refuse a body with no fields at all (a form that edits several
    /// values must never be taken as "clear them all").
    static func decode<Form: Decodable>(_ type: Form.Type, from request: Request, requiringFields: Bool = false) async throws -> Form {
        let buffer = try await RequestBody.collect(request, limit: maximumBytes)
        if requiringFields, !String(buffer: buffer).split(separator: "&").contains(where: { !$0.hasPrefix("_csrf=") && !$0.isEmpty }) {
            throw Problem.badRequest("the form is empty: nothing was sent to save")
        }
        do {
            return try URLEncodedFormDecoder().decode(Form.self, from: String(buffer: buffer))
        } catch {
            throw Problem.badRequest("the form could not be read")
        }
    }

    /// Nil for an empty or blank field.
    static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }

    /// A number typed into a field (a decimal comma is accepted), nil when blank.
    static func number(_ text: String?, field: String) throws -> Double? {
        guard let text = nonEmpty(text) else { return nil }
        guard let value = Double(text.replacingOccurrences(of: ",", with: ".")), value.isFinite else {
            throw AppError.invalid("'\(text)' is not a number", field: field)
        }
        return value
    }
}
