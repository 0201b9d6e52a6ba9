import Logging
import NIOCore
import PostgresKit
import SQLKit

/// SQLKit over postgres-nio's `PostgresClient` (the pool postgres-kit recommends in place of
/// AsyncKit's): every statement leases a connection for its run, a session (a transaction)
/// keeps one for its whole body.
struct PostgresClientDatabase: SQLDatabase {
    let client: PostgresClient
    let logger: Logger
    let queryLogLevel: Logger.Level? = .trace
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { PostgresDialect() }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        promise.completeWithTask { try await self.execute(sql: query, onRow) }
        return promise.futureResult
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await client.withConnection { connection in
            try await connection.sql(queryLogLevel: queryLogLevel, logger: logger).execute(sql: query, onRow)
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await client.withConnection { connection in
            try await closure(connection.sql(queryLogLevel: queryLogLevel, logger: logger))
        }
    }
}

extension PostgresClient.Configuration {
    /// The client's configuration from a connection's (read from a URL by postgres-kit).
    init?(_ configuration: PostgresConnection.Configuration) {
        let tls: PostgresClient.Configuration.TLS
        if let context = configuration.tls.sslContext {
            tls = configuration.tls.isEnforced ? .require(context.configuration) : .prefer(context.configuration)
        } else {
            tls = .disable
        }
        if let host = configuration.host, let port = configuration.port {
            self.init(host: host, port: port, username: configuration.username, password: configuration.password, database: configuration.database, tls: tls)
        } else if let socket = configuration.unixSocketPath {
            self.init(unixSocketPath: socket, username: configuration.username, password: configuration.password, database: configuration.database)
        } else {
            return nil
        }
    }
}
