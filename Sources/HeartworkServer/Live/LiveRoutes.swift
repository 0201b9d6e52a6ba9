import Foundation
import HeartworkApp
import HeartworkFormats
import HeartworkModel
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOWebSocket
import Synchronization

/// The live WebSockets: gateways send readings (`/api/live/gateway`), users watch their
/// sensors (`/api/live/feed`). The protocol is docs/PROTOCOL.md.
struct LiveRoutes {
    let services: HeartworkServices
    /// Limits per gateway connection within any second, past which it is closed with 1008:
    /// far above real use (a gateway may send every reading as its own frame — 60 straps at
    /// 4 notifications a second is 240 frames), low enough to stop a flood.
    static let framesPerSecond = 1000
    static let readingsPerSecond = 5000
    /// Frames of one connection staged (their new readings already with the viewers) but not
    /// yet committed; a gateway past this waits for the store before its next frame is read.
    static let framesInFlight = 64

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

    /// A gateway's connection: each frame is staged as it arrives (its certainly-new readings
    /// go to viewers at once) and committed in order by a second task, which writes the acks;
    /// so a slow commit delays acks, never what viewers see. A failed commit closes the
    /// connection (the gateway resends what was not acknowledged); a revoked gateway's is
    /// closed with 1008.
    static func gatewaySession(
        _ services: HeartworkServices, gateway: GatewayRecord, inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter, logger: Logger
    ) async throws {
        let (staged, stagedInput) = AsyncStream<LiveService.Staged>.makeStream()
        let inFlight = FrameCounter()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await frame in staged {
                    let committed: LiveService.Committed
                    do {
                        committed = try await services.live.commit(frame)
                    } catch is LiveService.GatewayRevoked {
                        try await outbound.close(.policyViolation, reason: "the gateway was revoked")
                        return false
                    } catch {
                        logger.error("storing gateway readings failed", metadata: ["error": "\(error)"])
                        try await outbound.close(.unexpectedServerError, reason: "could not store; resend what is not acknowledged")
                        return false
                    }
                    inFlight.count.subtract(1, ordering: .relaxed)
                    for refusal in committed.refused {
                        try await outbound.write(.text(LiveMessages.error(sensor: refusal.sensor, sequence: refusal.sequence, detail: refusal.detail)))
                    }
                    for ack in committed.acks { try await outbound.write(.text(LiveMessages.ack(ack))) }
                }
                return true
            }
            group.addTask {
                defer { stagedInput.finish() }
                var limiter = RateWindow(frames: Self.framesPerSecond, readings: Self.readingsPerSecond)
                for try await message in inbound.messages(maxSize: 2 * GatewayFrame.maximumBytes) {
                    guard case .text(let text) = message else {
                        try await outbound.close(.policyViolation, reason: "binary frames are not part of the protocol")
                        return true
                    }
                    let items: [GatewayItem]
                    do {
                        items = try GatewayFrame.read(Array(text.utf8), nowMilliseconds: Date().millisecondsSince1970)
                    } catch let violation as GatewayProtocolViolation {
                        try await outbound.close(.policyViolation, reason: String(violation.detail.prefix(120)))
                        return true
                    }
                    guard limiter.admit(readings: items.count, at: ContinuousClock.now) else {
                        try await outbound.close(.policyViolation, reason: "more than \(Self.framesPerSecond) frames or \(Self.readingsPerSecond) readings a second")
                        return true
                    }
                    var readings = [GatewayReading]()
                    for item in items {
                        switch item {
                        case .reading(let reading): readings.append(reading)
                        case .refused(let sensor, let sequence, let detail):
                            try await outbound.write(.text(LiveMessages.error(sensor: sensor, sequence: sequence, detail: detail)))
                        }
                    }
                    guard !readings.isEmpty else { continue }
                    // Past `framesInFlight` uncommitted frames, wait for the store.
                    while inFlight.count.load(ordering: .relaxed) >= Self.framesInFlight {
                        try await Task.sleep(for: .milliseconds(5))
                    }
                    inFlight.count.add(1, ordering: .relaxed)
                    stagedInput.yield(await services.live.stage(readings, from: gateway))
                }
                return true
            }
            // The reader ending (the gateway closed, or a violation closed it) lets the
            // committer finish what was staged; the committer failing stops the reader.
            while let finished = try await group.next() {
                if !finished { group.cancelAll() }
            }
        }
    }
}

/// Frames of one gateway connection staged and not yet committed.
final class FrameCounter: Sendable {
    let count = Atomic<Int>(0)
}
