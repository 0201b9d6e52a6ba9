import Foundation
import SQLKit

struct SQLSessionRepository: SessionRepository {
    let database: DatabaseConnection
    func create(_ session: SessionRecord) async throws {
        try await database.execute(
            """
            INSERT INTO sessions (token_hash, user_id, kind, csrf_token, created_at, expires_at, revoked_at)
            VALUES (\(bind: session.tokenHash), \(bind: session.userID), \(bind: session.kind.rawValue), \(bind: session.csrfToken),
                \(bind: session.createdAt.millisecondsSince1970), \(bind: session.expiresAt.millisecondsSince1970),
                \(bind: session.revokedAt?.millisecondsSince1970))
            """)
    }

    func find(tokenHash: String) async throws -> SessionRecord? {
        guard
            let row = try await database.first(
                """
                SELECT token_hash, user_id, kind, csrf_token, created_at, expires_at, revoked_at FROM sessions
                WHERE token_hash = \(bind: tokenHash)
                """)
        else { return nil }
        return try Self.session(row, createdColumn: "created_at")
    }

    func findWithUser(tokenHash: String) async throws -> (session: SessionRecord, user: UserRecord)? {
        guard
            let row = try await database.first(
                """
                SELECT s.token_hash, s.user_id, s.kind, s.csrf_token, s.created_at AS session_created_at, s.expires_at, s.revoked_at,
                    \(unsafeRaw: SQLUserRepository.columns)
                FROM sessions s JOIN users ON users.id = s.user_id
                WHERE s.token_hash = \(bind: tokenHash)
                """)
        else { return nil }
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
        try await database.execute(
            """
            UPDATE sessions SET revoked_at = \(bind: date.millisecondsSince1970)
            WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND token_hash <> \(bind: tokenHash ?? "")
            """)
    }

    func deleteExpired(before date: Date) async throws {
        try await database.execute("DELETE FROM sessions WHERE expires_at < \(bind: date.millisecondsSince1970)")
    }
}
