import Foundation
import HeartworkStore
import HTTPTypes
import Hummingbird

/// Finds who is asking: a bearer token (API) or the session cookie (web app). A bearer
/// token that is unknown, expired or revoked is answered 401 at once; a stale cookie is
/// ignored so the page can offer a sign-in. Cookie-authenticated requests that change
/// something must carry the session's CSRF token (header X-CSRF-Token or form field _csrf).
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let cookieName = "hw_session"
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    let store: HeartworkStore
    let cache: SessionCache

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        var request = request
        let now = Date()
        if let authorization = request.headers[.authorization] {
            guard authorization.lowercased().hasPrefix("bearer "), let identity = try await resolve(String(authorization.dropFirst(7)), viaCookie: false, now: now) else {
                throw APIError.unauthorized
            }
            context.identity = identity
        } else if let cookie = request.cookies[Self.cookieName]?.value, let identity = try await resolve(cookie, viaCookie: true, now: now) {
            context.identity = identity
            if !Self.safeMethods.contains(request.method) {
                try await checkCSRF(&request, expected: identity.session.csrfToken)
            }
        }
        return try await next(request, context)
    }

    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options]

    private func resolve(_ token: String, viaCookie: Bool, now: Date) async throws -> Identity? {
        let trimmed = token.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("hw_"), trimmed.count < 100 else { return nil }
        let hash = SessionToken.hash(trimmed)
        let found: (session: SessionRecord, user: UserRecord)?
        if let cached = cache.lookup(tokenHash: hash, now: now) {
            found = cached
        } else {
            found = try await store.sessions.findWithUser(tokenHash: hash)
            if let found, found.session.isValid(at: now) { cache.store(found.session, found.user, now: now) }
        }
        guard let (session, user) = found, session.isValid(at: now) else { return nil }
        // A web cookie only works as a cookie, an API token only as a bearer token.
        guard (session.kind == .web) == viaCookie else { return nil }
        return Identity(user: user, session: session, viaCookie: viaCookie)
    }

    private func checkCSRF(_ request: inout Request, expected: String?) async throws {
        guard let expected else { throw APIError.forbiddenCSRF }
        if let header = request.headers[Self.csrfHeader] {
            guard SessionToken.equal(header, expected) else { throw APIError.forbiddenCSRF }
            return
        }
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else { throw APIError.forbiddenCSRF }
        let body = try await request.collectBody(upTo: 1024 * 1024)
        let form = FormData(String(buffer: body))
        guard let token = form["_csrf"], SessionToken.equal(token, expected) else { throw APIError.forbiddenCSRF }
    }
}

/// application/x-www-form-urlencoded fields.
struct FormData: Sendable {
    private var fields: [String: String] = [:]

    init(_ text: String) {
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            fields[name] = parts.count > 1 ? Self.decode(parts[1]) ?? "" : ""
        }
    }

    subscript(name: String) -> String? { fields[name] }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    static func read(_ request: Request, limit: Int = 1024 * 1024) async throws -> FormData {
        let buffer = try await JSONBody.collect(request, limit: limit)
        return FormData(String(buffer: buffer))
    }
}
