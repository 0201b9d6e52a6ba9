import Foundation
import HeartworkApp
import Hummingbird

/// The caller's gateways: create (the token is in this answer only), list, read, rename,
/// revoke. The gateway WebSocket itself is in docs/PROTOCOL.md.
struct GatewayRoutes {
    let services: HeartworkServices

    /// The gateway socket's address asked without an upgrade (a gateway finding out why its
    /// upgrade failed: WebSocket clients seldom show the status): 426 with the token good,
    /// 401 without one or with a wrong or revoked one. The token as for the socket.
    func registerCheck(on api: RouterGroup<AppRequestContext>) {
        api.get("live/gateway") { request, _ -> Response in
            let header = request.headers[.authorization].flatMap { $0.lowercased().hasPrefix("bearer ") ? String($0.dropFirst(7)) : nil }
            guard let token = header ?? request.uri.queryParameters.get("token"),
                  try await services.gateways.authenticate(token: token) != nil else {
                throw Problem(.unauthorized, "Not a gateway", detail: "send an active gateway token (hwg_…) as a bearer token or as ?token=")
            }
            var headers = HTTPFields()
            headers[.upgrade] = "websocket"
            throw Problem(.upgradeRequired, "Upgrade required", detail: "the token is good: connect with a WebSocket upgrade (docs/PROTOCOL.md)",
                          headers: headers)
        }
    }

    func register(on api: RouterGroup<AuthenticatedContext>) {
        api.post("gateways") { request, context -> Response in
            let body = try await RequestBody.jsonObject(request, allowed: GatewayNameRequest.fields, limit: 4 * 1024)
            let created = try await services.gateways.create(name: try body.string("name"), for: context.user)
            var response = try APIJSON.response(GatewayResponse(created.gateway, token: created.token), status: .created)
            response.headers[.location] = "/api/gateways/\(created.gateway.id)"
            return response
        }
        api.get("gateways") { _, context -> GatewayListResponse in
            GatewayListResponse(gateways: try await services.gateways.list(for: context.user).map { GatewayResponse($0) })
        }
        api.get("gateways/:gatewayID") { _, context -> GatewayResponse in
            GatewayResponse(try await services.gateways.gateway(try context.parameters.require("gatewayID"), of: context.user))
        }
        api.patch("gateways/:gatewayID") { request, context -> GatewayResponse in
            let body = try await RequestBody.jsonObject(request, allowed: GatewayNameRequest.fields, limit: 4 * 1024)
            return GatewayResponse(try await services.gateways.rename(
                try context.parameters.require("gatewayID"), of: context.user, to: try body.string("name")))
        }
        api.delete("gateways/:gatewayID") { _, context -> HTTPResponse.Status in
            try await services.gateways.revoke(try context.parameters.require("gatewayID"), of: context.user)
            return .noContent
        }
    }
}
