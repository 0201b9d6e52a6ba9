import Foundation

/// Phone sync: a user's sync tokens (found by hash), the syncs that arrived, and the workouts
/// a phone app sent by the app's own id.
public protocol SyncRepository: Sendable {
    /// Stores a token unless the user has `limit` already (`StoreError.limitReached`),
    /// counted in the same transaction.
    func createToken(_ token: SyncTokenRecord, limit: Int) async throws
    /// The user's tokens, oldest first.
    func tokens(userID: String) async throws -> [SyncTokenRecord]
    func token(tokenHash: String) async throws -> SyncTokenRecord?
    /// Deletes a token. False when the user has no such token.
    func deleteToken(id: String, userID: String) async throws -> Bool
    func touchToken(id: String, at: Date) async throws
    /// Records a sync; keeps the user's newest `keep`.
    func addArrival(_ arrival: SyncArrivalRecord, keep: Int) async throws
    /// The user's newest syncs, newest first.
    func arrivals(userID: String, limit: Int) async throws -> [SyncArrivalRecord]
    /// The workout a phone app's id became (nil: never sent; "": sent, and the same workout was already stored).
    func syncedWorkout(userID: String, source: String, externalID: String) async throws -> String?
    func recordSyncedWorkout(userID: String, source: String, externalID: String, workoutID: String?, at: Date) async throws
}

struct SQLSyncRepository: SyncRepository {
    let database: DatabaseConnection
    static let tokenColumns = "id, user_id, name, token_hash, created_at, last_used_at"
    static let arrivalColumns = "id, user_id, token_name, source, received_at, samples_added, samples_already, workouts_added, left_out, newest_sample_at"

    func createToken(_ token: SyncTokenRecord, limit: Int) async throws {
        try await database.cappedInsert(userID: token.userID, limit: limit, counting: "SELECT id FROM sync_tokens WHERE user_id = \(bind: token.userID)") { sql in
            try await sql.raw(
                """
                INSERT INTO sync_tokens (id, user_id, name, token_hash, created_at, last_used_at)
                VALUES (\(bind: token.id), \(bind: token.userID), \(bind: token.name), \(bind: token.tokenHash),
                    \(bind: token.createdAt.millisecondsSince1970), \(bind: token.lastUsedAt?.millisecondsSince1970))
                """
            ).run()
        }
    }

    func tokens(userID: String) async throws -> [SyncTokenRecord] {
        try await database.all(
            "SELECT \(unsafeRaw: Self.tokenColumns) FROM sync_tokens WHERE user_id = \(bind: userID) ORDER BY created_at, id"
        ).map(Self.token)
    }

    func token(tokenHash: String) async throws -> SyncTokenRecord? {
        try await database.first("SELECT \(unsafeRaw: Self.tokenColumns) FROM sync_tokens WHERE token_hash = \(bind: tokenHash)").map(Self.token)
    }

    func deleteToken(id: String, userID: String) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM sync_tokens WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            try await sql.raw("DELETE FROM sync_tokens WHERE id = \(bind: id)").run()
            return true
        }
    }

    func touchToken(id: String, at date: Date) async throws {
        try await database.execute("UPDATE sync_tokens SET last_used_at = \(bind: date.millisecondsSince1970) WHERE id = \(bind: id)")
    }

    func addArrival(_ a: SyncArrivalRecord, keep: Int) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                INSERT INTO sync_arrivals (\(unsafeRaw: Self.arrivalColumns))
                VALUES (\(bind: a.id), \(bind: a.userID), \(bind: a.tokenName), \(bind: a.source), \(bind: a.receivedAt.millisecondsSince1970),
                    \(bind: a.samplesAdded), \(bind: a.samplesAlready), \(bind: a.workoutsAdded), \(bind: a.leftOut),
                    \(bind: a.newestSampleAt?.millisecondsSince1970))
                """
            ).run()
            try await sql.raw(
                """
                DELETE FROM sync_arrivals WHERE user_id = \(bind: a.userID) AND id NOT IN (
                    SELECT id FROM sync_arrivals WHERE user_id = \(bind: a.userID) ORDER BY received_at DESC, id DESC LIMIT \(bind: keep))
                """
            ).run()
        }
    }

    func arrivals(userID: String, limit: Int) async throws -> [SyncArrivalRecord] {
        try await database.all(
            """
            SELECT \(unsafeRaw: Self.arrivalColumns) FROM sync_arrivals WHERE user_id = \(bind: userID)
            ORDER BY received_at DESC, id DESC LIMIT \(bind: limit)
            """
        ).map { row in
            SyncArrivalRecord(
                id: try row.string("id"), userID: try row.string("user_id"), tokenName: try row.string("token_name"),
                source: try row.string("source"), receivedAt: try row.date("received_at"), samplesAdded: try row.int("samples_added"),
                samplesAlready: try row.int("samples_already"), workoutsAdded: try row.int("workouts_added"), leftOut: try row.int("left_out"),
                newestSampleAt: try row.optionalDate("newest_sample_at"))
        }
    }

    func syncedWorkout(userID: String, source: String, externalID: String) async throws -> String? {
        guard
            let row = try await database.first(
                """
                SELECT workout_id FROM synced_workouts WHERE user_id = \(bind: userID) AND source = \(bind: source) AND external_id = \(bind: externalID)
                """)
        else { return nil }
        return try row.optionalString("workout_id") ?? ""
    }

    func recordSyncedWorkout(userID: String, source: String, externalID: String, workoutID: String?, at date: Date) async throws {
        try await database.execute(
            """
            INSERT INTO synced_workouts (user_id, source, external_id, workout_id, created_at)
            VALUES (\(bind: userID), \(bind: source), \(bind: externalID), \(bind: workoutID), \(bind: date.millisecondsSince1970))
            ON CONFLICT (user_id, source, external_id) DO UPDATE SET workout_id = excluded.workout_id
            """)
    }

    static func token(_ row: any ColumnReader) throws -> SyncTokenRecord {
        SyncTokenRecord(
            id: try row.string("id"), userID: try row.string("user_id"), name: try row.string("name"), tokenHash: try row.string("token_hash"),
            createdAt: try row.date("created_at"), lastUsedAt: try row.optionalDate("last_used_at"))
    }
}
