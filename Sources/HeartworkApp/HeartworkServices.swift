import Foundation
import HeartworkCore
import HeartworkStore
import Logging
import ServiceLifecycle

/// The application layer, built once per process over an open store: one service per area,
/// the authenticator both HTTP and WebSocket edges use, and the long-running services the
/// server's service group runs (started after migrations, stopped in reverse order).
public final class HeartworkServices: Sendable {
    public struct Settings: Sendable {
        /// bcrypt cost factor: 12 in production (about a quarter second), lower only in tests.
        public var passwordHashCost: Int
        public var sessionLifetime: TimeInterval
        /// How often expired sessions and old sign-in failures are deleted.
        public var sweepInterval: Duration
        /// The length of a match's second: 1000 ms; shorter only in tests.
        public var matchSecondMilliseconds: Int
        /// How late a match reading may come and still count (`MatchRules.lateSeconds`, 3
        /// match-seconds); wider only in tests of something else than lateness, so a loaded
        /// test machine cannot lose them a second.
        public var matchLateSeconds = MatchRules.lateSeconds
        /// Motivation webhooks to private and loopback addresses (off unless the operator allows).
        public var allowPrivateWebhooks: Bool
        /// Where Apple Health uploads wait for their import (shared by instances that share a
        /// PostgreSQL database); nil: `heartwork-imports` in the system's temporary directory.
        public var importDirectory: String?
        /// How often the job queue is looked at when it was empty.
        public var jobPollInterval: Duration
        /// A job's lease (see `JobRunner`).
        public var jobLeaseSeconds: Double
        /// How many jobs run at once on this instance (one user's jobs one at a time).
        public var jobWorkers: Int
        /// The VAPID `sub` claim Web Push services see: a `mailto:` or https URL reaching the
        /// operator (docs/PROTOCOL.md, Web Push).
        public var pushContact: String = "mailto:webpush@heartwork.invalid"

        public init(
            passwordHashCost: Int = 12, sessionLifetime: TimeInterval = 30 * 86_400, sweepInterval: Duration = .seconds(3600),
            matchSecondMilliseconds: Int = 1000, allowPrivateWebhooks: Bool = false,
            importDirectory: String? = nil, jobPollInterval: Duration = .milliseconds(500), jobLeaseSeconds: Double = 60,
            jobWorkers: Int = 3
        ) {
            self.jobWorkers = jobWorkers
            self.jobLeaseSeconds = jobLeaseSeconds
            self.importDirectory = importDirectory
            self.jobPollInterval = jobPollInterval
            self.allowPrivateWebhooks = allowPrivateWebhooks
            self.passwordHashCost = passwordHashCost
            self.sessionLifetime = sessionLifetime
            self.sweepInterval = sweepInterval
            self.matchSecondMilliseconds = matchSecondMilliseconds
        }
    }

    public let store: HeartworkStore
    public let settings: Settings
    public let authenticator: Authenticator
    public let accounts: AccountService
    /// The account export (GET /api/me/export).
    public let archives: AccountArchive
    public let profiles: ProfileService
    public let friends: FriendService
    public let workouts: WorkoutService
    /// Live recordings from /record, finished into workouts.
    public let recordings: RecordingService
    public let gateways: GatewayService
    public let live: LiveService
    /// Live events between instances sharing a PostgreSQL database (in process on SQLite).
    public let bus: LiveBus
    public let teams: TeamService
    public let teamSessions: TeamSessionService
    public let inbox: InboxService
    public let matches: MatchService
    public let strength: StrengthService
    /// Strong and Hevy imports, as jobs.
    public let strengthImports: StrengthImportService
    public let webhooks: WebhookDeliverer
    /// Web Push: the VAPID key, the users' devices, the pushes' delivery.
    public let push: PushService
    /// Daily health: imports, per-day metrics, marks.
    public let daily: DailyHealthService
    /// Phone sync: sync tokens and what phone apps send (Health Auto Export).
    public let sync: HealthSyncService
    /// The durable job queue's worker.
    public let jobs: JobRunner
    /// The inactivity alerts' periodic check.
    public let healthAlerts: HealthAlertChecker
    /// Long-running work, in start order. The event bus, the live hub and the job runner of
    /// later features join this list.
    public let backgroundServices: [any Service]

    /// - Parameter onFailedSignIn: told of every failed sign-in (for metrics).
    public init(store: HeartworkStore, settings: Settings, logger: Logger, onFailedSignIn: @escaping @Sendable () -> Void = {}) async throws {
        self.store = store
        self.settings = settings
        let cache = SessionCache()
        let hasher = PasswordHasher(cost: settings.passwordHashCost)
        let hub = LiveHub()
        let inboxHub = InboxHub()
        let bus = LiveBus(store: store, hub: hub, inboxHub: inboxHub, sessionCache: cache, connections: LiveConnections(), logger: logger)
        self.bus = bus
        authenticator = Authenticator(store: store, cache: cache)
        let policy = WebhookPolicy(allowPrivateAddresses: settings.allowPrivateWebhooks)
        let push = PushService(store: store, policy: policy, contact: settings.pushContact, logger: logger)
        self.push = push
        let inbox = InboxService(store: store, hub: inboxHub, bus: bus, push: push)
        self.inbox = inbox
        var accounts = AccountService(
            store: store, hasher: hasher, sessionLifetime: settings.sessionLifetime,
            decoyHash: try await hasher.hash(SessionToken.generate()), sessionCache: cache, revoker: bus, onFailedSignIn: onFailedSignIn)
        accounts.inbox = inbox
        self.accounts = accounts
        archives = AccountArchive(store: store)
        let workouts = WorkoutService(store: store, days: DayRecomputeQueue(store: store))
        self.workouts = workouts
        recordings = RecordingService(store: store, workouts: workouts)
        profiles = ProfileService(store: store, sessionCache: cache, workouts: workouts)
        gateways = GatewayService(store: store, revoker: bus)
        friends = FriendService(store: store, inbox: inbox)
        let live = LiveService(store: store, hub: hub, bus: bus)
        self.live = live
        matches = MatchService(
            store: store, workouts: workouts, live: live, inbox: inbox, bus: bus, secondMilliseconds: settings.matchSecondMilliseconds, lateSeconds: settings.matchLateSeconds)
        let teams = TeamService(store: store)
        self.teams = teams
        teamSessions = TeamSessionService(store: store, teams: teams)
        let webhooks = WebhookDeliverer(store: store, policy: policy, logger: logger)
        self.webhooks = webhooks
        strength = StrengthService(store: store, library: try StrengthLibrary.embedded(), webhookPolicy: policy, webhooks: webhooks)
        var daily = DailyHealthService(
            store: store, workouts: workouts, inbox: inbox,
            importDirectory: settings.importDirectory ?? URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("heartwork-imports").path,
            logger: logger)
        daily.sessionCache = cache
        self.daily = daily
        sync = HealthSyncService(store: store, daily: daily, logger: logger)
        let healthAlerts = HealthAlertChecker(daily: daily, store: store, logger: logger)
        self.healthAlerts = healthAlerts
        let presence = JobRunner.Presence()
        let strengthImports = StrengthImportService(strength: strength, daily: daily) { presence.isRunning }
        self.strengthImports = strengthImports
        let jobs = JobRunner(
            store: store,
            definitions: daily.jobDefinitions + workouts.jobDefinitions + webhooks.jobDefinitions + push.jobDefinitions + strengthImports.jobDefinitions,
            schedules: Self.schedules(store: store, daily: daily, alerts: healthAlerts, settings: settings),
            workers: settings.jobWorkers, pollInterval: settings.jobPollInterval, lease: settings.jobLeaseSeconds, presence: presence, logger: logger)
        self.jobs = jobs
        backgroundServices = [bus, jobs]
    }

    /// The periodic work, all run by the job runner (once at start, then every interval, on
    /// each instance; each is safe to run on several at once).
    static func schedules(store: HeartworkStore, daily: DailyHealthService, alerts: HealthAlertChecker, settings: Settings) -> [JobRunner.Schedule] {
        [
            JobRunner.Schedule("sweep expired sessions", every: settings.sweepInterval) { now in try await SessionSweeper(store: store).sweep(now: now) },
            JobRunner.Schedule("check inactivity alerts", every: .seconds(300)) { now in _ = await alerts.checkOnce(now: now) },
            JobRunner.Schedule("sweep the import directory", every: .seconds(3600)) { now in _ = try await daily.sweepUploads(now: now) },
            // Once at start in effect: afterwards no stored day is outdated until the next upgrade.
            JobRunner.Schedule("work out again days stored by older formulas", every: .seconds(3600)) { now in
                _ = try await daily.recomputeOutdated(now: now)
            },
        ]
    }

    /// Throws when the database does not answer (for health checks).
    public func checkDatabase() async throws {
        try await store.ping()
    }
}
