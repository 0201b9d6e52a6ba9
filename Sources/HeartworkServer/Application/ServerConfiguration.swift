import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore
import HeartworkStore

/// How the server runs; the `serve` command fills it from flags and HEARTWORK_* variables.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var dataDirectory: String
    public var database: DatabaseLocation
    /// bcrypt cost factor: 12 in production (about a quarter second), lower only in tests.
    public var passwordHashCost: Int
    /// Marks cookies Secure; set when the server sits behind HTTPS.
    public var secureCookies: Bool
    public var sessionLifetime: TimeInterval
    /// Largest accepted request body, in bytes (a 24-hour workout with RR and GPS fits).
    public var maximumBodyBytes: Int
    public var serverName: String
    /// Keep workout lists in memory on SQLite (see `CachingWorkoutRepository`).
    public var cachesReads: Bool
    /// Open connections at most; more wait in the kernel's queue until one closes.
    public var maximumConnections: Int
    /// A connection with no request activity for this long is closed.
    /// How often an open WebSocket is pinged; one that has not answered by the next ping is
    /// closed (1001 "Ping timeout"). 30 s, Hummingbird's default; tests on a saturated
    /// machine wait longer, as their own client may not be scheduled for half a minute.
    public var webSocketPingPeriod: Duration = .seconds(30)
    public var idleTimeout: Duration
    /// A new connection must have sent its first request head within this.
    public var requestHeadTimeout: Duration
    /// Open connections from one remote address at most (`--max-connections-per-address`); a
    /// club behind one router has a few dozen phones and tablets.
    public var maximumConnectionsPerAddress = 200
    /// How long a request body may keep the server waiting for its bytes, plus a second for
    /// every `bodyBytesPerSecond` bytes it has sent (`RequestBodyPaceHandler`).
    public var bodyWaitAllowance: Duration = .seconds(10)
    public var bodyBytesPerSecond = 1024
    /// Large uploads (workouts, photos) read and decoded at the same time; others wait.
    public var concurrentUploads: Int
    /// Routes are drawn on these map tiles; nil (the default) draws them on a plain ground
    /// and nothing is fetched from a third party.
    public var mapTiles: MapTiles?
    /// The length of a match's second: 1000 ms; shorter only in tests.
    public var matchSecondMilliseconds = 1000
    /// How late a match reading may come (`MatchRules.lateSeconds`); wider only in tests.
    public var matchLateSeconds = MatchRules.lateSeconds
    /// Motivation webhooks may call private and loopback addresses (`--allow-private-webhooks`).
    public var allowPrivateWebhooks = false
    /// The operator contact Web Push services see in the VAPID `sub` claim (`--push-contact`,
    /// a `mailto:` or https URL); nil: `mailto:webpush@heartwork.invalid`.
    public var pushContact: String?
    /// Where Apple Health uploads wait for their import job; nil: `imports` in the data
    /// directory. Instances sharing a PostgreSQL database must share it too.
    public var importDirectory: String?
    /// How long a background job's lease lasts before another worker may take it over
    /// (`HEARTWORK_JOB_LEASE_SECONDS`; renewed every third of it while the job runs).
    public var jobLeaseSeconds: Double = 60
    /// The live feed's group commits start at least this far apart (docs/BENCHMARKS.md, "Live
    /// ingest": at 10,000 straps, 20 ms took the server's CPU from 0.031 to 0.0295 core-s/s per
    /// 1,000 straps and 40 ms, with hex read by bytes, to 0.022, for acks ~20 ms later at p50).
    public var ingestCommitSpacing: Duration = .milliseconds(40)
    /// Background jobs run at once on this instance (`--job-workers`); one user's one at a time.
    public var jobWorkers = 3

    public init(
        host: String = "127.0.0.1", port: Int = 8080, dataDirectory: String = ServerConfiguration.defaultDataDirectory,
        database: DatabaseLocation? = nil, passwordHashCost: Int = 12, secureCookies: Bool = false,
        sessionLifetime: TimeInterval = 30 * 86_400, maximumBodyBytes: Int = 32 * 1024 * 1024, serverName: String = "Heartwork",
        cachesReads: Bool = true, maximumConnections: Int = 1000, idleTimeout: Duration = .seconds(60),
        requestHeadTimeout: Duration = .seconds(10), concurrentUploads: Int = 2,
        mapTiles: MapTiles? = nil
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.database = database ?? .sqlite(path: URL(fileURLWithPath: dataDirectory).appendingPathComponent("heartwork.sqlite").path)
        self.passwordHashCost = passwordHashCost
        self.secureCookies = secureCookies
        self.sessionLifetime = sessionLifetime
        self.maximumBodyBytes = maximumBodyBytes
        self.serverName = serverName
        self.cachesReads = cachesReads
        self.maximumConnections = maximumConnections
        self.idleTimeout = idleTimeout
        self.requestHeadTimeout = requestHeadTimeout
        self.concurrentUploads = concurrentUploads
        self.mapTiles = mapTiles
    }

    /// What the application layer needs of this.
    public var serviceSettings: HeartworkServices.Settings {
        var settings = HeartworkServices.Settings(
            passwordHashCost: passwordHashCost, sessionLifetime: sessionLifetime, matchSecondMilliseconds: matchSecondMilliseconds,
            allowPrivateWebhooks: allowPrivateWebhooks,
            importDirectory: importDirectory ?? URL(fileURLWithPath: dataDirectory).appendingPathComponent("imports").path,
            jobLeaseSeconds: jobLeaseSeconds, jobWorkers: jobWorkers)
        if let pushContact { settings.pushContact = pushContact }
        settings.matchLateSeconds = matchLateSeconds
        return settings
    }

    /// `$XDG_DATA_HOME/heartwork`, or `~/.local/share/heartwork`.
    public static var defaultDataDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/heartwork" }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/heartwork").path
    }
}
