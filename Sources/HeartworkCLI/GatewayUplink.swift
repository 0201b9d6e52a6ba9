import AsyncHTTPClient
import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkFormats
import HummingbirdWSClient
import Logging
import NIOWebSocket

/// A gateway's side of the gateway protocol (docs/PROTOCOL.md §2–§5), shared by
/// `heartwork simulate gateway` and `heartwork gateway`: one WebSocket to
/// `/api/live/gateway` with the gateway's token; readings taken from a `GatewayState`'s
/// outbox and kept until acknowledged; after a lost connection everything unacknowledged is
/// sent again, oldest first, after 1 s, 2 s, 4 s … 60 s with jitter (`RetryStrategy`, reset
/// after a minute up); an upgrade refused for a wrong or revoked token (401, asked with a plain
/// GET) or a 1008 close stops it with `GatewayRefused`.
struct GatewayUplink: Sendable {
    let server: String
    let token: String

    /// `ws://…/api/live/gateway` for `http://…`, `wss://` for `https://`.
    static func socketURL(server: String) throws -> String {
        let trimmed = server.hasSuffix("/") ? String(server.dropLast()) : server
        if trimmed.hasPrefix("http://") { return "ws://" + trimmed.dropFirst(7) + "/api/live/gateway" }
        if trimmed.hasPrefix("https://") { return "wss://" + trimmed.dropFirst(8) + "/api/live/gateway" }
        throw ValidationErrorText("--server must start with http:// or https://")
    }

    /// Why the server refused the upgrade, when it is for good: `GET /api/live/gateway`
    /// without an upgrade answers 401 for a wrong or revoked token, 404 where there is no
    /// Heartwork gateway endpoint.
    func checkToken() async -> GatewayRefused? {
        let trimmed = server.hasSuffix("/") ? String(server.dropLast()) : server
        var request = HTTPClientRequest(url: trimmed + "/api/live/gateway")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let client = HTTPClient.shared
        guard let response = try? await client.execute(request, timeout: .seconds(10)) else { return nil }
        _ = try? await response.body.collect(upTo: 64 * 1024)
        switch response.status.code {
        case 401: return GatewayRefused(reason: "the token is wrong, or the gateway was revoked (401): create a gateway and use its new token")
        case 404: return GatewayRefused(reason: "\(trimmed) has no Heartwork gateway endpoint (404): check --server")
        default: return nil
        }
    }

    /// Connects, sends and reconnects until `state.isOver`; throws `GatewayRefused` when the
    /// server refuses the gateway for good. `onConnection` hears each connection's start
    /// (true) and loss (false).
    func run(state: GatewayState, logger: Logger, onConnection: @escaping @Sendable (Bool) -> Void = { _ in }) async throws {
        // Several acks a message (PROTOCOL.md §4); a server without batches ignores the parameter
        // and sends one `ack` each, which is read as well.
        let url = try Self.socketURL(server: server) + "?batch=1"
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20, additionalHeaders: headers)
        // PROTOCOL §5: 1 s, 2 s, 4 s … 60 s, with jitter (the job system's back-off).
        let reconnect = RetryStrategy(attempts: .max, first: 1, maximum: 60)
        var failures = 0
        var backoff: Double { reconnect.delay(afterAttempt: failures + 1) }
        while !state.isOver {
            do {
                let connected = ContinuousClock.now
                let close = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                    state.resendAll()
                    onConnection(true)
                    defer { onConnection(false) }
                    try await withThrowingTaskGroup(of: Void.self) { connection in
                        connection.addTask {
                            while true {
                                let outgoing = state.takeOutbox()
                                for start in stride(from: 0, to: outgoing.count, by: GatewayFrame.maximumItems) {
                                    let chunk = outgoing[start..<min(start + GatewayFrame.maximumItems, outgoing.count)]
                                    try await outbound.write(.text(GatewayFrame.write(chunk)))
                                }
                                if state.isOver {
                                    try await outbound.close(.normalClosure, reason: nil)
                                    return
                                }
                                try await Task.sleep(for: .milliseconds(50))
                            }
                        }
                        connection.addTask {
                            // An `acks` message is up to 500 acks of up to 64-character sensor names.
                            for try await message in inbound.messages(maxSize: 1 << 20) {
                                guard case .text(let text) = message,
                                    let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                                else { continue }
                                let sensor = object["sensor"] as? String
                                let sequence = object["seq"] as? Int
                                switch object["type"] as? String {
                                case "ack": if let sensor, let sequence { state.acknowledge(sensor: sensor, upTo: sequence) }
                                case "acks":
                                    for ack in object["items"] as? [[String: Any]] ?? [] {
                                        if let sensor = ack["sensor"] as? String, let sequence = ack["seq"] as? Int {
                                            state.acknowledge(sensor: sensor, upTo: sequence)
                                        }
                                    }
                                case "error": state.refuse(sensor: sensor, sequence: sequence)
                                default: break
                                }
                            }
                        }
                        try await connection.next()
                        connection.cancelAll()
                    }
                }
                if close?.closeCode == .policyViolation {
                    throw GatewayRefused(reason: close?.reason ?? "the server closed the connection for a policy violation")
                }
                if ContinuousClock.now - connected > .seconds(60) { failures = 0 }
            } catch {
                if let refused = error as? GatewayRefused { throw refused }
                if let failed = error as? WebSocketClientError, failed == .webSocketUpgradeFailed {
                    // The upgrade was answered with something else: ask the endpoint why
                    // (WebSocket clients do not see the status). A wrong or revoked token
                    // stops here (PROTOCOL §5: never reconnect after 401).
                    if let refused = await checkToken() { throw refused }
                    logger.warning("gateway connection refused", metadata: ["retry in": "\(backoff) s"])
                } else {
                    logger.warning("gateway connection lost", metadata: ["error": "\(error)", "retry in": "\(backoff) s"])
                }
            }
            if state.isOver { break }
            let jitter = Double.random(in: 0.8...1.2)
            // Waits in short steps, so a stop (the state over) is not held up by a long back-off.
            let until = ContinuousClock.now + .milliseconds(Int64(backoff * jitter * 1000))
            while ContinuousClock.now < until && !state.isOver { try await Task.sleep(for: .milliseconds(min(250, max(1, Int64((until - .now) / .milliseconds(1)))))) }
            failures += 1
        }
    }
}

struct ValidationErrorText: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct GatewayRefused: Error, CustomStringConvertible {
    let reason: String
    var description: String { "the server refused the gateway: \(reason)" }
}

/// What a gateway holds: readings not yet acknowledged (per sensor), those not yet sent on
/// the current connection, and the counts.
final class GatewayState: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [String: [GatewayReading]] = [:]
    private var outbox: [GatewayReading] = []
    private var produced = 0, acknowledged = 0, refused = 0
    private var finishedAt: ContinuousClock.Instant?
    /// How long after `finish` the uplink still waits for acknowledgements.
    let finalWait: Duration

    init(finalWait: Duration = .seconds(15)) { self.finalWait = finalWait }

    func produce(_ readings: [GatewayReading]) {
        lock.withLock {
            for reading in readings { pending[reading.sensor, default: []].append(reading) }
            outbox += readings
            produced += readings.count
        }
    }

    func takeOutbox() -> [GatewayReading] {
        lock.withLock {
            defer { outbox.removeAll(keepingCapacity: true) }
            return outbox
        }
    }

    /// After a reconnect: everything not acknowledged goes out again, oldest first.
    func resendAll() {
        lock.withLock { outbox = pending.values.flatMap { $0 }.sorted { $0.atMilliseconds < $1.atMilliseconds } }
    }

    func acknowledge(sensor: String, upTo sequence: Int) {
        lock.withLock {
            guard let readings = pending[sensor] else { return }
            let kept = readings.filter { $0.sequence > sequence }
            acknowledged += readings.count - kept.count
            pending[sensor] = kept.isEmpty ? nil : kept
        }
    }

    func refuse(sensor: String?, sequence: Int?) {
        lock.withLock {
            refused += 1
            guard let sensor, let sequence, let readings = pending[sensor] else { return }
            pending[sensor] = readings.filter { $0.sequence != sequence }
        }
    }

    func finish() { lock.withLock { finishedAt = .now } }

    /// Time is up and everything is acknowledged, or the final wait is over.
    var isOver: Bool {
        lock.withLock {
            guard let finishedAt else { return false }
            return pending.isEmpty || ContinuousClock.now - finishedAt > finalWait
        }
    }

    /// Every reading not acknowledged, oldest first (what a spool keeps).
    var unacknowledged: [GatewayReading] {
        lock.withLock { pending.values.flatMap { $0 }.sorted { ($0.atMilliseconds, $0.sequence) < ($1.atMilliseconds, $1.sequence) } }
    }

    /// Not acknowledged, per sensor.
    func pendingCount(sensor: String) -> Int { lock.withLock { pending[sensor]?.count ?? 0 } }

    var counts: (produced: Int, acknowledged: Int, refused: Int, unacknowledged: Int) {
        lock.withLock { (produced, acknowledged, refused, pending.values.reduce(0) { $0 + $1.count }) }
    }

    func summary(sensors: Int) -> GatewayRunSummary {
        let counts = self.counts
        return GatewayRunSummary(
            sensors: sensors, sent: counts.produced, acknowledged: counts.acknowledged, refused: counts.refused, unacknowledged: counts.unacknowledged)
    }
}
