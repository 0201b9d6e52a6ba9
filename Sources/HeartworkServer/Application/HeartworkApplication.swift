import Foundation
import HeartworkApp
import Hummingbird
import HummingbirdWebSocket
import Logging

/// Builds the Heartwork HTTP and WebSocket edge over the application services, so tests
/// start the same thing in process.
public enum HeartworkApplication {
    /// What the edge needs besides the services.
    public struct Edge: Sendable {
        public let metrics: ServerMetrics
        let pages: PageRenderer

        public init(metrics: ServerMetrics) throws {
            self.metrics = metrics
            pages = try PageRenderer()
        }
    }

    public static func build(
        configuration: ServerConfiguration, services: HeartworkServices, edge: Edge, logger: Logger
    ) -> some ApplicationProtocol {
        Application(
            router: buildRouter(configuration: configuration, services: services, edge: edge),
            server: .http1WebSocketUpgrade(webSocketRouter: buildLiveRouter(services: services)),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: configuration.serverName),
            logger: logger)
    }

    /// The HTTP router: middleware first (they wrap only routes registered after them),
    /// then public routes, then the signed-in group.
    public static func buildRouter(configuration: ServerConfiguration, services: HeartworkServices, edge: Edge) -> Router<AppRequestContext> {
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: RequestMetricsMiddleware(metrics: edge.metrics))
        router.add(middleware: LogRequestsMiddleware(.info))
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ErrorMiddleware(pages: edge.pages))
        router.add(middleware: AuthenticationMiddleware<AppRequestContext>(authenticator: services.authenticator))

        SystemRoutes(services: services, metrics: edge.metrics).register(on: router)
        let api = router.group("api")
        let signedInAPI = api.group(context: AuthenticatedContext.self)
        AccountRoutes(services: services).register(public: api, signedIn: signedInAPI)
        ProfileRoutes(services: services).register(on: signedInAPI)
        FriendRoutes(services: services).register(on: signedInAPI)
        WorkoutRoutes(services: services, maximumBodyBytes: configuration.maximumBodyBytes, metrics: edge.metrics).register(on: signedInAPI)
        WebRoutes(services: services, pages: edge.pages, secureCookies: configuration.secureCookies)
            .register(public: router, signedIn: router.group(context: AuthenticatedContext.self))
        return router
    }

    /// The WebSocket router: the same authentication as HTTP runs before every upgrade. Live
    /// routes (the gateway, the feed, match rooms) register here.
    public static func buildLiveRouter(services: HeartworkServices) -> Router<LiveRequestContext> {
        let router = Router(context: LiveRequestContext.self)
        router.add(middleware: AuthenticationMiddleware<LiveRequestContext>(authenticator: services.authenticator))
        return router
    }
}
