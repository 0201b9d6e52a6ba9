@preconcurrency import AsyncKit
import Logging
import NIOCore
import NIOPosix
import SQLiteKit

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
