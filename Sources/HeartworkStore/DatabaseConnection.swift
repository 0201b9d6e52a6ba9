@preconcurrency import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

/// Where Heartwork keeps its data.
public enum DatabaseLocation: Sendable, Hashable, CustomStringConvertible {
    /// A SQLite file (the embedded default), opened in WAL mode.
    case sqlite(path: String)
    /// A PostgreSQL server, `postgres://user:password@host:port/database`.
    case postgres(url: String)

    /// Parses `--database`: a postgres:// URL, `sqlite:PATH`, or a plain file path.
    public init(argument: String) throws(StoreError) {
        if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
            self = .postgres(url: argument)
        } else if argument.hasPrefix("sqlite:") {
            self = .sqlite(path: String(argument.dropFirst("sqlite:".count)))
        } else if !argument.isEmpty && !argument.contains("://") {
            self = .sqlite(path: argument)
        } else {
            throw .invalidConfiguration("database '\(argument)' is neither a postgres:// URL nor a SQLite file path")
        }
    }

    public var description: String {
        switch self {
        case .sqlite(let path):
            return "SQLite \(path)"
        case .postgres(let url):
            // Never log the password.
            guard var components = URLComponents(string: url) else { return "PostgreSQL" }
            if components.password != nil { components.password = "•••" }
            return "PostgreSQL \(components.string ?? "")"
        }
    }
}

/// Which SQL the engine speaks where the two differ (column types, write transactions).
public enum SQLEngine: Sendable {
    case sqlite, postgres

    var doubleType: String { self == .sqlite ? "REAL" : "DOUBLE PRECISION" }
    var blobType: String { self == .sqlite ? "BLOB" : "BYTEA" }
    /// SQLite takes the write lock up front so two writers never deadlock on an upgrade.
    var beginWrite: String { self == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN" }
}

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

    public static func open(
        _ location: DatabaseLocation,
        logger: Logger,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        maxConnectionsPerEventLoop: Int = 4
    ) async throws -> DatabaseConnection {
        switch location {
        case .sqlite(let path):
            // Its own threads: SQLite calls block, and the shared pool also hashes passwords.
            let threadPool = NIOThreadPool(numberOfThreads: 4)
            threadPool.start()
            let source = SQLiteFileSource(path: path, threadPool: threadPool)
            let pool = SharedPool(EventLoopGroupConnectionPool(
                source: source, maxConnectionsPerEventLoop: maxConnectionsPerEventLoop, logger: logger, on: eventLoopGroup))
            let pooled = PooledSQLiteDatabase(pool: pool, logger: logger)
            let database = pooled.sql(queryLogLevel: .trace)
            // journal_mode is a property of the file: set once, every connection then uses WAL.
            try await database.raw("PRAGMA journal_mode = WAL").run()
            return DatabaseConnection(engine: .sqlite, sql: database, sqlite: pooled) {
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
            let pool = SharedPool(EventLoopGroupConnectionPool(
                source: PostgresConnectionSource(sqlConfiguration: configuration),
                maxConnectionsPerEventLoop: maxConnectionsPerEventLoop, logger: logger, on: eventLoopGroup))
            let database = pool.pool.database(logger: logger).sql(queryLogLevel: .trace)
            return DatabaseConnection(engine: .postgres, sql: database, sqlite: nil) { try await pool.pool.shutdownAsync() }
        }
    }

    private init(engine: SQLEngine, sql: any SQLDatabase, sqlite: PooledSQLiteDatabase?, shutdown: @escaping @Sendable () async throws -> Void) {
        self.engine = engine
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

    public func shutdown() async throws {
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

/// AsyncKit's pool guards its state with a lock but is not marked Sendable; this box says so.
final class SharedPool<Source: ConnectionPoolSource>: @unchecked Sendable {
    let pool: EventLoopGroupConnectionPool<Source>
    init(_ pool: EventLoopGroupConnectionPool<Source>) { self.pool = pool }
}

/// Opens SQLite files with the settings Heartwork relies on.
struct SQLiteFileSource: ConnectionPoolSource {
    let path: String
    let threadPool: NIOThreadPool

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
        SQLiteConnection.open(storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop)
            .flatMap { connection in
                connection.query("PRAGMA foreign_keys = ON")
                    .flatMap { _ in connection.query("PRAGMA busy_timeout = 10000") }
                    .map { _ in connection }
            }
    }
}

/// A SQLiteDatabase that takes a pooled connection per query (SQLiteKit has none of its own).
struct PooledSQLiteDatabase: SQLiteDatabase {
    let shared: SharedPool<SQLiteFileSource>
    let logger: Logger

    init(pool: SharedPool<SQLiteFileSource>, logger: Logger) {
        shared = pool
        self.logger = logger
    }

    private var pool: EventLoopGroupConnectionPool<SQLiteFileSource> { shared.pool }

    var eventLoop: any EventLoop { pool.eventLoopGroup.any() }

    func query(_ query: String, _ binds: [SQLiteData], logger: Logger, _ onRow: @escaping @Sendable (SQLiteRow) -> Void) -> EventLoopFuture<Void> {
        pool.withConnection(logger: logger) { $0.query(query, binds, logger: logger, onRow) }
    }

    func withConnection<T>(_ closure: @escaping @Sendable (SQLiteConnection) -> EventLoopFuture<T>) -> EventLoopFuture<T> {
        pool.withConnection(logger: logger, closure)
    }
}

/// A failure of the store that callers can report.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidConfiguration(String)
    case conflict(String)
    case notFound(String)
    case corruptData(String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let message): "database configuration: \(message)"
        case .conflict(let message): message
        case .notFound(let message): message
        case .corruptData(let message): "stored data is damaged: \(message)"
        }
    }
}

/// A first-come, first-served lock for async code: waiters are suspended, not blocked.
actor AsyncGate {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
