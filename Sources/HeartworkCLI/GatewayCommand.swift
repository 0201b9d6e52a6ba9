import ArgumentParser
import Foundation
import HeartworkBlueZ
import HeartworkFormats
import Logging

/// `heartwork gateway`: forwards real chest straps heard through BlueZ (Linux, a Raspberry
/// Pi) to a Heartwork server over the gateway protocol (docs/PROTOCOL.md, issue 23).
struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "Forward Bluetooth heart-rate straps heard through BlueZ to a Heartwork server.",
        discussion: """
            Talks to BlueZ over the D-Bus system bus (DBUS_SYSTEM_BUS_ADDRESS, else \
            /run/dbus/system_bus_socket): discovers straps advertising the Heart Rate service \
            (0x180D), connects to those given with --strap (or to every one it hears with --all), \
            subscribes to their Heart Rate Measurement (0x2A37), reads their battery (0x2A19) on \
            connect and every minute, and forwards each notification's bytes unchanged. A strap \
            that drops is tried again every 5 s and given up after 10 failed tries; its sequence \
            numbers go on where they stopped, also across restarts.

            It prints one status line a strap when the strap's state changes and every \
            --status-every seconds (--format json: one JSON object a line). On SIGTERM or \
            SIGINT it waits up to --stop-wait seconds for the server to acknowledge what it \
            sent, then keeps the rest in the spool file (--spool), which the next start sends \
            first. Exits 1 when BlueZ is not on the system bus, or the server refuses the token.

            Create a gateway first (its token is shown once):
              curl -s -X POST http://127.0.0.1:8080/api/gateways -H "Authorization: Bearer $TOKEN" \\
                -H 'Content-Type: application/json' -d '{"name": "Pitch-side Pi"}'

            Example:
              heartwork gateway --server https://heartwork.example.org --token hwg_… --strap A0:9E:1A:12:34:56
            """
    )

    @Option(help: "The server's address, http:// or https://.")
    var server: String

    @Option(help: "The gateway's token (hwg_…); without it, HEARTWORK_GATEWAY_TOKEN (which keeps it out of the process list).")
    var token: String?

    /// `--token`, else `HEARTWORK_GATEWAY_TOKEN`: a token on the command line is visible to
    /// every local user in `ps`; from the environment (a systemd EnvironmentFile) it is not.
    var resolvedToken: String? {
        if let token, !token.isEmpty { return token }
        let fromEnvironment = ProcessInfo.processInfo.environment["HEARTWORK_GATEWAY_TOKEN"] ?? ""
        return fromEnvironment.isEmpty ? nil : fromEnvironment
    }

    @Option(help: "The Bluetooth adapter.")
    var adapter: String = "hci0"

    @Option(name: .customLong("strap"), help: "A strap's Bluetooth address (AA:BB:CC:DD:EE:FF); repeat for more.")
    var straps: [String] = []

    @Flag(help: "Connect to every heart-rate strap heard.")
    var all = false

    @Option(help: "Status lines: table (text) or json (one object a line).")
    var format: OutputFormat = .table

    @Option(help: "The spool file (default $XDG_STATE_HOME/heartwork/gateway-spool.json, else ~/.local/state/heartwork/gateway-spool.json).")
    var spool: String?

    @Option(name: .customLong("status-every"), help: "Seconds between status lines of every strap.")
    var statusEvery: Double = 10

    @Option(name: .customLong("stop-wait"), help: "Seconds to wait for acknowledgements when stopping.")
    var stopWait: Double = 5

    func validate() throws {
        guard (try? GatewayUplink.socketURL(server: server)) != nil else {
            throw ValidationError("--server must be an http:// or https:// address, such as http://127.0.0.1:8080")
        }
        guard resolvedToken != nil else { throw ValidationError("give the gateway's token: --token hwg_…, or HEARTWORK_GATEWAY_TOKEN in the environment") }
        guard all || !straps.isEmpty else { throw ValidationError("give at least one --strap ADDRESS, or --all") }
        for strap in straps where !Self.isAddress(strap) {
            throw ValidationError("--strap \(strap) is not a Bluetooth address such as A0:9E:1A:12:34:56")
        }
        guard !adapter.isEmpty, adapter.allSatisfy({ $0.isLetter || $0.isNumber }) else { throw ValidationError("--adapter is a name such as hci0") }
        guard statusEvery >= 1, statusEvery <= 3600 else { throw ValidationError("--status-every must be from 1 to 3600 seconds") }
        guard stopWait >= 0, stopWait <= 300 else { throw ValidationError("--stop-wait must be from 0 to 300 seconds") }
    }

    static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        let logger = Logger(label: "heartwork.gateway")
        let spoolPath = spool ?? GatewaySpool.defaultPath()

        let client: BlueZClient
        let objects: BlueZObjects
        do {
            client = try await BlueZClient.systemBus(environment: ProcessInfo.processInfo.environment)
            try await client.watch()
            objects = try await client.managedObjects()
        } catch {
            Self.fail("\(error)")
        }
        let adapterPath = "/org/bluez/" + adapter
        guard objects.adapters.contains(adapterPath) else {
            let known = objects.adapters.map { $0.replacingOccurrences(of: "/org/bluez/", with: "") }
            Self.fail("BlueZ has no adapter \(adapter) (\(known.isEmpty ? "no adapters" : "adapters: " + known.joined(separator: ", ")))")
        }
        let saved: GatewaySpool
        do { saved = try GatewaySpool.load(path: spoolPath) } catch { Self.fail("the spool cannot be read: \(error)") }

        let state = GatewayState(finalWait: .milliseconds(Int64(stopWait * 1000)))
        state.produce(saved.readings)
        let gateway = BlueZGateway(
            client: client, adapter: adapter, wanted: straps, all: all, state: state, spool: saved, spoolPath: spoolPath,
            status: GatewayStatusPrinter(json: format == .json), statusInterval: statusEvery, logger: logger, objects: objects)
        if !saved.readings.isEmpty { logger.warning("sending the spool's readings first", metadata: ["readings": "\(saved.readings.count)"]) }

        let sink = gateway.sink
        var sources: [DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { sink.yield(.stop) }
            source.resume()
            sources.append(source)
        }
        let uplink = GatewayUplink(server: server, token: resolvedToken ?? "")
        let uplinkTask = Task {
            do {
                try await uplink.run(state: state, logger: logger)
            } catch {
                sink.yield(.uplinkEnded(error as? GatewayRefused ?? GatewayRefused(reason: "\(error)")))
            }
        }

        let refused = await gateway.run()
        // Stopping: what the server has not acknowledged within --stop-wait goes to the spool.
        state.finish()
        let deadline = ContinuousClock.now + .milliseconds(Int64(stopWait * 1000) + 2000)
        while !state.isOver && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        try? await Task.sleep(for: .milliseconds(100))
        uplinkTask.cancel()
        gateway.saveSpool(clean: true)
        client.connection.shutdown()
        for source in sources { source.cancel() }
        let counts = state.counts
        FileHandle.standardError.write(
            Data(
                "heartwork gateway: stopped; \(counts.produced) readings taken, \(counts.acknowledged) acknowledged, \(counts.unacknowledged) kept in \(spoolPath)\n"
                    .utf8))
        if let refused {
            FileHandle.standardError.write(Data("heartwork gateway: \(refused)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// One line on standard error, exit 1.
    static func fail(_ reason: String) -> Never {
        FileHandle.standardError.write(Data("heartwork gateway: \(reason)\n".utf8))
        Foundation.exit(1)
    }
}
