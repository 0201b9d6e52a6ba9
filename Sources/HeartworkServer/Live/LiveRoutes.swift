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
            .ws(
                shouldUpgrade: { request, _ in
                    _ = try LiveBatching.asked(request)
                    return .upgrade([:])
                },
                onUpgrade: { inbound, outbound, context in
                    guard let gateway = context.requestContext.gateway else { return }
                    let batch = (try? LiveBatching.asked(context.request)) ?? false
                    try? await services.gateways.touch(gateway)
                    try await RevocableSocket.run(services, userID: gateway.userID, credential: .gateway(id: gateway.id), outbound: outbound) {
                        try await Self.gatewaySession(services, gateway: gateway, batch: batch, inbound: inbound, outbound: outbound, logger: context.logger)
                    }
                })
        SignedInSocket.register(
            "api/live/feed", on: router, services: services, check: { request, _, _ in _ = try LiveBatching.asked(request) }
        ) { user, request, _, inbound, outbound in
            let batch = (try? LiveBatching.asked(request)) ?? false
            let (id, events) = await services.live.watch(user)
            // First what is known of each sensor, then every new reading as it is stored: one
            // message each, or (`?batch=1`) what came together in one `readings` message.
            try await SocketSubscription.relay(
                events, stop: { await services.live.stopWatching(user, id: id) },
                first: { .text(LiveMessages.watching((try? await services.live.sensors(of: user)) ?? [])) },
                frames: { step in
                    batch
                        ? stride(from: 0, to: step.count, by: LiveMessages.itemsPerMessage).map {
                            LiveMessages.readings(step[$0..<min(step.count, $0 + LiveMessages.itemsPerMessage)])
                        }
                        : step.map(LiveMessages.reading)
                }, inbound: inbound, outbound: outbound)
        }
    }

    /// A gateway's connection: frames are read and decoded here and handed to the App's
    /// `GatewayIngest`, which stages, commits in order, limits the rate and decides when the
    /// connection ends; this writes its answers and closes as it says. While the ingest's
    /// window is full, `submit` waits, and the socket is not read.
    static func gatewaySession(
        _ services: HeartworkServices, gateway: GatewayRecord, batch: Bool, inbound: WebSocketInboundStream,
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
                        let now = Date().millisecondsSince1970
                        // A frame over 64 KiB (more than 500 readings of the usual size) is read on a
                        // thread of its own, not on the cooperative pool (issue 40).
                        items =
                            bytes.count > 64 * 1024
                            ? try await Blocking.run { () throws(GatewayProtocolViolation) in try GatewayFrame.read(bytes, nowMilliseconds: now) }
                            : try GatewayFrame.read(bytes, nowMilliseconds: now)
                    } catch let violation as GatewayProtocolViolation {
                        ingest.close(.init(.policyViolation, reason: String(violation.detail.prefix(120))))
                        return
                    }
                    guard await ingest.submit(items, bytes: bytes.count) else { return }
                }
            }
            let ending = try await ingest.run { replies in
                var acks = [LiveService.Ack]()
                for reply in replies {
                    switch reply {
                    case .ack(let ack):
                        if batch { acks.append(ack) } else { try await outbound.write(LiveMessages.ack(ack)) }
                        continue
                    case .refused, .close: break
                    }
                    // The acks before an error or a close go first: the order stays the frames'.
                    try await Self.write(acks, to: outbound)
                    acks.removeAll()
                    switch reply {
                    case .ack: break
                    case .refused(let sensor, let sequence, let detail):
                        try await outbound.write(.text(LiveMessages.error(sensor: sensor, sequence: sequence, detail: detail)))
                    case .close(let close):
                        try await outbound.close(close.code == .policyViolation ? .policyViolation : .unexpectedServerError, reason: close.reason)
                    }
                }
                try await Self.write(acks, to: outbound)
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

    /// Batched acks as `acks` messages of at most `LiveMessages.itemsPerMessage` each.
    private static func write(_ acks: [LiveService.Ack], to outbound: WebSocketOutboundWriter) async throws {
        for start in stride(from: 0, to: acks.count, by: LiveMessages.itemsPerMessage) {
            try await outbound.write(LiveMessages.acks(acks[start..<min(acks.count, start + LiveMessages.itemsPerMessage)]))
        }
    }
}
