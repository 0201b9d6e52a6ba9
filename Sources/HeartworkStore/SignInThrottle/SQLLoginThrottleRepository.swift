import Foundation
import SQLKit

struct SQLLoginThrottleRepository: LoginThrottleRepository {
    let database: DatabaseConnection

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

    func deleteFailures(before date: Date) async throws {
        try await database.execute("DELETE FROM login_failures WHERE failed_at < \(bind: date.millisecondsSince1970)")
    }
}
