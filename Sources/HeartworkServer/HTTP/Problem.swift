import Foundation
import HeartworkApp
import HeartworkFormats
import Hummingbird

/// An error as the API reports it: application/problem+json (RFC 9457) with a `field`
/// naming what was wrong. Domain errors (`AppError`) and request-shape errors
/// (`JSONFieldError`) become one of these at the edge.
public struct Problem: HTTPResponseError, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var title: String
    public var detail: String
    /// The request field at fault, as a JSON path (`track[3].lat`), or a query parameter.
    public var field: String?
    public var headers: HTTPFields
    /// Every field at fault when there are several.
    public var errors: [AppError.FieldError] = []
    /// What a person reads (the web app shows it): what happened and what to do. Without it,
    /// the detail as a sentence. Scripts read `detail`, which stays precise.
    public var message: String?

    public init(_ status: HTTPResponse.Status, _ title: String, detail: String, field: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.title = title
        self.detail = detail
        self.field = field
        self.headers = headers
    }

    public static func badRequest(_ detail: String, field: String? = nil) -> Problem {
        Problem(.badRequest, "Bad request", detail: detail, field: field)
    }

    /// The same problem with a message for people.
    public func withMessage(_ message: String) -> Problem {
        var problem = self
        problem.message = message
        return problem
    }

    /// The message for people: the explicit one, or the detail as a sentence.
    public var sentence: String { message ?? AppError.sentence(detail) }

    public static let forbiddenCSRF = Problem(.forbidden, "Forbidden", detail: "missing or wrong CSRF token for a cookie-authenticated request")
        .withMessage("This page was open for too long, or you signed in again elsewhere. Reload the page and try again; what you typed is still in the form.")

    /// A sign-in or sign-up form sent from another site, or from an opaque origin (`null`).
    public static let forbiddenOrigin = Problem(
        .forbidden, "Forbidden", detail: "the form was sent from another site or an opaque origin (Origin: null); send it from this site's own page"
    )
    .withMessage("This form was sent from another site or page. Open this site's own page and send the form there.")

    /// An error of the server's own: nothing about it helps the caller.
    public static let serverError = Problem(.internalServerError, "Server error", detail: "the server could not complete the request")
        .withMessage("Something went wrong on the server. Try again in a moment; if it keeps happening, tell whoever runs this Heartwork.")

    public init(_ error: AppError) {
        switch error.kind {
        case .invalid:
            self.init(.unprocessableContent, "Invalid value", detail: error.detail, field: error.field)
            if error.fieldErrors.count > 1 { errors = error.fieldErrors }
        case .notFound: self.init(.notFound, "Not found", detail: error.detail, field: error.field)
        case .conflict:
            var headers = HTTPFields()
            if let location = error.location { headers[.location] = location }
            self.init(.conflict, "Conflict", detail: error.detail, field: error.field, headers: headers)
        case .unauthenticated:
            var headers = HTTPFields()
            headers[.wwwAuthenticate] = "Bearer realm=\"heartwork\""
            let title = error == .notSignedIn ? "Not signed in" : "Sign-in failed"
            self.init(.unauthorized, title, detail: error.detail, field: error.field, headers: headers)
        case .forbidden: self.init(.forbidden, "Forbidden", detail: error.detail, field: error.field)
        case .throttled:
            var headers = HTTPFields()
            let seconds = error.retryAfterSeconds ?? 60
            headers[.retryAfter] = String(seconds)
            let later = seconds < 90 ? "\(seconds) second\(seconds == 1 ? "" : "s")" : "\((seconds + 59) / 60) minutes"
            self.init(.tooManyRequests, "Too many attempts", detail: "\(error.detail); try again in \(later)", field: error.field, headers: headers)
        case .unavailable:
            var headers = HTTPFields()
            if let seconds = error.retryAfterSeconds { headers[.retryAfter] = String(seconds) }
            self.init(.serviceUnavailable, "Unavailable", detail: error.detail, field: error.field, headers: headers)
        }
        message = error.message
    }

    public init(_ error: JSONFieldError) {
        switch error.kind {
        case .notJSON, .wrongType: self.init(.badRequest, "Bad request", detail: error.message, field: error.path)
        case .missing, .unknownField, .invalidValue: self.init(.unprocessableContent, "Invalid value", detail: error.message, field: error.path)
        }
    }

    struct Body: Encodable {
        struct FieldError: Encodable {
            let field: String
            let detail: String
        }

        let type: String
        let title: String
        let status: Int
        let detail: String
        let message: String
        let field: String?
        let errors: [FieldError]?
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response { response() }

    func response() -> Response {
        var headers = headers
        headers[.contentType] = "application/problem+json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bodyBytes)))
    }

    /// The problem+json document.
    var bodyBytes: [UInt8] {
        let body = Body(
            type: "about:blank", title: title, status: Int(status.code), detail: detail, message: sentence, field: field,
            errors: errors.isEmpty ? nil : errors.map { Body.FieldError(field: $0.field, detail: $0.detail) })
        return [UInt8]((try? APIJSON.encoder.encode(body)) ?? Data("{}".utf8))
    }
}
