import Foundation
import SQLKit

struct SQLFriendRepository: FriendRepository {
    let database: DatabaseConnection
    func createRequest(from: String, to: String, at date: Date) async throws -> FriendRequestRecord {
        let request = FriendRequestRecord(id: UUID().uuidString.lowercased(), fromUserID: from, toUserID: to, status: .pending, createdAt: date)
        try await database.execute(
            """
            INSERT INTO friend_requests (id, from_user, to_user, status, created_at)
            VALUES (\(bind: request.id), \(bind: from), \(bind: to), 'pending', \(bind: date.millisecondsSince1970))
            """)
        return request
    }

    func pendingRequest(from: String, to: String) async throws -> FriendRequestRecord? {
        try await database.first(
            """
            SELECT id, from_user, to_user, status, created_at FROM friend_requests
            WHERE from_user = \(bind: from) AND to_user = \(bind: to) AND status = 'pending'
            """
        ).map(Self.record)
    }

    func request(id: String) async throws -> FriendRequestRecord? {
        try await database.first("SELECT id, from_user, to_user, status, created_at FROM friend_requests WHERE id = \(bind: id)").map(Self.record)
    }

    func incoming(userID: String) async throws -> [FriendRequestRecord] {
        try await database.all(
            """
            SELECT id, from_user, to_user, status, created_at FROM friend_requests
            WHERE to_user = \(bind: userID) AND status = 'pending' ORDER BY created_at DESC
            """
        ).map(Self.record)
    }

    func outgoing(userID: String) async throws -> [FriendRequestRecord] {
        try await database.all(
            """
            SELECT id, from_user, to_user, status, created_at FROM friend_requests
            WHERE from_user = \(bind: userID) AND status = 'pending' ORDER BY created_at DESC
            """
        ).map(Self.record)
    }

    func answer(requestID: String, accept: Bool, at date: Date) async throws {
        try await database.transaction { sql in
            guard
                let row = try await sql.readFirst(
                    """
                    SELECT id, from_user, to_user, status, created_at FROM friend_requests WHERE id = \(bind: requestID)
                    """)
            else { throw StoreError.notFound("no friend request \(requestID)") }
            let request = try Self.record(row)
            guard request.status == .pending else { throw StoreError.conflict("the friend request was already answered") }
            let status = accept ? "accepted" : "denied"
            try await sql.raw(
                """
                UPDATE friend_requests SET status = \(bind: status), responded_at = \(bind: date.millisecondsSince1970)
                WHERE id = \(bind: requestID)
                """
            ).run()
            guard accept else { return }
            // Any request the other way is settled by this friendship too.
            try await sql.raw(
                """
                UPDATE friend_requests SET status = 'accepted', responded_at = \(bind: date.millisecondsSince1970)
                WHERE from_user = \(bind: request.toUserID) AND to_user = \(bind: request.fromUserID) AND status = 'pending'
                """
            ).run()
            for (a, b) in [(request.fromUserID, request.toUserID), (request.toUserID, request.fromUserID)] {
                try await sql.raw("DELETE FROM friendships WHERE user_id = \(bind: a) AND friend_id = \(bind: b)").run()
                try await sql.raw(
                    """
                    INSERT INTO friendships (user_id, friend_id, created_at) VALUES (\(bind: a), \(bind: b), \(bind: date.millisecondsSince1970))
                    """
                ).run()
            }
        }
    }

    func areFriends(_ a: String, _ b: String) async throws -> Bool {
        try await database.first("SELECT 1 AS yes FROM friendships WHERE user_id = \(bind: a) AND friend_id = \(bind: b)") != nil
    }

    func friends(of userID: String) async throws -> [UserRecord] {
        try await database.all(
            """
            SELECT \(unsafeRaw: SQLUserRepository.columns)
            FROM friendships JOIN users ON users.id = friendships.friend_id
            WHERE friendships.user_id = \(bind: userID) ORDER BY users.username_key
            """
        ).map(SQLUserRepository.record)
    }

    func remove(_ a: String, _ b: String) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                DELETE FROM friendships WHERE (user_id = \(bind: a) AND friend_id = \(bind: b)) OR (user_id = \(bind: b) AND friend_id = \(bind: a))
                """
            ).run()
        }
    }

    static func record(_ row: any ColumnReader) throws -> FriendRequestRecord {
        FriendRequestRecord(
            id: try row.string("id"), fromUserID: try row.string("from_user"), toUserID: try row.string("to_user"),
            status: FriendRequestStatus(rawValue: try row.string("status")) ?? .pending, createdAt: try row.date("created_at"))
    }
}
