import Foundation
import SQLKit

/// Web Push: the server's VAPID key pair (one for every instance on one database) and the
/// users' push subscriptions.
public protocol PushRepository: Sendable {
    /// The stored key pair; `candidate` is stored first when there is none. Two instances
    /// starting together both get the one that was stored first.
    func vapidKey(candidate: VAPIDKeyRecord) async throws -> VAPIDKeyRecord
    /// Stores a subscription, or renews the keys of the same endpoint (moving it to this user
    /// when another user had it). Returns nil when the user has `limit` other devices already.
    func subscribe(_ subscription: PushSubscriptionRecord, limit: Int) async throws -> PushSubscriptionRecord?
    /// False when the user has no subscription with that endpoint.
    func unsubscribe(userID: String, endpoint: String) async throws -> Bool
    /// The user's subscriptions, oldest first.
    func subscriptions(userID: String) async throws -> [PushSubscriptionRecord]
    func subscription(id: String) async throws -> PushSubscriptionRecord?
    /// Deletes a subscription the push service says is gone.
    func delete(id: String) async throws
}

struct SQLPushRepository: PushRepository {
    let database: DatabaseConnection
    static let columns = "id, user_id, endpoint, p256dh, auth, created_at, session_hash"

    func vapidKey(candidate: VAPIDKeyRecord) async throws -> VAPIDKeyRecord {
        if let stored = try await storedKey() { return stored }
        try await database.execute(
            """
            INSERT INTO push_vapid_keys (id, private_key, public_key, created_at)
            VALUES (1, \(bind: candidate.privateKey), \(bind: candidate.publicKey), \(bind: candidate.createdAt.millisecondsSince1970))
            ON CONFLICT (id) DO NOTHING
            """)
        guard let stored = try await storedKey() else { throw StoreError.invalidConfiguration("the VAPID key could not be stored") }
        return stored
    }

    private func storedKey() async throws -> VAPIDKeyRecord? {
        try await database.first("SELECT private_key, public_key, created_at FROM push_vapid_keys WHERE id = 1").map { row in
            VAPIDKeyRecord(privateKey: try row.string("private_key"), publicKey: try row.string("public_key"), createdAt: try row.date("created_at"))
        }
    }

    func subscribe(_ s: PushSubscriptionRecord, limit: Int) async throws -> PushSubscriptionRecord? {
        let endpoint = s.endpoint
        return try await database.transaction { sql -> PushSubscriptionRecord? in
            let others =
                try await sql.readFirst(
                    "SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = \(bind: s.userID) AND endpoint <> \(bind: endpoint)")?.int("n") ?? 0
            guard others < limit else { return nil }
            // Another user's subscription of this browser goes (its queued pushes with it: they
            // find no subscription); the same user's is renewed in place.
            try await sql.raw("DELETE FROM push_subscriptions WHERE endpoint = \(bind: endpoint) AND user_id <> \(bind: s.userID)").run()
            try await sql.raw(
                """
                INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, created_at, session_hash)
                VALUES (\(bind: s.id), \(bind: s.userID), \(bind: endpoint), \(bind: s.p256dh), \(bind: s.auth), \(bind: s.createdAt.millisecondsSince1970),
                    \(bind: s.sessionHash))
                ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
                    created_at = excluded.created_at, session_hash = excluded.session_hash
                """
            ).run()
            return try await sql.readFirst("SELECT \(unsafeRaw: Self.columns) FROM push_subscriptions WHERE endpoint = \(bind: endpoint)").map(Self.record)
        }
    }

    func unsubscribe(userID: String, endpoint: String) async throws -> Bool {
        try await database.transaction { sql in
            guard
                try await sql.readFirst("SELECT id FROM push_subscriptions WHERE user_id = \(bind: userID) AND endpoint = \(bind: endpoint)") != nil
            else { return false }
            try await sql.raw("DELETE FROM push_subscriptions WHERE user_id = \(bind: userID) AND endpoint = \(bind: endpoint)").run()
            return true
        }
    }

    func subscriptions(userID: String) async throws -> [PushSubscriptionRecord] {
        try await database.all(
            "SELECT \(unsafeRaw: Self.columns) FROM push_subscriptions WHERE user_id = \(bind: userID) ORDER BY created_at, id"
        ).map(Self.record)
    }

    func subscription(id: String) async throws -> PushSubscriptionRecord? {
        try await database.first("SELECT \(unsafeRaw: Self.columns) FROM push_subscriptions WHERE id = \(bind: id)").map(Self.record)
    }

    func delete(id: String) async throws {
        try await database.execute("DELETE FROM push_subscriptions WHERE id = \(bind: id)")
    }

    static func record(_ row: any ColumnReader) throws -> PushSubscriptionRecord {
        PushSubscriptionRecord(
            id: try row.string("id"), userID: try row.string("user_id"), endpoint: try row.string("endpoint"), p256dh: try row.string("p256dh"),
            auth: try row.string("auth"), createdAt: try row.date("created_at"), sessionHash: try row.optionalString("session_hash"))
    }
}
