import Foundation
import SQLKit

struct SQLMatchRepository: MatchRepository {
    let database: DatabaseConnection
    static let columns = """
        id, kind, challenger_id, opponent_id, ghost_workout_id, ghost_owner_id, duration_seconds, state, created_at, expires_at,
        started_at, ended_at, a_resting_hr, a_max_hr, b_resting_hr, b_max_hr, score_a, score_b, winner, end_reason, forfeited_by,
        seconds_played, zones_a, zones_b, heart_rate_a, heart_rate_b, workout_a, workout_b, practice, sources_a, sources_b, implausible_a, implausible_b
        """

    func create(_ match: MatchRecord) async throws {
        try await database.execute(Self.insert(match))
    }

    func invite(_ match: MatchRecord, bySender: Int, toReceiver: Int, now: Date) async throws {
        let lock: SQLQueryString = database.engine == .postgres ? " FOR UPDATE" : ""
        let challenger = match.challengerID
        let opponent = match.opponentID ?? ""
        try await database.transaction { sql in
            // Both players' rows, in id order (two invitations between the same two people at
            // once lock them in the same order).
            for id in [challenger, opponent].sorted() {
                guard try await sql.readFirst("SELECT id FROM users WHERE id = \(bind: id)\(lock)") != nil else { throw StoreError.notFound("user") }
            }
            let open: SQLQueryString = "state = 'invited' AND expires_at > \(bind: now.millisecondsSince1970)"
            let sent = try await sql.readFirst("SELECT COUNT(*) AS n FROM matches WHERE challenger_id = \(bind: challenger) AND \(open)").map { try $0.int("n") } ?? 0
            guard sent < bySender else { throw StoreError.limitReached(bySender) }
            let received = try await sql.readFirst("SELECT COUNT(*) AS n FROM matches WHERE opponent_id = \(bind: opponent) AND \(open)").map { try $0.int("n") } ?? 0
            guard received < toReceiver else { throw StoreError.limitReached(toReceiver) }
            try await sql.raw(Self.insert(match)).run()
        }
    }

    static func insert(_ match: MatchRecord) -> SQLQueryString {
        """
        INSERT INTO matches (id, kind, challenger_id, opponent_id, ghost_workout_id, ghost_owner_id, duration_seconds, state,
            created_at, expires_at, a_resting_hr, a_max_hr, b_resting_hr, b_max_hr, practice)
        VALUES (\(bind: match.id), \(bind: match.kind.rawValue), \(bind: match.challengerID), \(bind: match.opponentID),
            \(bind: match.ghostWorkoutID), \(bind: match.ghostOwnerID), \(bind: match.durationSeconds), \(bind: match.state.rawValue),
            \(bind: match.createdAt.millisecondsSince1970), \(bind: match.expiresAt.millisecondsSince1970),
            \(bind: match.anchorsA?.restingHeartRate), \(bind: match.anchorsA?.maximumHeartRate),
            \(bind: match.anchorsB?.restingHeartRate), \(bind: match.anchorsB?.maximumHeartRate), \(bind: match.practice ? 1 : 0))
        """
    }

    func find(id: String) async throws -> MatchRecord? {
        try await database.first("SELECT \(unsafeRaw: Self.columns) FROM matches WHERE id = \(bind: id)").map(Self.match)
    }

    func list(userID: String, limit: Int, offset: Int) async throws -> [MatchRecord] {
        try await database.all(
            """
            SELECT \(unsafeRaw: Self.columns) FROM matches
            WHERE challenger_id = \(bind: userID) OR opponent_id = \(bind: userID) OR ghost_owner_id = \(bind: userID)
            ORDER BY created_at DESC, id LIMIT \(bind: limit) OFFSET \(bind: offset)
            """
        ).map(Self.match)
    }

    func transition(
        id: String, from: [MatchState], to: MatchState, expiresAt: Date?, startedAt: Date?,
        anchorsA: MatchAnchors?, anchorsB: MatchAnchors?
    ) async throws -> Bool {
        try await database.transaction { sql in
            guard let row = try await sql.readFirst("SELECT state FROM matches WHERE id = \(bind: id)"),
                let state = MatchState(rawValue: try row.string("state")), from.contains(state)
            else { return false }
            var sets: [SQLQueryString] = ["state = \(bind: to.rawValue)"]
            if let expiresAt { sets.append("expires_at = \(bind: expiresAt.millisecondsSince1970)") }
            if let startedAt { sets.append("started_at = \(bind: startedAt.millisecondsSince1970)") }
            if let anchorsA { sets.append("a_resting_hr = \(bind: anchorsA.restingHeartRate), a_max_hr = \(bind: anchorsA.maximumHeartRate)") }
            if let anchorsB { sets.append("b_resting_hr = \(bind: anchorsB.restingHeartRate), b_max_hr = \(bind: anchorsB.maximumHeartRate)") }
            if to.isOver { sets.append("ended_at = \(bind: Date().millisecondsSince1970)") }
            try await sql.raw("UPDATE matches SET \(sets.joined(separator: ", ")) WHERE id = \(bind: id)").run()
            return true
        }
    }

    func finish(id: String, result: MatchResultRecord, at: Date) async throws -> Bool {
        try await database.transaction { sql in
            guard let row = try await sql.readFirst("SELECT state FROM matches WHERE id = \(bind: id)"),
                try row.string("state") == MatchState.running.rawValue
            else { return false }
            try await sql.raw(
                """
                UPDATE matches SET state = \(bind: MatchState.finished.rawValue), ended_at = \(bind: at.millisecondsSince1970),
                    score_a = \(bind: result.scoreA), score_b = \(bind: result.scoreB), winner = \(bind: result.winner),
                    end_reason = \(bind: result.reason), forfeited_by = \(bind: result.forfeitedBy), seconds_played = \(bind: result.secondsPlayed),
                    zones_a = \(bind: result.zonesA.map(String.init).joined(separator: ",")),
                    zones_b = \(bind: result.zonesB.map(String.init).joined(separator: ",")),
                    heart_rate_a = \(bind: Self.text(result.heartRateA)), heart_rate_b = \(bind: Self.text(result.heartRateB)),
                    sources_a = \(bind: result.sourcesA.map(\.rawValue).joined(separator: ",")),
                    sources_b = \(bind: result.sourcesB.map(\.rawValue).joined(separator: ",")),
                    implausible_a = \(bind: result.implausibleSecondsA), implausible_b = \(bind: result.implausibleSecondsB)
                WHERE id = \(bind: id)
                """
            ).run()
            return true
        }
    }

    func setWorkout(id: String, side: String, workoutID: String) async throws -> Bool {
        let column = side == "a" ? "workout_a" : "workout_b"
        return try await database.transaction { sql in
            guard let row = try await sql.readFirst("SELECT \(unsafeRaw: column) AS saved FROM matches WHERE id = \(bind: id)"),
                try row.optionalString("saved") == nil
            else { return false }
            try await sql.raw("UPDATE matches SET \(unsafeRaw: column) = \(bind: workoutID) WHERE id = \(bind: id)").run()
            return true
        }
    }

    func find(workoutID: String) async throws -> MatchRecord? {
        try await database.first("SELECT \(unsafeRaw: Self.columns) FROM matches WHERE workout_a = \(bind: workoutID) OR workout_b = \(bind: workoutID)")
            .map(Self.match)
    }

    static func text(_ series: [Int?]) -> String {
        series.map { $0.map(String.init) ?? "" }.joined(separator: ",")
    }

    static func series(_ text: String?) -> [Int?] {
        guard let text, !text.isEmpty else { return [] }
        return text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
    }

    func claimHost(id: String, instance: String, until: Date, now: Date) async throws -> String? {
        let lock = database.engine == .postgres ? " FOR UPDATE" : ""
        return try await database.transaction { sql -> String? in
            guard let row = try await sql.readFirst("SELECT host, host_until FROM matches WHERE id = \(bind: id)\(unsafeRaw: lock)") else { return nil }
            let host = try row.optionalString("host")
            let lease = try row.optionalInt64("host_until") ?? 0
            guard host == nil || host == instance || lease < now.millisecondsSince1970 else { return host }
            try await sql.raw("UPDATE matches SET host = \(bind: instance), host_until = \(bind: until.millisecondsSince1970) WHERE id = \(bind: id)").run()
            return instance
        }
    }

    func releaseHost(id: String, instance: String) async throws {
        try await database.execute("UPDATE matches SET host = NULL, host_until = NULL WHERE id = \(bind: id) AND host = \(bind: instance)")
    }

    func abandonRunning(id: String, at: Date) async throws -> Bool {
        try await database.transaction { sql in
            guard let row = try await sql.readFirst("SELECT state FROM matches WHERE id = \(bind: id)"),
                try row.string("state") == MatchState.running.rawValue
            else { return false }
            try await sql.raw(
                """
                UPDATE matches SET state = \(bind: MatchState.finished.rawValue), ended_at = \(bind: at.millisecondsSince1970),
                    end_reason = 'interrupted', seconds_played = 0, score_a = 0, score_b = 0
                WHERE id = \(bind: id)
                """
            ).run()
            return true
        }
    }

    static func match(_ row: any ColumnReader) throws -> MatchRecord {
        func anchors(_ prefix: String) throws -> MatchAnchors? {
            guard let resting = try row.optionalDouble("\(prefix)_resting_hr"), let maximum = try row.optionalDouble("\(prefix)_max_hr") else { return nil }
            return MatchAnchors(restingHeartRate: resting, maximumHeartRate: maximum)
        }
        func sources(_ column: String) throws -> [MatchReadingSource] {
            (try row.optionalString(column) ?? "").split(separator: ",").compactMap { MatchReadingSource(rawValue: String($0)) }
        }
        func zones(_ column: String) throws -> [Int] {
            (try row.optionalString(column) ?? "").split(separator: ",").compactMap { Int($0) }
        }
        guard let kind = MatchKind(rawValue: try row.string("kind")) else { throw StoreError.corruptData("unknown match kind") }
        guard let state = MatchState(rawValue: try row.string("state")) else { throw StoreError.corruptData("unknown match state") }
        var result: MatchResultRecord?
        if state == .finished, let reason = try row.optionalString("end_reason") {
            result = MatchResultRecord(
                scoreA: try row.optionalInt("score_a") ?? 0, scoreB: try row.optionalInt("score_b") ?? 0,
                winner: try row.optionalString("winner"), reason: reason, forfeitedBy: try row.optionalString("forfeited_by"),
                secondsPlayed: try row.optionalInt("seconds_played") ?? 0, zonesA: try zones("zones_a"), zonesB: try zones("zones_b"),
                heartRateA: Self.series(try row.optionalString("heart_rate_a")), heartRateB: Self.series(try row.optionalString("heart_rate_b")),
                sourcesA: try sources("sources_a"), sourcesB: try sources("sources_b"),
                implausibleSecondsA: try row.optionalInt("implausible_a") ?? 0, implausibleSecondsB: try row.optionalInt("implausible_b") ?? 0)
        }
        return MatchRecord(
            id: try row.string("id"), kind: kind, challengerID: try row.string("challenger_id"), opponentID: try row.optionalString("opponent_id"),
            ghostWorkoutID: try row.optionalString("ghost_workout_id"), ghostOwnerID: try row.optionalString("ghost_owner_id"),
            durationSeconds: try row.int("duration_seconds"), practice: (try row.optionalInt("practice") ?? 0) != 0, state: state, createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"), startedAt: try row.optionalDate("started_at"), endedAt: try row.optionalDate("ended_at"),
            anchorsA: try anchors("a"), anchorsB: try anchors("b"), result: result,
            workoutA: try row.optionalString("workout_a"), workoutB: try row.optionalString("workout_b"))
    }
}
