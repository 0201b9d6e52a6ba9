import Foundation
import HeartworkCore
import SQLKit

struct SQLRecordingRepository: RecordingRepository {
    let database: DatabaseConnection

    static let columns = """
        r.id, r.user_id, r.sport, r.indoor, r.started_at, r.created_at, r.updated_at, r.workout_id, r.ended_at, r.paused_seconds,
        (SELECT COUNT(*) FROM recording_chunks c WHERE c.recording_id = r.id) AS chunk_count,
        COALESCE(r.samples, (SELECT COALESCE(SUM(c.samples), 0) FROM recording_chunks c WHERE c.recording_id = r.id)) AS sample_count,
        r.chunks AS finished_chunks
        """

    func create(_ recording: RecordingRecord, unfinishedLimit: Int) async throws -> Bool {
        let lock: SQLQueryString = database.engine == .postgres ? " FOR UPDATE" : ""
        return try await database.transaction { sql in
            if try await sql.readFirst("SELECT id FROM recordings WHERE id = \(bind: recording.id)") != nil { return false }
            // The owner's row first, so two starts at once cannot both pass the count.
            guard try await sql.readFirst("SELECT id FROM users WHERE id = \(bind: recording.userID)\(lock)") != nil else { throw StoreError.notFound("user") }
            let open =
                try await sql.readFirst("SELECT COUNT(*) AS n FROM recordings WHERE user_id = \(bind: recording.userID) AND workout_id IS NULL").map {
                    try $0.int("n")
                } ?? 0
            guard open < unfinishedLimit else { throw StoreError.limitReached(unfinishedLimit) }
            try await sql.raw(
                """
                INSERT INTO recordings (id, user_id, sport, indoor, started_at, created_at, updated_at)
                VALUES (\(bind: recording.id), \(bind: recording.userID), \(bind: recording.sport.rawValue), \(bind: recording.indoor ? 1 : 0),
                    \(bind: recording.startedAt.millisecondsSince1970), \(bind: recording.createdAt.millisecondsSince1970),
                    \(bind: recording.updatedAt.millisecondsSince1970))
                """
            ).run()
            return true
        }
    }

    func ownerID(of id: String) async throws -> String? {
        try await database.first("SELECT user_id FROM recordings WHERE id = \(bind: id)").map { try $0.string("user_id") }
    }

    func find(id: String, userID: String) async throws -> RecordingRecord? {
        try await database.first(
            "SELECT \(unsafeRaw: Self.columns) FROM recordings r WHERE r.id = \(bind: id) AND r.user_id = \(bind: userID)"
        ).map(Self.record)
    }

    func unfinished(userID: String, limit: Int) async throws -> [RecordingRecord] {
        try await database.all(
            """
            SELECT \(unsafeRaw: Self.columns) FROM recordings r WHERE r.user_id = \(bind: userID) AND r.workout_id IS NULL
            ORDER BY r.started_at DESC, r.id LIMIT \(bind: limit)
            """
        ).map(Self.record)
    }

    func storeChunk(recordingID: String, _ chunk: RecordingChunkRecord, sampleLimit: Int, now: Date) async throws -> RecordingChunkOutcome {
        let lock: SQLQueryString = database.engine == .postgres ? " FOR UPDATE" : ""
        return try await database.transaction { sql in
            // Checked under the recording's row lock, in the transaction that inserts: a chunk
            // never lands once a finish has begun (`close` takes the same lock), so every chunk
            // answered "stored" is one the finish reads (issue 40: 82 of 82 chunks sent during
            // a finish were answered 201 and lost).
            guard let recording = try await sql.readFirst("SELECT closing_at FROM recordings WHERE id = \(bind: recordingID) AND workout_id IS NULL\(lock)")
            else {
                return .finished
            }
            if let existing = try await sql.readFirst(
                "SELECT body FROM recording_chunks WHERE recording_id = \(bind: recordingID) AND n = \(bind: chunk.number)")
            {
                return try existing.string("body") == chunk.body ? .alreadyStored : .different
            }
            if try recording.optionalInt("closing_at") != nil { return .closing }
            let samples =
                try await sql.readFirst("SELECT COALESCE(SUM(samples), 0) AS n FROM recording_chunks WHERE recording_id = \(bind: recordingID)").map {
                    try $0.int("n")
                } ?? 0
            guard samples + chunk.sampleCount <= sampleLimit else { return .tooManySamples }
            try await sql.raw(
                """
                INSERT INTO recording_chunks (recording_id, n, body, samples)
                VALUES (\(bind: recordingID), \(bind: chunk.number), \(bind: chunk.body), \(bind: chunk.sampleCount))
                """
            ).run()
            try await sql.raw("UPDATE recordings SET updated_at = \(bind: now.millisecondsSince1970) WHERE id = \(bind: recordingID)").run()
            return .stored
        }
    }

    func close(id: String, at: Date) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM recordings WHERE id = \(bind: id) AND workout_id IS NULL") != nil else { return false }
            try await sql.raw("UPDATE recordings SET closing_at = \(bind: at.millisecondsSince1970) WHERE id = \(bind: id)").run()
            return true
        }
    }

    func reopen(id: String) async throws {
        try await database.execute("UPDATE recordings SET closing_at = NULL WHERE id = \(bind: id) AND workout_id IS NULL")
    }

    func chunks(recordingID: String) async throws -> [RecordingChunkRecord] {
        try await database.all("SELECT n, body, samples FROM recording_chunks WHERE recording_id = \(bind: recordingID) ORDER BY n").map { row in
            RecordingChunkRecord(number: try row.int("n"), body: try row.string("body"), sampleCount: try row.int("samples"))
        }
    }

    func finish(id: String, workoutID: String, endedAt: Date, pausedSeconds: Int) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM recordings WHERE id = \(bind: id) AND workout_id IS NULL") != nil else { return false }
            try await sql.raw(
                """
                UPDATE recordings SET workout_id = \(bind: workoutID), ended_at = \(bind: endedAt.millisecondsSince1970),
                    paused_seconds = \(bind: pausedSeconds),
                    samples = (SELECT COALESCE(SUM(c.samples), 0) FROM recording_chunks c WHERE c.recording_id = \(bind: id)),
                    chunks = (SELECT COUNT(*) FROM recording_chunks c WHERE c.recording_id = \(bind: id))
                WHERE id = \(bind: id)
                """
            ).run()
            // The samples live on in the workout's streams.
            try await sql.raw("DELETE FROM recording_chunks WHERE recording_id = \(bind: id)").run()
            return true
        }
    }

    func delete(id: String, userID: String) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM recordings WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            try await sql.raw("DELETE FROM recording_chunks WHERE recording_id = \(bind: id)").run()
            try await sql.raw("DELETE FROM recordings WHERE id = \(bind: id)").run()
            return true
        }
    }

    static func record(_ row: any ColumnReader) throws -> RecordingRecord {
        let sportName = try row.string("sport")
        guard let sport = Sport(rawValue: sportName) else { throw StoreError.corruptData("unknown sport '\(sportName)'") }
        return RecordingRecord(
            id: try row.string("id"), userID: try row.string("user_id"), sport: sport, indoor: try row.bool("indoor"), startedAt: try row.date("started_at"),
            createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"),
            chunkCount: try row.optionalInt("finished_chunks") ?? row.int("chunk_count"),
            sampleCount: try row.int("sample_count"), workoutID: try row.optionalString("workout_id"), endedAt: try row.optionalDate("ended_at"),
            pausedSeconds: try row.optionalInt("paused_seconds"))
    }
}
