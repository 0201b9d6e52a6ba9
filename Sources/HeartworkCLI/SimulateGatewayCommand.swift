import ArgumentParser
import AsyncHTTPClient
import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HummingbirdWSClient
import Logging
import NIOWebSocket

/// `heartwork simulate gateway`: a gateway exactly as the protocol describes one
/// (docs/PROTOCOL.md), for trying the live path without straps.
struct SimulateGatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "Stream simulated chest straps to a Heartwork server, as a real gateway would.",
        discussion: """
            Each strap sends standard Heart Rate Measurement bytes (0x2A37) with RR intervals \
            from the synthetic RR model, at its own heart rate, with occasional artifacts, a \
            draining battery, lost skin contact and short drop-outs. Readings are kept until \
            the server acknowledges them; after a lost connection the simulator reconnects \
            with backoff (1 s, 2 s, 4 s … 60 s, with jitter) and resends what was not \
            acknowledged. It ends when the time is up and everything is acknowledged (or 15 s \
            later), exiting 1 if anything was not.

            Create a gateway first (its token is shown once):
              curl -s -X POST http://127.0.0.1:8080/api/gateways -H "Authorization: Bearer $TOKEN" \\
                -H 'Content-Type: application/json' -d '{"name": "Simulator"}'

            Example:
              heartwork simulate gateway --server http://127.0.0.1:8080 --token hwg_… --sensors 12 --minutes 30
            """
    )

    @Option(help: "The server's address, http:// or https://.")
    var server: String

    @Option(help: "The gateway's token (hwg_…).")
    var token: String

    @Option(help: "How many straps.")
    var sensors: Int = 12

    @Option(help: "How long to stream, in minutes.")
    var minutes: Double = 10

    @Option(help: "Readings per strap and second.")
    var rate: Double = 1

    @Option(help: "Random seed: the same seed gives the same straps.")
    var seed: UInt64 = 1

    func validate() throws {
        guard (1...10_000).contains(sensors) else { throw ValidationError("--sensors must be from 1 to 10000") }
        guard minutes > 0, minutes <= 24 * 60 else { throw ValidationError("--minutes must be more than 0 and at most a day") }
        guard rate >= 0.1, rate <= 10 else { throw ValidationError("--rate must be from 0.1 to 10 readings a second") }
        guard (try? socketURL()) != nil else { throw ValidationError("--server must be an http:// or https:// address, such as http://127.0.0.1:8080") }
    }

    func socketURL() throws -> String {
        let trimmed = server.hasSuffix("/") ? String(server.dropLast()) : server
        if trimmed.hasPrefix("http://") { return "ws://" + trimmed.dropFirst(7) + "/api/live/gateway" }
        if trimmed.hasPrefix("https://") { return "wss://" + trimmed.dropFirst(8) + "/api/live/gateway" }
        throw ValidationError("--server must start with http:// or https://")
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

    func run() async throws {
        let summary = try await simulate(logger: Logger(label: "heartwork.simulate"))
        print(summary.description)
        if summary.unacknowledged > 0 { throw ExitCode(1) }
    }

    func simulate(logger: Logger) async throws -> GatewayRunSummary {
        let url = try socketURL()
        let state = GatewayState()
        let tick = Duration.milliseconds(Int64(1000 / rate))
        let straps = SimulatedStraps(count: sensors, minutes: minutes, rate: rate, seed: seed, sequenceBase: Int(Date().timeIntervalSince1970 * 10))
        let length = Duration.milliseconds(Int64(minutes * 60_000))
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20, additionalHeaders: headers)

        try await withThrowingTaskGroup(of: Void.self) { group in
            // The straps go on whether or not the server is reachable, as real ones do.
            group.addTask {
                var straps = straps
                let start = ContinuousClock.now
                var next = start
                while ContinuousClock.now - start < length {
                    state.produce(straps.tick(atMilliseconds: Int(Date().timeIntervalSince1970 * 1000)))
                    next = next + tick
                    try await Task.sleep(until: next, clock: .continuous)
                }
                state.finish()
            }
            group.addTask {
                // PROTOCOL §5: 1 s, 2 s, 4 s … 60 s, with jitter (the job system's back-off).
                let reconnect = RetryStrategy(attempts: .max, first: 1, maximum: 60)
                var failures = 0
                var backoff: Double { reconnect.delay(afterAttempt: failures + 1) }
                while !state.isOver {
                    do {
                        let connected = ContinuousClock.now
                        let close = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                            state.resendAll()
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
                                    for try await message in inbound.messages(maxSize: 1 << 16) {
                                        guard case .text(let text) = message,
                                            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                                        else { continue }
                                        let sensor = object["sensor"] as? String
                                        let sequence = object["seq"] as? Int
                                        switch object["type"] as? String {
                                        case "ack": if let sensor, let sequence { state.acknowledge(sensor: sensor, upTo: sequence) }
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
                    } catch let refused as GatewayRefused {
                        throw refused
                    } catch let error as WebSocketClientError where error == .webSocketUpgradeFailed {
                        // The upgrade was answered with something else: ask the endpoint why
                        // (WebSocket clients do not see the status). A wrong or revoked token
                        // stops here (PROTOCOL §5: never reconnect after 401).
                        if let refused = await checkToken() { throw refused }
                        logger.warning("gateway connection refused", metadata: ["retry in": "\(backoff) s"])
                    } catch {
                        logger.warning("gateway connection lost", metadata: ["error": "\(error)", "retry in": "\(backoff) s"])
                    }
                    if state.isOver { break }
                    let jitter = Double.random(in: 0.8...1.2)
                    try await Task.sleep(for: .milliseconds(Int64(backoff * jitter * 1000)))
                    failures += 1
                }
            }
            // The first failure (a refusal) ends the run at once: the group cancels the straps.
            for try await _ in group {}
        }
        return state.summary(sensors: sensors)
    }
}

struct GatewayRefused: Error, CustomStringConvertible {
    let reason: String
    var description: String { "the server refused the gateway: \(reason)" }
}

struct GatewayRunSummary: CustomStringConvertible {
    let sensors: Int
    let sent: Int
    let acknowledged: Int
    let refused: Int
    let unacknowledged: Int

    var description: String {
        "\(sensors) straps: \(sent) readings taken, \(acknowledged) acknowledged, \(refused) refused, \(unacknowledged) not acknowledged"
    }
}

/// What the simulated gateway holds: readings not yet acknowledged (per sensor), those not
/// yet sent on the current connection, and the counts.
final class GatewayState: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [String: [GatewayReading]] = [:]
    private var outbox: [GatewayReading] = []
    private var produced = 0, acknowledged = 0, refused = 0
    private var finishedAt: ContinuousClock.Instant?
    static let finalWait = Duration.seconds(15)

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
            return pending.isEmpty || ContinuousClock.now - finishedAt > Self.finalWait
        }
    }

    func summary(sensors: Int) -> GatewayRunSummary {
        lock.withLock {
            GatewayRunSummary(
                sensors: sensors, sent: produced, acknowledged: acknowledged, refused: refused,
                unacknowledged: pending.values.reduce(0) { $0 + $1.count })
        }
    }
}
