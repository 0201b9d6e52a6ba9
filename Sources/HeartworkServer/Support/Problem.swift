import Foundation
import Hummingbird

/// An error the API reports as application/problem+json (RFC 9457), naming what was wrong.
public struct APIError: Error, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var title: String
    public var detail: String
    /// The request field at fault, as a JSON path (`track[3].lat`), or a query parameter.
    public var field: String?

    public init(_ status: HTTPResponse.Status, _ title: String, detail: String, field: String? = nil) {
        self.status = status
        self.title = title
        self.detail = detail
        self.field = field
    }

    public static func badRequest(_ detail: String, field: String? = nil) -> APIError {
        APIError(.badRequest, "Bad request", detail: detail, field: field)
    }

    public static func invalid(_ detail: String, field: String?) -> APIError {
        APIError(.unprocessableContent, "Invalid value", detail: detail, field: field)
    }

    public static let unauthorized = APIError(.unauthorized, "Not signed in", detail: "sign in, or send a valid bearer token")

    public static func notFound(_ what: String) -> APIError {
        APIError(.notFound, "Not found", detail: "no \(what) here, or not yours to see")
    }

    public static func conflict(_ detail: String, field: String? = nil) -> APIError {
        APIError(.conflict, "Conflict", detail: detail, field: field)
    }

    public static func tooManyRequests(_ detail: String, retryAfterSeconds: Int) -> APIError {
        APIError(.tooManyRequests, "Too many attempts", detail: "\(detail); try again in \(retryAfterSeconds / 60 + 1) minutes")
    }

    public static let forbiddenCSRF = APIError(.forbidden, "Forbidden", detail: "missing or wrong CSRF token for a cookie-authenticated request")

    struct Body: Encodable {
        let type: String
        let title: String
        let status: Int
        let detail: String
        let field: String?
    }

    func response() -> Response {
        let body = Body(type: "about:blank", title: title, status: Int(status.code), detail: detail, field: field)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/problem+json"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer realm=\"heartwork\"" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
