import Foundation
import HeartworkApp
import Hummingbird

/// /healthz, /metrics and /openapi.json: public, and free of personal data.
struct SystemRoutes {
    let services: HeartworkServices
    let metrics: ServerMetrics

    struct Health: Encodable {
        let status: String
        let database: String
    }

    func register(on router: Router<AppRequestContext>) {
        router.get("healthz", use: getHealthz)
        router.get("metrics", use: getMetrics)
        router.get("openapi.json", use: getOpenAPIDocument)
    }

    /// GET /healthz
    func getHealthz(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            try await services.checkDatabase()
            return try APIJSON.response(Health(status: "ok", database: "ok"))
        } catch {
            return try APIJSON.response(Health(status: "degraded", database: "unreachable"), status: .serviceUnavailable)
        }
    }

    /// GET /metrics
    func getMetrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
    }

    /// GET /openapi.json
    func getOpenAPIDocument(_ request: Request, context: AppRequestContext) async throws -> Response {
        APIJSON.response(EmbeddedResources.openAPIDocument)
    }
}
