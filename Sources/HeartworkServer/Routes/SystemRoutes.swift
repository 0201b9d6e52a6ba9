import Foundation
import Hummingbird

/// /healthz, /metrics and /openapi.json: public, and free of personal data.
struct SystemRoutes {
    let services: AppServices

    struct Health: ResponseEncodable {
        let status: String
        let database: String
    }

    func register(on router: Router<AppRequestContext>) {
        router.get("healthz") { _, _ -> Response in
            do {
                try await services.store.ping()
                return try Self.json(Health(status: "ok", database: "ok"), status: .ok)
            } catch {
                return try Self.json(Health(status: "degraded", database: "unreachable"), status: .serviceUnavailable)
            }
        }
        router.get("metrics") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: services.metrics.registry.emitToBuffer())))
        }
        router.get("openapi.json") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: OpenAPIDocument.data)))
        }
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: try JSONCoding.encoder.encode(value))))
    }
}

/// The API description, shipped as a resource.
enum OpenAPIDocument {
    static let data: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json", subdirectory: "Resources"),
              let data = try? Data(contentsOf: url) else { return Data("{}".utf8) }
        return data
    }()
}
