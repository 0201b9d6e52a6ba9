import Foundation
import HeartworkApp
import HeartworkFormats
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Builds the Heartwork HTTP and WebSocket edge over the application services, so tests
/// start the same thing in process.
public enum HeartworkApplication {
    /// What the edge needs besides the services.
    public struct Edge: Sendable {
        public let metrics: ServerMetrics
        let pages: PageRenderer
        let routes = RouteIndex()
        let uploads: WorkGate
        /// Each user's large bodies arriving at once (read before they take an `uploads` place).
        let senders = PerUserUploads(limit: 4)
        /// Refused WebSocket upgrades' answers, from the live router to the connection.
        let refusals = UpgradeRefusals()

        public init(metrics: ServerMetrics, concurrentUploads: Int = 2, secureCookies: Bool = false) throws {
            self.metrics = metrics
            pages = try PageRenderer(secureCookies: secureCookies)
            uploads = WorkGate(limit: concurrentUploads, patience: .seconds(60))
        }
    }

    public static func build(
        configuration: ServerConfiguration, services: HeartworkServices, edge: Edge, logger: Logger
    ) -> some ApplicationProtocol {
        Application(
            router: buildRouter(configuration: configuration, services: services, edge: edge),
            server: server(configuration: configuration, liveRouter: buildLiveRouter(services: services, refusals: edge.refusals), refusals: edge.refusals),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: configuration.serverName,
                availableConnectionsDelegate: MaximumAvailableConnections(configuration.maximumConnections)),
            logger: logger)
    }

    /// HTTP/1.1 with WebSocket upgrades, an idle timeout, and a deadline for a new
    /// connection's first request head (see `GuardedChildChannel`).
    static func server(configuration: ServerConfiguration, liveRouter: Router<LiveRequestContext>, refusals: UpgradeRefusals) -> HTTPServerBuilder {
        let webSocketResponder = liveRouter.buildResponder()
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(
                additionalChannelHandlers: [
                    UpgradeRefusalWriter(refusals: refusals),
                    RequestBodyPaceHandler(allowance: TimeAmount(configuration.bodyWaitAllowance), bytesPerSecond: configuration.bodyBytesPerSecond),
                ], idleTimeout: .init(configuration.idleTimeout)),
            // Gateway frames carry up to 500 readings (at most 1 MB by the protocol; the
            // route closes with 1008 above that, the WebSocket layer with 1009 above 2 MB).
            ws: .init(maxFrameSize: 2 * GatewayFrame.maximumBytes, autoPing: .enabled(timePeriod: configuration.webSocketPingPeriod)))
        let headDeadline = TimeAmount(configuration.requestHeadTimeout)
        let addresses = AddressConnections(limit: configuration.maximumConnectionsPerAddress)
        return HTTPServerBuilder { responder in
            GuardedChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: channelConfiguration),
                requestHeadDeadline: headDeadline, addresses: addresses)
        }
    }

    /// The HTTP router: middleware first (they wrap only routes registered after them),
    /// then public routes, then the signed-in group.
    public static func buildRouter(configuration: ServerConfiguration, services: HeartworkServices, edge: Edge) -> Router<AppRequestContext> {
        let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestMetricsMiddleware(metrics: edge.metrics))
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: SecurityHeadersMiddleware(strictTransportSecurity: configuration.secureCookies, imageOrigin: configuration.mapTiles?.origin))
        router.add(middleware: CompressionMiddleware())
        // Errors twice: outside authentication for its own refusals, and inside it so that
        // error pages keep the signed-in header.
        router.add(middleware: ErrorMiddleware(pages: edge.pages, routes: edge.routes))
        router.add(middleware: AuthenticationMiddleware<AppRequestContext>(authenticator: services.authenticator))
        router.add(middleware: ErrorMiddleware(pages: edge.pages, routes: edge.routes))

        SystemRoutes(services: services, metrics: edge.metrics).register(on: router)
        let api = router.group("api")
        let signedInAPI = api.group(context: AuthenticatedContext.self)
        AccountRoutes(services: services).register(public: api, signedIn: signedInAPI)
        ProfileRoutes(services: services).register(on: signedInAPI)
        FriendRoutes(services: services).register(on: signedInAPI)
        GatewayRoutes(services: services).registerCheck(on: api)
        GatewayRoutes(services: services).register(on: signedInAPI)
        SensorRoutes(services: services).register(on: signedInAPI)
        TeamRoutes(services: services).register(on: signedInAPI)
        MatchRoutes(services: services).register(on: signedInAPI)
        StrengthRoutes(services: services).register(on: signedInAPI)
        DailyRoutes(services: services).register(on: signedInAPI)
        RecordingRoutes(services: services).register(on: signedInAPI)
        SyncRoutes(services: services, uploads: edge.uploads, senders: edge.senders).register(public: api, signedIn: signedInAPI)
        PushRoutes(services: services).register(on: signedInAPI)
        WorkoutRoutes(services: services, maximumBodyBytes: configuration.maximumBodyBytes, metrics: edge.metrics, uploads: edge.uploads, senders: edge.senders)
            .register(on: signedInAPI)
        WebRoutes(services: services, pages: edge.pages, secureCookies: configuration.secureCookies, mapTiles: configuration.mapTiles)
            .register(public: router, signedIn: router.group(context: AuthenticatedContext.self))
        edge.routes.record(router.routes.map { ($0.path.description, $0.method) })
        return router
    }

    /// The WebSocket router: the same authentication as HTTP runs before every upgrade. Live
    /// routes (the gateway, the feed, match rooms) register here.
    public static func buildLiveRouter(services: HeartworkServices, refusals: UpgradeRefusals = UpgradeRefusals()) -> Router<LiveRequestContext> {
        let router = Router(context: LiveRequestContext.self)
        router.add(middleware: UpgradeRefusals.RecordUpgradeRefusals(refusals: refusals))
        router.add(middleware: AuthenticationMiddleware<LiveRequestContext>(authenticator: services.authenticator))
        LiveRoutes(services: services).register(on: router)
        MatchSocket(services: services).register(on: router)
        return router
    }
}
