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
        do { return try GatewayUplink.socketURL(server: server) } catch { throw ValidationError("\(error)") }
    }

    func run() async throws {
        let summary = try await simulate(logger: Logger(label: "heartwork.simulate"))
        print(summary.description)
        if summary.unacknowledged > 0 { throw ExitCode(1) }
    }

    func simulate(logger: Logger) async throws -> GatewayRunSummary {
        let state = GatewayState()
        let tick = Duration.milliseconds(Int64(1000 / rate))
        let straps = SimulatedStraps(count: sensors, minutes: minutes, rate: rate, seed: seed, sequenceBase: Int(Date().timeIntervalSince1970 * 10), addresses: .fromSeed)
        let length = Duration.milliseconds(Int64(minutes * 60_000))
        let uplink = GatewayUplink(server: server, token: token)

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
            group.addTask { try await uplink.run(state: state, logger: logger) }
            // The first failure (a refusal) ends the run at once: the group cancels the straps.
            for try await _ in group {}
        }
        return state.summary(sensors: sensors)
    }
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
