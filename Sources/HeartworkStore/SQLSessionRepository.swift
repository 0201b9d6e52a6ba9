import Foundation
import SQLKit

struct SQLSessionRepository: SessionRepository {
    let database: DatabaseConnection
    private var sql: any SQLDatabase { database.sql }

    func create(_ session: SessionRecord) async throws {
        try await database.execute("""
            INSERT INTO sessions (token_hash, user_id, kind, csrf_token, created_at, expires_at, revoked_at)
            VALUES (\(bind: session.tokenHash), \(bind: session.userID), \(bind: session.kind.rawValue), \(bind: session.csrfToken),
                \(bind: session.createdAt.millisecondsSince1970), \(bind: session.expiresAt.millisecondsSince1970),
                \(bind: session.revokedAt?.millisecondsSince1970))
            """)
    }

    func find(tokenHash: String) async throws -> SessionRecord? {
        guard let row = try await database.first("""
            SELECT token_hash, user_id, kind, csrf_token, created_at, expires_at, revoked_at FROM sessions
            WHERE token_hash = \(bind: tokenHash)
            """) else { return nil }
        return try Self.session(row, createdColumn: "created_at")
    }

    func findWithUser(tokenHash: String) async throws -> (session: SessionRecord, user: UserRecord)? {
        guard let row = try await database.first("""
            SELECT s.token_hash, s.user_id, s.kind, s.csrf_token, s.created_at AS session_created_at, s.expires_at, s.revoked_at,
                u.id, u.username, u.full_name, u.email, u.password_hash, u.status, u.date_of_birth, u.sex, u.height_m,
                u.max_hr_method, u.measured_max_hr, u.units, u.auto_share, u.max_shared_workouts, u.created_at,
                (SELECT COUNT(*) FROM user_photos p WHERE p.user_id = u.id) AS photo_count
            FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.token_hash = \(bind: tokenHash)
            """) else { return nil }
        return (try Self.session(row, createdColumn: "session_created_at"), try SQLUserRepository.record(row))
    }

    /// `createdColumn` differs where the row also carries the user's own created_at.
    private static func session(_ row: any ColumnReader, createdColumn: String) throws -> SessionRecord {
        SessionRecord(
            tokenHash: try row.string("token_hash"), userID: try row.string("user_id"),
            kind: SessionKind(rawValue: try row.string("kind")) ?? .api, csrfToken: try row.optionalString("csrf_token"),
            createdAt: try row.date(createdColumn), expiresAt: try row.date("expires_at"), revokedAt: try row.optionalDate("revoked_at"))
    }

    func revoke(tokenHash: String, at date: Date) async throws {
        try await database.execute("UPDATE sessions SET revoked_at = \(bind: date.millisecondsSince1970) WHERE token_hash = \(bind: tokenHash) AND revoked_at IS NULL")
    }

    func revokeAll(userID: String, keeping tokenHash: String?, at date: Date) async throws {
        try await database.execute("""
            UPDATE sessions SET revoked_at = \(bind: date.millisecondsSince1970)
            WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND token_hash <> \(bind: tokenHash ?? "")
            """)
    }

    func deleteExpired(before date: Date) async throws {
        try await database.execute("DELETE FROM sessions WHERE expires_at < \(bind: date.millisecondsSince1970)")
    }
}

struct SQLLoginThrottleRepository: LoginThrottleRepository {
    let database: DatabaseConnection
    private var sql: any SQLDatabase { database.sql }

    func recordFailure(scope: String, at date: Date) async throws {
        try await database.execute("""
            INSERT INTO login_failures (id, scope, failed_at) VALUES (\(bind: UUID().uuidString), \(bind: scope), \(bind: date.millisecondsSince1970))
            """)
    }

    func failures(scope: String, since date: Date) async throws -> Int {
        let row = try await database.first("""
            SELECT COUNT(*) AS failures FROM login_failures WHERE scope = \(bind: scope) AND failed_at >= \(bind: date.millisecondsSince1970)
            """)
        return try row?.int("failures") ?? 0
    }

    func clear(scope: String) async throws {
        try await database.execute("DELETE FROM login_failures WHERE scope = \(bind: scope)")
    }
}
