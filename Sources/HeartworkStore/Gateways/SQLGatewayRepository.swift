import Foundation
import SQLKit

struct SQLGatewayRepository: GatewayRepository {
    let database: DatabaseConnection
    static let columns = "id, user_id, name, token_hash, created_at, last_seen_at"

    func create(_ gateway: GatewayRecord, limit: Int) async throws {
        try await database.cappedInsert(userID: gateway.userID, limit: limit, counting: "SELECT id FROM gateways WHERE user_id = \(bind: gateway.userID)") { sql in
            try await sql.raw(
                """
                INSERT INTO gateways (id, user_id, name, token_hash, created_at, last_seen_at)
                VALUES (\(bind: gateway.id), \(bind: gateway.userID), \(bind: gateway.name), \(bind: gateway.tokenHash),
                    \(bind: gateway.createdAt.millisecondsSince1970), \(bind: gateway.lastSeenAt?.millisecondsSince1970))
                """
            ).run()
        }
    }

    func list(userID: String) async throws -> [GatewayRecord] {
        try await database.all(
            """
            SELECT \(unsafeRaw: Self.columns) FROM gateways WHERE user_id = \(bind: userID) ORDER BY created_at, id
            """
        ).map(Self.record)
    }

    func find(id: String, userID: String) async throws -> GatewayRecord? {
        try await database.first(
            """
            SELECT \(unsafeRaw: Self.columns) FROM gateways WHERE id = \(bind: id) AND user_id = \(bind: userID)
            """
        ).map(Self.record)
    }

    func find(tokenHash: String) async throws -> GatewayRecord? {
        try await database.first("SELECT \(unsafeRaw: Self.columns) FROM gateways WHERE token_hash = \(bind: tokenHash)").map(Self.record)
    }

    func rename(id: String, userID: String, to name: String) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM gateways WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            try await sql.raw("UPDATE gateways SET name = \(bind: name) WHERE id = \(bind: id)").run()
            return true
        }
    }

    func delete(id: String, userID: String) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM gateways WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            try await sql.raw("DELETE FROM gateways WHERE id = \(bind: id)").run()
            return true
        }
    }

    func touch(id: String, at date: Date) async throws {
        try await database.execute("UPDATE gateways SET last_seen_at = \(bind: date.millisecondsSince1970) WHERE id = \(bind: id)")
    }

    static func record(_ row: any ColumnReader) throws -> GatewayRecord {
        GatewayRecord(
            id: try row.string("id"), userID: try row.string("user_id"), name: try row.string("name"),
            tokenHash: try row.string("token_hash"), createdAt: try row.date("created_at"),
            lastSeenAt: try row.optionalDate("last_seen_at"))
    }
}
