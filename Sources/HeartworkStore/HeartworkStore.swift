import Foundation
// The records are the store's vocabulary: whoever uses the store speaks them.
@_exported import HeartworkModel
import Logging
import NIOCore
import NIOPosix
import SQLKit

/// Heartwork's persistence: one repository per aggregate, implemented once over SQLKit,
/// so the same code runs on SQLite and PostgreSQL.
public final class HeartworkStore: Sendable {
    public let database: DatabaseConnection
    public let users: any UserRepository
    public let measurements: any MeasurementRepository
    public let sessions: any SessionRepository
    public let loginThrottle: any LoginThrottleRepository
    public let friends: any FriendRepository
    public let workouts: any WorkoutRepository
    public let gateways: any GatewayRepository
    public let sensors: any SensorRepository
    public let teams: any TeamRepository
    public let matches: any MatchRepository
    public let inbox: any InboxRepository
    public let strength: any StrengthRepository
    public let health: any HealthSampleRepository
    public let daily: any DailyRepository
    public let jobs: any JobRepository
    public let recordings: any RecordingRepository
    public let sync: any SyncRepository
    public let push: any PushRepository

    /// Opens the database and brings its schema up to date.
    /// - Parameter cachesReads: keep workout lists in memory on SQLite (see `CachingWorkoutRepository`).
    /// - Parameter ingestCommitSpacing: the live feed's group commits start at least this far
    ///   apart (`IngestBatcher`); zero (tests, tools) commits as soon as the previous one ends.
    /// - Parameter connectionWaitSeconds: how long a query waits for a pooled connection before it
    ///   fails (10 s: a server answers rather than queue for ever; tests on a loaded 2-core
    ///   machine wait longer).
    public static func open(
        _ location: DatabaseLocation, logger: Logger, cachesReads: Bool = true, ingestCommitSpacing: Duration = .zero,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        connectionWaitSeconds: Int64 = 10
    ) async throws -> HeartworkStore {
        if case .sqlite(let path) = location { try prepareFile(path) }
        let database = try await DatabaseConnection.open(
            location, logger: logger, eventLoopGroup: eventLoopGroup,
            connectionWait: .seconds(max(1, connectionWaitSeconds)))
        do {
            let applied = try await Migrations.run(on: database)
            if !applied.isEmpty { logger.info("applied migrations", metadata: ["versions": "\(applied)", "database": "\(location)"]) }
        } catch {
            try? await database.shutdown()
            throw error
        }
        let store = HeartworkStore(database: database, cachesReads: cachesReads, ingestCommitSpacing: ingestCommitSpacing)
        do {
            // What a killed process left in the live feed's log goes into the blocks first.
            if let unreadable = try await (store.sensors as? SQLSensorRepository)?.recover(), unreadable > 0 {
                logger.error("live feed log rows that could not be read were dropped", metadata: ["rows": "\(unreadable)"])
            }
        } catch {
            try? await database.shutdown()
            throw error
        }
        return store
    }

    init(database: DatabaseConnection, cachesReads: Bool, ingestCommitSpacing: Duration = .zero) {
        self.database = database
        users = SQLUserRepository(database: database)
        measurements = SQLMeasurementRepository(database: database)
        sessions = SQLSessionRepository(database: database)
        loginThrottle = SQLLoginThrottleRepository(database: database)
        friends = SQLFriendRepository(database: database)
        gateways = SQLGatewayRepository(database: database)
        sensors = SQLSensorRepository(database: database, commitSpacing: ingestCommitSpacing)
        teams = SQLTeamRepository(database: database)
        matches = SQLMatchRepository(database: database)
        inbox = SQLInboxRepository(database: database)
        strength = SQLStrengthRepository(database: database)
        health = SQLHealthSampleRepository(database: database)
        daily = SQLDailyRepository(database: database)
        jobs = SQLJobRepository(database: database)
        recordings = SQLRecordingRepository(database: database)
        sync = SQLSyncRepository(database: database)
        push = SQLPushRepository(database: database)
        let workouts = SQLWorkoutRepository(database: database)
        self.workouts = cachesReads && database.engine == .sqlite ? CachingWorkoutRepository(base: workouts) : workouts
    }

    /// Health data is personal: a directory Heartwork creates is readable by its owner only
    /// (0700), and so is a new database file (0600; SQLite gives its -wal and -shm files the
    /// same mode). Existing files and directories keep the modes their operator chose.
    static func prepareFile(_ path: String) throws {
        let manager = FileManager.default
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        if !manager.fileExists(atPath: directory.path) {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        if !manager.fileExists(atPath: path) {
            guard manager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw StoreError.invalidConfiguration("cannot create the database file \(path)")
            }
        }
    }

    /// Checks the database answers (for /healthz).
    public func ping() async throws {
        _ = try await database.first("SELECT 1 AS one")
    }

    public func shutdown() async throws {
        // The live feed's newest blocks are written, so the log is empty after a clean stop
        // (should that fail — the database already gone —, the log is folded at the next open).
        try? await sensors.flush()
        try await database.shutdown()
    }
}
