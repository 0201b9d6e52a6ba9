import Foundation
import HeartworkApp
import Hummingbird

/// A phone, tablet or laptop as a gateway (issue 23): `/gateway` hears chest straps through
/// Web Bluetooth and forwards them over the gateway protocol (docs/PROTOCOL.md) with a
/// gateway token it keeps in the browser; and the installable app around it — the web app
/// manifest and the service worker, both at the site's root (a service worker's scope is its
/// folder and below).
struct WebGatewayPages {
    let pages: PageRenderer

    func register(public router: Router<AppRequestContext>, signedIn: RouterGroup<AuthenticatedContext>) {
        router.get("manifest.webmanifest", use: getManifestWebmanifest)
        router.get("sw.js", use: getSwJs)
        signedIn.get("gateway", use: getGateway)
    }

    /// GET /gateway
    func getGateway(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let model = GatewayPage(retries: 10, retrySeconds: 5, staleSeconds: 5)
        return pages.page("gateway", title: "This device as a gateway", model: model, request: request, identity: context.identity)
    }

    /// GET /manifest.webmanifest
    func getManifestWebmanifest(_ request: Request, context: AppRequestContext) async throws -> Response {
        try Self.file("manifest.webmanifest", cacheControl: "public, max-age=3600")
    }

    /// GET /sw.js: never cached by HTTP, so a new version of the app reaches the browser at
    /// its next visit.
    func getSwJs(_ request: Request, context: AppRequestContext) async throws -> Response {
        try Self.file("sw.js", cacheControl: "no-cache")
    }

    private static func file(_ name: String, cacheControl: String) throws -> Response {
        guard let file = EmbeddedResources.staticFiles[name] else { throw AppError.notFound("file") }
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        headers[.cacheControl] = cacheControl
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
