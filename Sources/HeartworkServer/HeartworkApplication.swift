import Foundation
import HeartworkStore
import HTTPTypes
import Hummingbird
import Logging

/// Builds the Heartwork server from its configuration and an open store, so tests start the
/// same application in process on a random port.
public enum HeartworkApplication {
    public static func build(
        configuration: ServerConfiguration, store: HeartworkStore, logger: Logger
    ) async throws -> (application: some ApplicationProtocol, services: AppServices) {
        let services = try await AppServices(configuration: configuration, store: store, logger: logger)
        let router = buildRouter(services)
        let application = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: configuration.serverName),
            logger: logger)
        return (application, services)
    }

    public static func buildRouter(_ services: AppServices) -> Router<AppRequestContext> {
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: RequestMetricsMiddleware(metrics: services.metrics))
        router.add(middleware: LogRequestsMiddleware(.info))
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ErrorMiddleware(pages: services.pages))
        router.add(middleware: AuthenticationMiddleware(store: services.store, cache: services.sessionCache))
        SystemRoutes(services: services).register(on: router)
        let api = router.group("api")
        AccountRoutes(services: services).register(on: api)
        ProfileRoutes(services: services).register(on: api)
        FriendRoutes(services: services).register(on: api)
        WorkoutRoutes(services: services).register(on: api)
        WebRoutes(services: services).register(on: router)
        return router
    }
}

/// Headers every response carries: no sniffing, no framing, a strict content policy.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        response.headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'"
        return response
    }
}
