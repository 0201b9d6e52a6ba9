@preconcurrency import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit
import Synchronization

/// An open database: a connection pool behind SQLKit, on either engine.
public final class DatabaseConnection: Sendable {
    public let engine: SQLEngine
    public let sql: any SQLDatabase
    /// The same SQLite pool without SQLKit's row decoding, for reads (see `ColumnReader`).
    private let sqlite: PooledSQLiteDatabase?
    private let shutdownPool: @Sendable () async throws -> Void
    /// SQLite takes one writer at a time. Waiting for its lock blocks a thread of the pool
    /// that runs the queries, so writers queue here instead, without blocking anything.
    private let writeGate = AsyncGate()
    private let isOpen = Mutex(true)
    /// The PostgreSQL pool, which also lends the connection LISTEN keeps.
    let postgresClient: PostgresClient?

    public static func open(
        _ location: DatabaseLocation,
        logger: Logger,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        maxConnectionsPerEventLoop: Int = 4,
        connectionWait: TimeAmount = .seconds(10)
    ) async throws -> DatabaseConnection {
        switch location {
        case .sqlite(let path):
            // Its own threads: SQLite calls block, and the shared pool also hashes passwords.
            let threadPool = NIOThreadPool(numberOfThreads: 4)
            threadPool.start()
            let source = SQLiteFileSource(path: path, threadPool: threadPool)
            let pool = SharedPool(
                EventLoopGroupConnectionPool(
                    source: source, maxConnectionsPerEventLoop: maxConnectionsPerEventLoop, requestTimeout: connectionWait, logger: logger,
                    on: eventLoopGroup))
            let pooled = PooledSQLiteDatabase(pool: pool, logger: logger)
            let database = pooled.sql(queryLogLevel: .trace)
            // journal_mode is a property of the file: set once, every connection then uses WAL.
            try await database.raw("PRAGMA journal_mode = WAL").run()
            return DatabaseConnection(engine: .sqlite, sql: database, sqlite: pooled, postgres: nil) {
                try await pool.pool.shutdownAsync()
                try await threadPool.shutdownGracefully()
            }
        case .postgres(let url):
            let configuration: SQLPostgresConfiguration
            do {
                configuration = try SQLPostgresConfiguration(url: url)
            } catch {
                throw StoreError.invalidConfiguration("cannot read the PostgreSQL URL: \(error)")
            }
            guard var clientConfiguration = PostgresClient.Configuration(configuration.coreConfiguration) else {
                throw StoreError.invalidConfiguration("the PostgreSQL URL names neither a host nor a socket")
            }
            clientConfiguration.options.maximumConnections = maxConnectionsPerEventLoop * 4
            let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: logger)
            // The client's background work runs as long as the store is open: the store is
            // opened by `serve` inside its service group and by tools and tests outside any,
            // so the store owns this task and `shutdown` cancels it (ARCHITECTURE: tasks).
            let running = Task { await client.run() }
            let database = PostgresClientDatabase(client: client, logger: logger)
            return DatabaseConnection(engine: .postgres, sql: database, sqlite: nil, postgres: client) {
                running.cancel()
                await running.value
            }
        }
    }

    private init(
        engine: SQLEngine, sql: any SQLDatabase, sqlite: PooledSQLiteDatabase?, postgres: PostgresClient?,
        shutdown: @escaping @Sendable () async throws -> Void
    ) {
        self.engine = engine
        postgresClient = postgres
        self.sql = sql
        self.sqlite = sqlite
        self.shutdownPool = shutdown
    }

    /// Runs a read and returns its rows: directly on SQLite, through SQLKit elsewhere.
    func all(_ query: SQLQueryString) async throws -> [any ColumnReader] {
        guard let sqlite else { return try await sql.readAll(query) }
        let (text, binds) = sql.serialize(query)
        let encoder = SQLiteDataEncoder()
        let data = try binds.map { try encoder.encode($0) }
        let rows: [SQLiteRow] = try await sqlite.query(text, data).get()
        return rows
    }

    func first(_ query: SQLQueryString) async throws -> (any ColumnReader)? {
        try await all(query).first
    }

    /// Closes the pool; a second call does nothing.
    public func shutdown() async throws {
        guard
            isOpen.withLock({ open in
                defer { open = false }
                return open
            })
        else { return }
        try await shutdownPool()
    }

    /// Runs one statement that writes.
    func execute(_ query: SQLQueryString) async throws {
        try await writing { try await self.sql.raw(query).run() }
    }

    /// Runs `body` in one transaction on one connection: all of it is stored, or none.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await writing { try await self.runTransaction(body) }
    }

    /// Inserts under a per-account cap: in one transaction the account's row is locked
    /// (PostgreSQL; SQLite's one writer keeps the others out already), the rows `count`
    /// selects are counted, and `insert` runs only below `limit` — so requests racing on one
    /// or several instances can never leave more than the cap (issue 40: 60 parallel requests
    /// left 60 gateways of 50). Throws `StoreError.limitReached(limit)` at the cap and
    /// `StoreError.notFound("user")` when the account is gone.
    func cappedInsert(
        userID: String, limit: Int, counting count: SQLQueryString, _ insert: @escaping @Sendable (any SQLDatabase) async throws -> Void
    ) async throws {
        let lock: SQLQueryString = engine == .postgres ? " FOR UPDATE" : ""
        try await transaction { sql in
            guard try await sql.readFirst("SELECT id FROM users WHERE id = \(bind: userID)\(lock)") != nil else { throw StoreError.notFound("user") }
            let counted = try await sql.readFirst("SELECT COUNT(*) AS n FROM (\(count)) AS capped").map { try $0.int("n") } ?? 0
            guard counted < limit else { throw StoreError.limitReached(limit) }
            try await insert(sql)
        }
    }

    private func writing<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        guard engine == .sqlite else { return try await body() }
        return try await writeGate.run(body)
    }

    private func runTransaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let begin = engine.beginWrite
        return try await sql.withSession { session in
            try await session.raw(SQLQueryString(begin)).run()
            do {
                let result = try await body(session)
                try await session.raw("COMMIT").run()
                return result
            } catch {
                try? await session.raw("ROLLBACK").run()
                throw error
            }
        }
    }
}
