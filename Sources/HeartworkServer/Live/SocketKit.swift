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
    /// A watcher's socket: `first` frame (what is known now), then the frames of each step of
    /// `events` (a step may be several readings at once) until the viewer goes away (what it
    /// sends is read and dropped); `stop` ends the subscription however the socket ends.
    static func relay<Events: AsyncSequence & Sendable>(
        _ events: Events, stop: @escaping @Sendable () async -> Void,
        first: @escaping @Sendable () async throws -> WebSocketOutboundWriter.OutboundFrame?,
        frames: @escaping @Sendable (Events.Element) async throws -> [WebSocketOutboundWriter.OutboundFrame],
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter
    ) async throws where Events.Element: Sendable, Events.Failure == Never {
        do {
            if let frame = try await first() { try await outbound.write(frame) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await step in events {
                        for frame in try await frames(step) { try await outbound.write(frame) }
                    }
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

/// `?batch=1` on a live socket (PROTOCOL.md §4, §6): the client takes several acks or readings
/// in one message. `1`/`true` asks for it, `0`/`false` (or nothing) not; anything else is
/// refused before the upgrade with 400, naming the parameter.
enum LiveBatching {
    static func asked(_ request: Request) throws -> Bool {
        guard let value = request.uri.queryParameters.get("batch") else { return false }
        switch value {
        case "1", "true": return true
        case "0", "false": return false
        default: throw Problem.badRequest("batch is 1 or 0 (also true or false): several readings or acks a message, or one a message", field: "batch")
        }
    }
}
