import Foundation
import SQLKit

public protocol InboxRepository: Sendable {
    func add(_ notification: InboxRecord) async throws
    /// Newest first.
    func list(userID: String, limit: Int, offset: Int) async throws -> [InboxRecord]
    func unreadCount(userID: String) async throws -> Int
    /// Marks read: one (by id) or all of the user's. Returns how many changed; nil when `id`
    /// is not one of the user's notifications.
    func markRead(userID: String, id: String?, at: Date) async throws -> Int?
}

struct SQLInboxRepository: InboxRepository {
    let database: DatabaseConnection

    func add(_ notification: InboxRecord) async throws {
        try await database.execute(
            """
            INSERT INTO user_notifications (id, user_id, kind, text, link, actor_id, created_at, read_at)
            VALUES (\(bind: notification.id), \(bind: notification.userID), \(bind: notification.kind), \(bind: notification.text),
                \(bind: notification.link), \(bind: notification.actorID), \(bind: notification.createdAt.millisecondsSince1970),
                \(bind: notification.readAt?.millisecondsSince1970))
            """)
    }

    func list(userID: String, limit: Int, offset: Int) async throws -> [InboxRecord] {
        try await database.all(
            """
            SELECT id, user_id, kind, text, link, actor_id, created_at, read_at FROM user_notifications
            WHERE user_id = \(bind: userID) ORDER BY created_at DESC, id LIMIT \(bind: limit) OFFSET \(bind: offset)
            """
        ).map { row in
            InboxRecord(
                id: try row.string("id"), userID: try row.string("user_id"), kind: try row.string("kind"), text: try row.string("text"),
                link: try row.optionalString("link"), actorID: try row.optionalString("actor_id"), createdAt: try row.date("created_at"),
                readAt: try row.optionalDate("read_at"))
        }
    }

    func unreadCount(userID: String) async throws -> Int {
        try await database.first("SELECT COUNT(*) AS n FROM user_notifications WHERE user_id = \(bind: userID) AND read_at IS NULL")?.int("n") ?? 0
    }

    func markRead(userID: String, id: String?, at: Date) async throws -> Int? {
        try await database.transaction { sql -> Int? in
            if let id, try await sql.readFirst("SELECT id FROM user_notifications WHERE user_id = \(bind: userID) AND id = \(bind: id)") == nil {
                return nil
            }
            let only: SQLQueryString = id.map { "AND id = \(bind: $0)" } ?? ""
            let rows = try await sql.readAll("SELECT id FROM user_notifications WHERE user_id = \(bind: userID) AND read_at IS NULL \(only)")
            guard !rows.isEmpty else { return 0 }
            try await sql.raw("UPDATE user_notifications SET read_at = \(bind: at.millisecondsSince1970) WHERE user_id = \(bind: userID) AND read_at IS NULL \(only)").run()
            return rows.count
        }
    }
}
