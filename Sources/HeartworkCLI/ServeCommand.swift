import ArgumentParser
import Configuration
import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkServer
import HeartworkStore
import Hummingbird
import Logging
import ServiceLifecycle

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Heartwork server and web app.",
        discussion: """
            Every option falls back to an environment variable: HEARTWORK_HOST, HEARTWORK_PORT, \
            HEARTWORK_DATA_DIR, HEARTWORK_DATABASE_URL, HEARTWORK_LOG_LEVEL, HEARTWORK_MAX_CONNECTIONS, \
            HEARTWORK_IDLE_TIMEOUT, HEARTWORK_REQUEST_HEAD_TIMEOUT, HEARTWORK_MAX_BODY_MB, HEARTWORK_CONCURRENT_UPLOADS, \
            HEARTWORK_TILE_URL_TEMPLATE, HEARTWORK_TILE_ATTRIBUTION. On SQLite, workout lists \
            are kept in memory until they change (HEARTWORK_READ_CACHE=off disables it). SIGINT or SIGTERM stops \
            the server gracefully: requests in progress finish first.

            Examples:
              heartwork serve                      # SQLite in ~/.local/share/heartwork, http://127.0.0.1:8080
              heartwork serve --demo               # with a demo account, friends and workouts, and a coach whose team streams live
              heartwork serve --host 0.0.0.0 --port 9000 --data-dir /srv/heartwork
              heartwork serve --database postgres://heartwork:secret@db.example.org/heartwork
              heartwork serve --tile-url-template 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' \\
                              --tile-attribution '© OpenStreetMap contributors'
            """
    )

    @Option(help: "Address to listen on.")
    var host: String?

    @Option(help: "Port to listen on (0 picks a free one).")
    var port: Int?

    @Option(name: .customLong("data-dir"), help: "Directory for the SQLite database.")
    var dataDirectory: String?

    @Option(help: "A postgres:// URL, or a SQLite file path (default: heartwork.sqlite in the data directory).")
    var database: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    @Flag(
        help:
            "Seed a demo account with friends and several weeks of workouts, and a coach with a 12-player team streamed live by an in-process simulated gateway; print both logins."
    )
    var demo = false

    @Flag(name: .customLong("secure-cookies"), help: "Mark session cookies Secure (when served over HTTPS).")
    var secureCookies = false

    @Flag(name: .customLong("allow-private-webhooks"), help: "Let users' motivation webhooks call private, loopback and link-local addresses (off: only public addresses).")
    var allowPrivateWebhooks = false

    @Option(
        name: .customLong("push-contact"),
        help: "How Web Push services reach the operator: a mailto: or https: URL, sent in every push's VAPID claim (default mailto:webpush@heartwork.invalid).")
    var pushContact: String?

    @Option(name: .customLong("bcrypt-cost"), help: ArgumentHelp("Password hashing cost (4–16).", visibility: .hidden))
    var bcryptCost: Int?

    @Option(name: .customLong("max-connections"), help: "Open connections at most (default 1000); more wait their turn.")
    var maximumConnections: Int?

    @Option(
        name: .customLong("max-connections-per-address"),
        help: "Open connections from one address at most (default 200); more are closed at once.")
    var maximumConnectionsPerAddress: Int?

    @Option(name: .customLong("idle-timeout"), help: "Seconds a connection may stay without request activity (default 60).")
    var idleTimeout: Int?

    @Option(name: .customLong("request-head-timeout"), help: "Seconds a new connection has to send its first request head (default 10).")
    var requestHeadTimeout: Int?

    @Option(name: .customLong("max-body-mb"), help: "Largest request body in MB (default 32; a 24-hour workout with GPS fits).")
    var maximumBodyMegabytes: Int?

    @Option(name: .customLong("concurrent-uploads"), help: "Large uploads decoded at the same time (default 2); the rest wait.")
    var concurrentUploads: Int?

    @Option(name: .customLong("job-workers"), help: "Background jobs (imports, recomputations) run at once (default 3); one user's one at a time.")
    var jobWorkers: Int?

    @Option(
        name: .customLong("tile-url-template"),
        help: ArgumentHelp(
            "Draw routes on map tiles from this server, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png (default: no map; viewers' browsers load the tiles).",
            valueName: "url"))
    var tileURLTemplate: String?

    @Option(
        name: .customLong("tile-attribution"),
        help: ArgumentHelp(
            "The attribution the tile server's licence requires, shown on every map (default for tile.openstreetmap.org: © OpenStreetMap contributors).",
            valueName: "text"))
    var tileAttribution: String?

    /// `serve`'s settings through swift-configuration: an option given on the command line
    /// first, then its `HEARTWORK_*` environment variable (the key `heartwork.max.body.mb` is
    /// `HEARTWORK_MAX_BODY_MB`), then the default at the call.
    private func settings(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigReader {
        var given = [AbsoluteConfigKey: ConfigValue]()
        func put(_ key: String, _ value: (any CustomStringConvertible)?) {
            if let value { given[AbsoluteConfigKey(key.split(separator: ".").map(String.init))] = ConfigValue(.string(value.description), isSecret: false) }
        }
        put("heartwork.host", host)
        put("heartwork.port", port)
        put("heartwork.data.dir", dataDirectory)
        put("heartwork.database.url", database)
        put("heartwork.log.level", logLevel)
        put("heartwork.bcrypt.cost", bcryptCost)
        put("heartwork.max.connections", maximumConnections)
        put("heartwork.max.connections.per.address", maximumConnectionsPerAddress)
        put("heartwork.idle.timeout", idleTimeout)
        put("heartwork.request.head.timeout", requestHeadTimeout)
        put("heartwork.max.body.mb", maximumBodyMegabytes)
        put("heartwork.concurrent.uploads", concurrentUploads)
        put("heartwork.job.workers", jobWorkers)
        put("heartwork.tile.url.template", tileURLTemplate)
        put("heartwork.tile.attribution", tileAttribution)
        if allowPrivateWebhooks { put("heartwork.allow.private.webhooks", "on") }
        put("heartwork.push.contact", pushContact)
        return ConfigReader(providers: [
            InMemoryProvider(name: "command line", values: given),
            EnvironmentVariablesProvider(environmentVariables: environment, secretsSpecifier: .specific(["HEARTWORK_DATABASE_URL"])),
        ])
    }

    /// The map tile server from the options or their variables; nil when none is set.
    private func mapTiles(_ config: ConfigReader) throws -> MapTiles? {
        let template = config.string(forKey: "heartwork.tile.url.template", default: "")
        guard !template.isEmpty else { return nil }
        let openStreetMap = template.contains("tile.openstreetmap.org")
        let attribution = config.string(forKey: "heartwork.tile.attribution", default: openStreetMap ? "© OpenStreetMap contributors" : "")
        do {
            return try MapTiles(urlTemplate: template, attribution: attribution)
        } catch {
            throw ValidationError("--tile-url-template: \(error.description)")
        }
    }

    /// A whole-number setting within `range`; a value that is not one is refused by name.
    private func limit(_ config: ConfigReader, _ key: ConfigKey, default fallback: Int, range: ClosedRange<Int>, name: String) throws -> Int {
        let text = config.string(forKey: key, default: String(fallback))
        guard let number = Int(text), range.contains(number) else {
            throw ValidationError("\(name) '\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func run() async throws {
        let config = settings()
        let level = Logger.Level(rawValue: config.string(forKey: "heartwork.log.level", default: "info")) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = JSONLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "heartwork")
        let dataDirectory = config.string(forKey: "heartwork.data.dir", default: ServerConfiguration.defaultDataDirectory)
        let location: DatabaseLocation? = try config.string(forKey: "heartwork.database.url", isSecret: true).map { try DatabaseLocation(argument: $0) }
        let port = try limit(config, "heartwork.port", default: 8080, range: 0...65_535, name: "port")
        let cost = try limit(config, "heartwork.bcrypt.cost", default: 12, range: 4...16, name: "the bcrypt cost")
        // HEARTWORK_READ_CACHE=off reads every workout list from the database (SQLite only caches).
        let cachesReads = config.string(forKey: "heartwork.read.cache", default: "on").lowercased() != "off"
        var configuration = ServerConfiguration(
            host: config.string(forKey: "heartwork.host", default: "127.0.0.1"), port: port, dataDirectory: dataDirectory,
            database: location, passwordHashCost: cost, secureCookies: secureCookies,
            maximumBodyBytes: try limit(config, "heartwork.max.body.mb", default: 32, range: 1...1024, name: "--max-body-mb") * 1024 * 1024,
            cachesReads: cachesReads,
            maximumConnections: try limit(config, "heartwork.max.connections", default: 1000, range: 1...1_000_000, name: "--max-connections"),
            idleTimeout: .seconds(try limit(config, "heartwork.idle.timeout", default: 60, range: 1...86_400, name: "--idle-timeout")),
            requestHeadTimeout: .seconds(try limit(config, "heartwork.request.head.timeout", default: 10, range: 1...3600, name: "--request-head-timeout")),
            concurrentUploads: try limit(config, "heartwork.concurrent.uploads", default: 2, range: 1...256, name: "--concurrent-uploads"),
            mapTiles: try mapTiles(config))
        configuration.maximumConnectionsPerAddress = try limit(
            config, "heartwork.max.connections.per.address", default: 200, range: 1...1_000_000, name: "--max-connections-per-address")
        configuration.importDirectory = config.string(forKey: "heartwork.import.dir").flatMap { $0.isEmpty ? nil : $0 }
        configuration.jobWorkers = try limit(config, "heartwork.job.workers", default: 3, range: 1...64, name: "--job-workers")
        configuration.jobLeaseSeconds = Double(try limit(config, "heartwork.job.lease.seconds", default: 60, range: 1...3600, name: "HEARTWORK_JOB_LEASE_SECONDS"))
        configuration.allowPrivateWebhooks = config.string(forKey: "heartwork.allow.private.webhooks", default: "").lowercased() == "on"
        if let contact = config.string(forKey: "heartwork.push.contact"), !contact.isEmpty {
            guard contact.hasPrefix("mailto:") || contact.hasPrefix("https://"), contact.count <= 200, !contact.contains(where: { $0.isWhitespace || $0 == "\"" }) else {
                throw ValidationError("--push-contact '\(contact.prefix(200))' is not a mailto: or https: URL")
            }
            configuration.pushContact = contact
        }

        let runtime = try await ServerRuntime.prepare(configuration: configuration, logger: logger)
        var extra = [any Service]()
        if demo {
            let login: DemoData.Login
            let team: DemoTeam.Seeded
            do {
                login = try await DemoData.seed(into: runtime.services)
                team = try await DemoTeam.seed(into: runtime.services)
            } catch {
                try? await runtime.store.shutdown()
                throw error
            }
            extra.append(DemoGateway(services: runtime.services, seeded: team, logger: logger))
            let base = "http://\(configuration.host == "0.0.0.0" ? "127.0.0.1" : configuration.host):\(configuration.port)"
            FileHandle.standardOutput.write(
                Data(
                    """
                    Demo ready: open \(base)/login
                      username: \(login.username)
                      password: \(login.password)
                    The coach, with a 12-player team streaming live from a simulated gateway:
                      username: \(team.login.username)
                      password: \(team.login.password)
                      then open \(base)/teams/\(team.teamID)/live

                    """.utf8))
        }
        logger.info("starting", metadata: ["address": "\(configuration.host):\(configuration.port)", "database": "\(configuration.database)"])
        try await runtime.run(extra: extra)
        logger.info("stopped")
    }
}
