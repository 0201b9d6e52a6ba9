import HTTPTypes
import HeartworkApp
import Hummingbird

/// The gateway route's own check: a gateway token (`hwg_…`) as `Authorization: Bearer` or,
/// for platforms that cannot set headers, as the query parameter `token`. User tokens,
/// revoked and unknown tokens are refused with 401 before the upgrade.
struct GatewayAuthenticationMiddleware: RouterMiddleware {
    typealias Context = LiveRequestContext
    let gateways: GatewayService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        guard let token = BearerToken.gateway(request),
            let gateway = try await gateways.authenticate(token: token)
        else {
            throw Problem(.unauthorized, "Not a gateway", detail: "send an active gateway token (hwg_…) as a bearer token or as ?token=")
        }
        context.gateway = gateway
        return try await next(request, context)
    }
}
