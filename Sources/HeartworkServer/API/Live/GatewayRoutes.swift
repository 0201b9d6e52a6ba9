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
        api.get("live/gateway", use: getLiveGateway)
    }

    /// GET /api/live/gateway
    func getLiveGateway(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let token = BearerToken.gateway(request),
            try await services.gateways.authenticate(token: token) != nil
        else {
            throw Problem(.unauthorized, "Not a gateway", detail: "send an active gateway token (hwg_…) as a bearer token or as ?token=")
        }
        var headers = HTTPFields()
        headers[.upgrade] = "websocket"
        throw Problem(
            .upgradeRequired, "Upgrade required", detail: "the token is good: connect with a WebSocket upgrade (docs/PROTOCOL.md)",
            headers: headers)
    }

    func register(on api: RouterGroup<AuthenticatedContext>) {
        api.post("gateways", use: postGateways)
        api.get("gateways", use: getGateways)
        api.get("gateways/:gatewayID", use: getGatewaysGatewayID)
        api.patch("gateways/:gatewayID", use: patchGatewaysGatewayID)
        api.delete("gateways/:gatewayID", use: deleteGatewaysGatewayID)
    }

    /// POST /api/gateways
    func postGateways(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await RequestBody.jsonObject(request, allowed: GatewayNameRequest.fields, limit: 4 * 1024)
        let created = try await services.gateways.create(name: try body.string("name"), for: context.user)
        var response = try APIJSON.response(GatewayResponse(created.gateway, token: created.token), status: .created)
        response.headers[.location] = "/api/gateways/\(created.gateway.id)"
        return response
    }

    /// GET /api/gateways
    func getGateways(_ request: Request, context: AuthenticatedContext) async throws -> GatewayListResponse {
        GatewayListResponse(gateways: try await services.gateways.list(for: context.user).map { GatewayResponse($0) })
    }

    /// GET /api/gateways/:gatewayID
    func getGatewaysGatewayID(_ request: Request, context: AuthenticatedContext) async throws -> GatewayResponse {
        GatewayResponse(try await services.gateways.gateway(try context.parameters.require("gatewayID"), of: context.user))
    }

    /// PATCH /api/gateways/:gatewayID
    func patchGatewaysGatewayID(_ request: Request, context: AuthenticatedContext) async throws -> GatewayResponse {
        let body = try await RequestBody.jsonObject(request, allowed: GatewayNameRequest.fields, limit: 4 * 1024)
        return GatewayResponse(
            try await services.gateways.rename(
                try context.parameters.require("gatewayID"), of: context.user, to: try body.string("name")))
    }

    /// DELETE /api/gateways/:gatewayID
    func deleteGatewaysGatewayID(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await services.gateways.revoke(try context.parameters.require("gatewayID"), of: context.user)
        return .noContent
    }
}
