import Foundation
import HTTPTypes
import HeartworkApp
import Hummingbird
import HummingbirdAuth

/// Finds who is asking, for the HTTP and the WebSocket router alike: a bearer token (API
/// clients) or the session cookie (web app). A bearer token that is unknown, expired or
/// revoked is answered 401 at once; a stale cookie is ignored so a page can offer sign-in.
/// Cookie-authenticated requests that change something must carry the session's CSRF token
/// (header X-CSRF-Token or form field _csrf); a cookie-authenticated WebSocket upgrade must
/// come from this site (its Origin), since browsers send cookies with cross-site upgrades.
struct AuthenticationMiddleware<Context: IdentifiedRequestContext>: RouterMiddleware {
    static var cookieName: String { SessionCookie.name }
    static var csrfHeader: HTTPField.Name { SessionCookie.csrfHeader }

    let authenticator: Authenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        var request = request
        // A gateway token is the gateway route's own business (the socket, and its HTTP check).
        let gatewayRoute = Context.leavesGatewayTokensToTheRoute || request.uri.path == "/api/live/gateway"
        if let authorization = request.headers[.authorization],
            !(gatewayRoute && authorization.dropFirst(7).hasPrefix(GatewayService.tokenPrefix)),
            // A sync token is the sync routes' own business (they take nothing else).
            !(request.uri.path.hasPrefix("/api/sync/") && authorization.dropFirst(7).hasPrefix(HealthSyncService.tokenPrefix))
        {
            guard let token = BearerToken.from(request.headers),
                let identity = try await authenticator.identity(token: token, via: .bearer)
            else {
                throw Problem(AppError.notSignedIn)
            }
            context.identity = identity
        } else if let cookie = request.cookies[SessionCookie.name]?.value,
            let identity = try await authenticator.identity(token: cookie, via: .cookie)
        {
            context.identity = identity
            if !Self.safeMethods.contains(request.method) {
                try await checkCSRF(&request, context: context, expected: identity.session.csrfToken)
            }
            if request.headers[.upgrade]?.lowercased() == "websocket" {
                try SameOrigin.requireForCookieUpgrade(request)
            }
        }
        return try await next(request, context)
    }

    static var safeMethods: Set<HTTPRequest.Method> { [.get, .head, .options] }

    private func checkCSRF(_ request: inout Request, context: Context, expected: String?) async throws {
        guard let expected else { throw Problem.forbiddenCSRF }
        if let header = request.headers[SessionCookie.csrfHeader] {
            guard SessionToken.matchesCSRF(header, expected: expected) else { throw Problem.forbiddenCSRF }
            return
        }
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else { throw Problem.forbiddenCSRF }
        // Collecting keeps the body readable for the handler.
        let body = try await request.collectBody(upTo: WebForm.maximumBytes)
        let form = try? URLEncodedFormDecoder().decode(CSRFField.self, from: String(buffer: body))
        guard let token = form?._csrf, SessionToken.matchesCSRF(token, expected: expected) else { throw Problem.forbiddenCSRF }
    }

    private struct CSRFField: Decodable {
        let _csrf: String?
    }
}
