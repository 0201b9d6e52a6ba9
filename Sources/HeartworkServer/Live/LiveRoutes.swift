import Foundation
import HeartworkApp
import HeartworkFormats
import HeartworkModel
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOWebSocket

/// The live WebSockets: gateways send readings (`/api/live/gateway`), users watch their
/// sensors (`/api/live/feed`). The protocol is docs/PROTOCOL.md.
struct LiveRoutes {
    let services: HeartworkServices

    func register(on router: Router<LiveRequestContext>) {
        let services = services
        router.group("api/live/gateway")
            .add(middleware: GatewayAuthenticationMiddleware(gateways: services.gateways))
            .ws { inbound, outbound, context in
                guard let gateway = context.requestContext.gateway else { return }
                try? await services.gateways.touch(gateway)
                try await RevocableSocket.run(services, userID: gateway.userID, credential: .gateway(id: gateway.id), outbound: outbound) {
                    try await Self.gatewaySession(services, gateway: gateway, inbound: inbound, outbound: outbound, logger: context.logger)
                }
            }
        SignedInSocket.register("api/live/feed", on: router, services: services) { user, _, _, inbound, outbound in
            let (id, events) = await services.live.watch(user)
            // First what is known of each sensor, then every new reading as it is stored.
            try await SocketSubscription.relay(
                events, stop: { await services.live.stopWatching(user, id: id) },
                first: { LiveMessages.watching((try? await services.live.sensors(of: user)) ?? []) },
                frame: { LiveMessages.reading($0) }, inbound: inbound, outbound: outbound)
        }
    }

    /// A gateway's connection: frames are read and decoded here and handed to the App's
    /// `GatewayIngest`, which stages, commits in order, limits the rate and decides when the
    /// connection ends; this writes its answers and closes as it says. While the ingest's
    /// window is full, `submit` waits, and the socket is not read.
    static func gatewaySession(
        _ services: HeartworkServices, gateway: GatewayRecord, inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter, logger: Logger
    ) async throws {
        let ingest = GatewayIngest(services.live, gateway: gateway, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { ingest.finish() }
                for try await message in inbound.messages(maxSize: 2 * GatewayFrame.maximumBytes) {
                    guard case .text(let text) = message else {
                        ingest.close(.init(.policyViolation, reason: "binary frames are not part of the protocol"))
                        return
                    }
                    let bytes = Array(text.utf8)
                    let items: [GatewayItem]
                    do {
                        items = try GatewayFrame.read(bytes, nowMilliseconds: Date().millisecondsSince1970)
                    } catch let violation as GatewayProtocolViolation {
                        ingest.close(.init(.policyViolation, reason: String(violation.detail.prefix(120))))
                        return
                    }
                    guard await ingest.submit(items, bytes: bytes.count) else { return }
                }
            }
            let ending = try await ingest.run { reply in
                switch reply {
                case .ack(let ack):
                    try await outbound.write(.text(LiveMessages.ack(ack)))
                case .refused(let sensor, let sequence, let detail):
                    try await outbound.write(.text(LiveMessages.error(sensor: sensor, sequence: sequence, detail: detail)))
                case .close(let close):
                    try await outbound.close(close.code == .policyViolation ? .policyViolation : .unexpectedServerError, reason: close.reason)
                }
            }
            switch ending {
            case .closed:
                // Closed by the server: the reader stops, and how it stopped no longer matters.
                group.cancelAll()
            case .finished:
                // The reader ended (the gateway closed; or an error, such as a frame over 2 MB
                // (1009), which goes on to the WebSocket layer).
                try await group.waitForAll()
            }
        }
    }
}
