import Foundation
import Logging
import NIOPosix
import PostgresKit
import SQLKit

/// PostgreSQL's LISTEN/NOTIFY, for instances sharing one database to tell each other what
/// happened (the live bus). SQLite has no other instance to tell: `sharesNotifications` is
/// false and the bus stays in process.
extension HeartworkStore {
    public var sharesNotifications: Bool { database.engine == .postgres }

    /// Sends each payload as its own notification (each under 8000 bytes), delivered to every
    /// listener once the statement commits.
    public func notify(channel: String, payloads: [String]) async throws {
        guard sharesNotifications else { return }
        for payload in payloads {
            try await database.execute("SELECT pg_notify(\(bind: channel), \(bind: payload))")
        }
    }

    /// Listens on a connection of the pool (held while listening) until the task is cancelled, calling `receive` for
    /// each notification in order; a lost connection is opened again after a pause (1 s,
    /// doubling to 30 s), and `onConnected` is told each time listening (re)starts.
    public func listen(
        channel: String, logger: Logger, onConnected: @Sendable () async -> Void = {},
        receive: @escaping @Sendable (String) async -> Void
    ) async {
        guard let client = database.postgresClient else { return }
        var pause = Duration.seconds(1)
        while !Task.isCancelled {
            do {
                // One of the pool's connections, kept while listening.
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        pause = .seconds(1)
                        await onConnected()
                        for try await notification in notifications {
                            await receive(notification.payload)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("listening for other instances failed; trying again", metadata: ["error": "\(String(reflecting: error))", "retryIn": "\(pause)"])
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(30))
        }
    }
}
