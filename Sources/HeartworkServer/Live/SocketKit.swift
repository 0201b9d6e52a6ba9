import Foundation
import HeartworkApp
import HeartworkModel
import Hummingbird
import HummingbirdWebSocket
import NIOWebSocket

/// The pieces every live socket is built from (one way each): a socket only a signed-in user
/// may open, and a subscription relayed to it. (The sliding-window rate limit is the App's
/// `RateWindow`.)
enum SignedInSocket {
    /// Registers `path` as a WebSocket for a signed-in user: refused before the upgrade without
    /// a session (401 as problem+json) or when `check` throws (its problem, e.g. 404), then run
    /// as a `RevocableSocket` for that session, so signing out closes it with 1008.
    static func register(
        _ path: RouterPath, on router: Router<LiveRequestContext>, services: HeartworkServices,
        check: @escaping @Sendable (Request, LiveRequestContext, UserRecord) async throws -> Void = { _, _, _ in },
        run: @escaping @Sendable (_ user: UserRecord, _ request: Request, _ parameters: Parameters, WebSocketInboundStream, WebSocketOutboundWriter) async throws -> Void
    ) {
        router.ws(
            path,
            shouldUpgrade: { request, context in
                guard let user = context.identity?.user else { throw Problem(AppError.notSignedIn) }
                try await check(request, context, user)
                return .upgrade([:])
            },
            onUpgrade: { inbound, outbound, context in
                guard let identity = context.requestContext.identity else { return }
                let request = context.request
                let parameters = context.requestContext.parameters
                try await RevocableSocket.run(services, userID: identity.user.id, credential: .session(tokenHash: identity.session.tokenHash), outbound: outbound) {
                    try await run(identity.user, request, parameters, inbound, outbound)
                }
            })
    }
}

enum SocketSubscription {
    /// A watcher's socket: `first` frame (what is known now), then one frame per event until
    /// the viewer goes away (what it sends is read and dropped); `stop` ends the subscription
    /// however the socket ends.
    static func relay<Event: Sendable>(
        _ events: AsyncStream<Event>, stop: @escaping @Sendable () async -> Void,
        first: @escaping @Sendable () async throws -> String?, frame: @escaping @Sendable (Event) async throws -> String,
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter
    ) async throws {
        do {
            if let text = try await first() { try await outbound.write(.text(text)) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in events { try await outbound.write(.text(try await frame(event))) }
                }
                group.addTask {
                    for try await _ in inbound.messages(maxSize: 4096) {}
                }
                try await group.next()
                group.cancelAll()
            }
        } catch {
            await stop()
            throw error
        }
        await stop()
    }
}
