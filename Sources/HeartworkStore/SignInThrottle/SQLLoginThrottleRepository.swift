import Foundation
import SQLKit

struct SQLLoginThrottleRepository: LoginThrottleRepository {
    let database: DatabaseConnection

    func begin(
        attemptID: String, scopes: [String], since: Date, at date: Date,
        admit: @escaping @Sendable ([String: ThrottleHistory]) throws -> Void
    ) async throws {
        let engine = database.engine
        try await database.transaction { sql in
            // SQLite runs one writer at a time already; PostgreSQL serialises per scope (in a
            // fixed order, so two attempts never wait on each other's locks).
            if engine == .postgres {
                for scope in scopes.sorted() {
                    try await sql.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: scope)))").run()
                }
            }
            var histories = [String: ThrottleHistory]()
            for scope in scopes {
                histories[scope] = try await Self.history(sql, scope: scope, since: since)
            }
            try admit(histories)
            for (index, scope) in scopes.enumerated() {
                try await sql.raw(
                    """
                    INSERT INTO login_failures (id, scope, failed_at)
                    VALUES (\(bind: "\(attemptID):\(index)"), \(bind: scope), \(bind: date.millisecondsSince1970))
                    """
                ).run()
            }
        }
    }

    func forgive(attemptID: String, clearing scope: String) async throws {
        try await database.execute(
            """
            DELETE FROM login_failures WHERE scope = \(bind: scope) OR id LIKE \(bind: attemptID + ":%")
            """)
    }

    func history(scope: String, since date: Date) async throws -> ThrottleHistory {
        try await Self.history(database.sql, scope: scope, since: date)
    }

    private static func history(_ sql: any SQLDatabase, scope: String, since date: Date) async throws -> ThrottleHistory {
        guard
            let row = try await sql.readFirst(
                """
                SELECT COUNT(*) AS failures, MAX(failed_at) AS latest FROM login_failures
                WHERE scope = \(bind: scope) AND failed_at >= \(bind: date.millisecondsSince1970)
                """)
        else { return ThrottleHistory() }
        return ThrottleHistory(failures: try row.int("failures"), latest: try row.optionalDate("latest"))
    }

    func deleteFailures(before date: Date) async throws {
        try await database.execute("DELETE FROM login_failures WHERE failed_at < \(bind: date.millisecondsSince1970)")
    }
}
