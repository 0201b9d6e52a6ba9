import HTTPTypes
import Hummingbird

/// Headers every response carries, errors included: Hummingbird's content-security
/// middleware (a strict policy, nosniff) plus no framing and a same-origin referrer; API
/// answers are never cached (they carry personal data) unless a route says otherwise; behind
/// HTTPS (`--secure-cookies`) browsers are told to stay on HTTPS (HSTS).
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let strictTransportSecurity: Bool
    private let contentSecurity: ContentSecurityMiddleware<Context>

    /// `imageOrigin`: a map tile server's origin, the one third party pages may load from.
    init(strictTransportSecurity: Bool, imageOrigin: String? = nil) {
        self.strictTransportSecurity = strictTransportSecurity
        let images: ContentSecurityPolicy.Directive = imageOrigin.map { .imgSrc(.self, "data:", .uri($0)) } ?? .imgSrc(.self, "data:")
        contentSecurity = ContentSecurityMiddleware(contentSecurityPolicy: [
            .defaultSrc(.self), images, .styleSrc(.self), .scriptSrc(.self), .connectSrc(.self),
            .formAction(.self), .frameAncestors(.none), .baseURI(.none), .objectSrc(.none),
        ])
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await contentSecurity.handle(request, context: context, next: next)
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        if request.uri.path.hasPrefix("/api/"), response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        if strictTransportSecurity {
            response.headers[HTTPField.Name("Strict-Transport-Security")!] = "max-age=31536000"
        }
        return response
    }
}
