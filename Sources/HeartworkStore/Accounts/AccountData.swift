import Foundation
import SQLKit

/// Where one user's data lives: every table of the schema, with the condition that finds the
/// user's rows in it. The account export dumps these rows, and account deletion removes them
/// (through the foreign keys' ON DELETE CASCADE from `users`, plus the few references that do
/// not cascade). A test checks that every table of the schema is named here, so a feature that
/// adds a table must say how its rows belong to a user, or that they belong to no one.
public enum AccountData {
    public struct Table: Sendable {
        public let name: String
        /// The SQL condition selecting the user's rows; `?USER` stands for the user's id.
        let condition: String
        /// Columns never exported: password and token hashes, secrets.
        let secret: Set<String>
        /// Columns left out because the archive carries them in a readable form (workout
        /// streams are exported as JSON and FIT files).
        let omitted: Set<String>

        init(_ name: String, _ condition: String = "user_id = ?USER", secret: Set<String> = [], omitted: Set<String> = []) {
            self.name = name
            self.condition = condition
            self.secret = secret
            self.omitted = omitted
        }
    }

    public static let tables: [Table] = [
        Table("users", "id = ?USER", secret: ["password_hash"]),
        Table("user_photos"),
        Table("measurements"),
        Table("weight_entries"),
        Table("resting_hr_entries"),
        Table("sessions", secret: ["token_hash", "csrf_token"]),
        Table("friend_requests", "from_user = ?USER OR to_user = ?USER"),
        Table("friendships", "user_id = ?USER OR friend_id = ?USER"),
        Table("workouts"),
        Table("workout_streams", "workout_id IN (SELECT id FROM workouts WHERE user_id = ?USER)", omitted: ["heart_rate", "rr", "track"]),
        Table("gateways", secret: ["token_hash"]),
        Table("sensors"),
        Table("sensor_blocks", "sensor_id IN (SELECT id FROM sensors WHERE user_id = ?USER)"),
        Table("sensor_pending", "sensor_id IN (SELECT id FROM sensors WHERE user_id = ?USER)"),
        Table("teams"),
        Table("players"),
        Table("player_photos", "player_id IN (SELECT id FROM players WHERE user_id = ?USER)"),
        Table("team_photos", "team_id IN (SELECT id FROM teams WHERE user_id = ?USER)"),
        Table("team_sessions"),
        Table("team_session_players", "session_id IN (SELECT id FROM team_sessions WHERE user_id = ?USER)"),
        Table("matches", "challenger_id = ?USER OR opponent_id = ?USER OR ghost_owner_id = ?USER"),
        Table("user_notifications"),
        Table("strength_settings", secret: ["webhook_secret"]),
        Table("strength_routines"),
        Table("exercise_stats"),
        Table("strength_custom_exercises"),
        Table("strength_sessions"),
        Table("strength_sets", "session_id IN (SELECT id FROM strength_sessions WHERE user_id = ?USER)"),
        Table("strength_baselines", "session_id IN (SELECT id FROM strength_sessions WHERE user_id = ?USER)"),
        Table("webhook_deliveries"),
        Table("health_blocks"),
        Table("health_imports", secret: ["file_path"]),
        Table("day_metrics"),
        Table("day_marks"),
        Table("health_settings"),
        Table("health_alerts"),
        Table("jobs", secret: ["payload", "locked_by"]),
        Table("recordings"),
        Table("recording_chunks", "recording_id IN (SELECT id FROM recordings WHERE user_id = ?USER)"),
        Table("sync_tokens", secret: ["token_hash"]),
        Table("sync_arrivals"),
        Table("synced_workouts"),
        Table("push_subscriptions", secret: ["p256dh", "auth", "session_hash"]),
    ]

    /// Tables that hold nothing of any one user: the schema's own bookkeeping, and sign-in
    /// throttling (failed attempts by name and address, kept 15 minutes; removed with the
    /// account, see `deleteAccount`, but not exported: it is security data, not the user's),
    /// and the live feed's log (`sensor_log`, SQLite: each row the readings of one group commit,
    /// of many users, minutes old at most; the archive flushes it into `sensor_blocks` first,
    /// and a deleted account's readings in it are dropped when it is folded).
    public static let impersonal: Set<String> = ["schema_migrations", "login_failures", "sensor_log", "push_vapid_keys"]

    /// A column's value as the export writes it.
    public enum Value: Sendable, Hashable, Encodable {
        case null
        case integer(Int64)
        case double(Double)
        case text(String)
        case bool(Bool)
        /// Base64 in JSON.
        case bytes(Data)

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .integer(let value): try container.encode(value)
            case .double(let value): value.isFinite ? try container.encode(value) : try container.encodeNil()
            case .text(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            case .bytes(let value): try container.encode(value.base64EncodedString())
            }
        }
    }

    public typealias Row = [String: Value]

    enum ColumnKind { case integer, double, text, bool, bytes }

    static func kind(ofDeclaredType type: String) -> ColumnKind {
        let type = type.lowercased()
        if type.contains("int") { return .integer }
        if type.contains("double") || type.contains("real") || type.contains("float") || type.contains("numeric") { return .double }
        if type.contains("blob") || type.contains("bytea") { return .bytes }
        if type.contains("bool") { return .bool }
        return .text
    }

    /// The condition with the user's id bound wherever `?USER` stands.
    static func query(_ prefix: String, _ condition: String, userID: String) -> SQLQueryString {
        var query = SQLQueryString(stringLiteral: prefix)
        let parts = condition.components(separatedBy: "?USER")
        for (index, part) in parts.enumerated() {
            query.appendLiteral(part)
            if index < parts.count - 1 { query.appendInterpolation(bind: userID) }
        }
        return query
    }
}

extension HeartworkStore {
    /// Every table of the schema (for the deletion check and the registry's test).
    public func tableNames() async throws -> [String] {
        let rows: [any ColumnReader] =
            switch database.engine {
            case .sqlite:
                try await database.sql.readAll("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            case .postgres:
                try await database.sql.readAll(
                    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name")
            }
        return try rows.map { try $0.string("name") }
    }

    /// A table's columns and their declared types, in the table's order.
    public func columns(of table: String) async throws -> [(name: String, type: String)] {
        guard table.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { throw StoreError.corruptData("bad table name \(table)") }
        let rows: [any ColumnReader] =
            switch database.engine {
            case .sqlite:
                try await database.sql.readAll("SELECT name, type FROM pragma_table_info(\(bind: table)) ORDER BY cid")
            case .postgres:
                try await database.sql.readAll(
                    "SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = \(bind: table) ORDER BY ordinal_position"
                )
            }
        return try rows.map { (try $0.string("name"), try $0.string("type")) }
    }

    /// The user's rows of one table, secrets and omitted columns left out, in a stable order.
    public func accountRows(_ table: AccountData.Table, userID: String) async throws -> [AccountData.Row] {
        let columns = try await columns(of: table.name).filter { !table.secret.contains($0.name) && !table.omitted.contains($0.name) }
        guard !columns.isEmpty else { return [] }
        let list = columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        var query = AccountData.query("SELECT \(list) FROM \(table.name) WHERE ", table.condition, userID: userID)
        query.appendLiteral(" ORDER BY \(columns.map { "\"\($0.name)\"" }.prefix(1).joined())")
        let rows = try await database.sql.raw(query).all()
        return try rows.map { row in
            var values = AccountData.Row()
            for column in columns {
                if try row.decodeNil(column: column.name) {
                    values[column.name] = .null
                    continue
                }
                values[column.name] =
                    switch AccountData.kind(ofDeclaredType: column.type) {
                    case .integer: .integer(try row.decode(column: column.name, as: Int64.self))
                    case .double: .double(try row.decode(column: column.name, as: Double.self))
                    case .text: .text(try row.decode(column: column.name, as: String.self))
                    case .bool:
                        database.engine == .postgres
                            ? .bool(try row.decode(column: column.name, as: Bool.self))
                            : .integer(try row.decode(column: column.name, as: Int64.self))
                    case .bytes: .bytes(try row.decode(column: column.name, as: Data.self))
                    }
            }
            return values
        }
    }

    /// Removes the user and everything of theirs in one transaction: their rows go with the
    /// `users` row through ON DELETE CASCADE (friendships, requests and matches with others
    /// included); notifications that name them as the actor and their sign-in throttling rows
    /// are removed here, as they do not reference `users`. Returns false for an unknown user.
    public func deleteAccount(userID: String, username: String) async throws -> Bool {
        let pattern =
            "pair:"
            + username.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "|%"
        let postgres = database.engine == .postgres
        let deleted = try await database.transaction { sql in
            try await sql.raw("DELETE FROM user_notifications WHERE actor_id = \(bind: userID)").run()
            try await sql.raw("DELETE FROM login_failures WHERE scope LIKE \(bind: pattern) ESCAPE '\\'").run()
            let found = try await sql.raw("SELECT id FROM users WHERE id = \(bind: userID)").first() != nil
            if postgres {
                // The live feed's pending rows (migration 35) have no foreign key: the account's
                // gateways are locked first (a store in progress holds them FOR SHARE until it
                // commits; later ones find them gone), then its sensors' rows go.
                _ = try await sql.raw("SELECT id FROM gateways WHERE user_id = \(bind: userID) FOR UPDATE").all()
                try await sql.raw("DELETE FROM sensor_pending WHERE sensor_id IN (SELECT id FROM sensors WHERE user_id = \(bind: userID))").run()
            }
            try await sql.raw("DELETE FROM users WHERE id = \(bind: userID)").run()
            return found
        }
        workouts.forget(userID: userID)
        try await sensors.forget(userID: userID)
        return deleted
    }

    /// Rows of `table` whose `column` contains `text` (the deletion check; any column, any table).
    public func count(table: String, column: String, containing text: String) async throws -> Int {
        try await count(table: table, column: column, condition: "LIKE", likePattern(containing: text))
    }

    /// Rows of `table` whose `column` is exactly `text`.
    public func count(table: String, column: String, equalTo text: String) async throws -> Int {
        try await count(table: table, column: column, condition: "=", text)
    }

    private func count(table: String, column: String, condition: String, _ value: String) async throws -> Int {
        guard (table + column).allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { throw StoreError.corruptData("bad name \(table).\(column)") }
        let target = condition == "LIKE" ? "LOWER(CAST(\"\(column)\" AS TEXT))" : "CAST(\"\(column)\" AS TEXT)"
        var query = SQLQueryString(stringLiteral: "SELECT COUNT(*) AS n FROM \(table) WHERE \(target) \(condition) ")
        query.appendInterpolation(bind: value)
        if condition == "LIKE" { query.appendLiteral(" ESCAPE '\\'") }
        return try await database.sql.readFirst(query)?.int("n") ?? 0
    }
}
