import Foundation
import HeartworkApp
import HeartworkStore
import Hummingbird
import Logging
import ServiceLifecycle

/// A running Heartwork server's parts, in the order they start and the reverse order they
/// stop: the database (opened and migrated before anything else runs), the application
/// services' long-running work (session sweeping now; the event bus, live hub and job runner
/// later), and last the HTTP/WebSocket server. SIGTERM or SIGINT stops the server first
/// (requests in progress finish), then the background services, then closes the database.
public struct ServerRuntime: Sendable {
    public let configuration: ServerConfiguration
    public let store: HeartworkStore
    public let services: HeartworkServices
    private let application: any ApplicationProtocol
    private let logger: Logger

    /// Opens and migrates the store and builds everything; nothing runs yet.
    public static func prepare(configuration: ServerConfiguration, logger: Logger) async throws -> ServerRuntime {
        let store = try await HeartworkStore.open(
            configuration.database, logger: logger, cachesReads: configuration.cachesReads, ingestCommitSpacing: configuration.ingestCommitSpacing)
        do {
            let metrics = ServerMetrics()
            let services = try await HeartworkServices(
                store: store, settings: configuration.serviceSettings, logger: logger,
                onFailedSignIn: { metrics.loginFailures.increment() })
            let application = HeartworkApplication.build(
                configuration: configuration, services: services,
                edge: try HeartworkApplication.Edge(
                    metrics: metrics, concurrentUploads: configuration.concurrentUploads, secureCookies: configuration.secureCookies), logger: logger)
            return ServerRuntime(configuration: configuration, store: store, services: services, application: application, logger: logger)
        } catch {
            try? await store.shutdown()
            throw error
        }
    }

    /// How long a graceful stop may take before what is still running is cancelled: requests
    /// in progress and idle connections a client keeps open (a trickling body, a client that
    /// never closes) cannot hold a SIGTERM for longer. Issue 40's probe left a server that
    /// had not stopped 30 s after SIGTERM.
    public static let gracefulStop: Duration = .seconds(15)

    /// Runs until SIGTERM or SIGINT, then stops in reverse order. `extra` services (the demo's
    /// in-process gateway) start after the background services, before the server.
    public func run(extra: [any Service] = []) async throws {
        let services: [any Service] = [StoreService(store: store)] + self.services.backgroundServices + extra + [application]
        var configuration = ServiceGroupConfiguration(
            services: services.map { .init(service: $0) }, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = Self.gracefulStop
        configuration.maximumCancellationDuration = .seconds(5)
        let group = ServiceGroup(configuration: configuration)
        try await group.run()
    }
}

/// Keeps the database open while the group runs and closes it when the group shuts down;
/// first in the group, so it closes last.
struct StoreService: Service {
    let store: HeartworkStore

    func run() async throws {
        try? await gracefulShutdown()
        try await store.shutdown()
    }
}
