@preconcurrency import AsyncKit
import Logging
import NIOCore
import NIOPosix
import SQLiteKit

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
