import Foundation
import HeartworkCore
import SQLKit

struct SQLTeamRepository: TeamRepository {
    let database: DatabaseConnection
    static let playerColumns = """
        id, user_id, name, first_name, surname, number, birth_date, sex, resting_hr, max_hr, weight_kg, team_id, sensor_id, created_at,
        (SELECT COUNT(*) FROM player_photos p WHERE p.player_id = players.id) AS photo_count
        """
    static let sessionColumns = """
        id, user_id, team_id, state, starts_at, planned_seconds, ended_at, reviewed, exported, created_at,
        context_time, context_moment, context_situation, context_state, hrv_correction
        """

    // MARK: Players

    func createPlayer(_ player: PlayerRecord, limit: Int) async throws {
        do {
            try await database.cappedInsert(userID: player.userID, limit: limit, counting: "SELECT id FROM players WHERE user_id = \(bind: player.userID)") { sql in
                try await sql.raw(
                    """
                    INSERT INTO players (id, user_id, name, first_name, surname, number, birth_date, sex, resting_hr, max_hr, weight_kg, team_id, sensor_id, created_at)
                    VALUES (\(bind: player.id), \(bind: player.userID), \(bind: player.name), \(bind: player.firstName), \(bind: player.surname),
                        \(bind: player.number), \(bind: player.birthDate?.description),
                        \(bind: player.sex?.rawValue), \(bind: player.restingHeartRate), \(bind: player.maximumHeartRate), \(bind: player.weightKilograms),
                        \(bind: player.teamID), \(bind: player.sensorID), \(bind: player.createdAt.millisecondsSince1970))
                    """
                ).run()
            }
        } catch  where StoreError.isUniqueViolation(error) {
            throw StoreError.conflict("that sensor is already worn by another player of the team")
        }
    }

    func players(userID: String) async throws -> [PlayerRecord] {
        try await database.all(
            """
            SELECT \(unsafeRaw: Self.playerColumns) FROM players WHERE user_id = \(bind: userID) ORDER BY name, created_at, id
            """
        ).map(Self.player)
    }

    func player(id: String, userID: String) async throws -> PlayerRecord? {
        try await database.first(
            """
            SELECT \(unsafeRaw: Self.playerColumns) FROM players WHERE id = \(bind: id) AND user_id = \(bind: userID)
            """
        ).map(Self.player)
    }

    func updatePlayer(_ player: PlayerRecord) async throws {
        do {
            try await database.execute(
                """
                UPDATE players SET name = \(bind: player.name), first_name = \(bind: player.firstName), surname = \(bind: player.surname),
                    number = \(bind: player.number), birth_date = \(bind: player.birthDate?.description),
                    sex = \(bind: player.sex?.rawValue), resting_hr = \(bind: player.restingHeartRate), max_hr = \(bind: player.maximumHeartRate),
                    weight_kg = \(bind: player.weightKilograms), team_id = \(bind: player.teamID), sensor_id = \(bind: player.sensorID)
                WHERE id = \(bind: player.id) AND user_id = \(bind: player.userID)
                """)
        } catch  where StoreError.isUniqueViolation(error) {
            throw StoreError.conflict("that sensor is already worn by another player of the team")
        }
    }

    func deletePlayer(id: String, userID: String) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM players WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            try await sql.raw("DELETE FROM players WHERE id = \(bind: id)").run()
            return true
        }
    }

    func setPlayerPhoto(playerID: String, contentType: String, data: Data) async throws {
        try await setPhoto(.player, id: playerID, contentType: contentType, data: data)
    }

    func playerPhoto(playerID: String, userID: String) async throws -> (contentType: String, data: Data)? {
        try await photo(.player, id: playerID, userID: userID)
    }

    /// Whose photo: a player's (`player_photos`) or a team's (`team_photos`, migration 032),
    /// two tables of one shape kept by the same two functions.
    enum PhotoOwner {
        case player, team
        var table: String { self == .player ? "player_photos" : "team_photos" }
        var key: String { self == .player ? "player_id" : "team_id" }
        var owners: String { self == .player ? "players" : "teams" }
    }

    /// Replaces the photo (the caller checked the owner and the image).
    private func setPhoto(_ owner: PhotoOwner, id: String, contentType: String, data: Data) async throws {
        // One statement, so two uploads at once cannot collide on the key.
        try await database.execute(
            """
            INSERT INTO \(unsafeRaw: owner.table) (\(unsafeRaw: owner.key), content_type, data) VALUES (\(bind: id), \(bind: contentType), \(bind: data))
            ON CONFLICT (\(unsafeRaw: owner.key)) DO UPDATE SET content_type = excluded.content_type, data = excluded.data
            """)
    }

    /// The photo of the user's player or team; nil for none, or someone else's.
    private func photo(_ owner: PhotoOwner, id: String, userID: String) async throws -> (contentType: String, data: Data)? {
        guard
            let row = try await database.first(
                """
                SELECT p.content_type, p.data FROM \(unsafeRaw: owner.table) p JOIN \(unsafeRaw: owner.owners) o ON o.id = p.\(unsafeRaw: owner.key)
                WHERE p.\(unsafeRaw: owner.key) = \(bind: id) AND o.user_id = \(bind: userID)
                """)
        else { return nil }
        return (try row.string("content_type"), try row.data("data"))
    }

    // MARK: Teams

    func createTeam(_ team: TeamRecord, limit: Int) async throws {
        try await database.cappedInsert(userID: team.userID, limit: limit, counting: "SELECT id FROM teams WHERE user_id = \(bind: team.userID)") { sql in
            try await sql.raw(
                """
                INSERT INTO teams (id, user_id, name, created_at)
                VALUES (\(bind: team.id), \(bind: team.userID), \(bind: team.name), \(bind: team.createdAt.millisecondsSince1970))
                """
            ).run()
        }
    }

    static let teamColumns = """
        id, user_id, name, created_at, (SELECT COUNT(*) FROM team_photos p WHERE p.team_id = teams.id) AS photo_count
        """

    func teams(userID: String) async throws -> [TeamRecord] {
        try await database.all("SELECT \(unsafeRaw: Self.teamColumns) FROM teams WHERE user_id = \(bind: userID) ORDER BY name, created_at, id")
            .map(Self.team)
    }

    func team(id: String, userID: String) async throws -> TeamRecord? {
        try await database.first("SELECT \(unsafeRaw: Self.teamColumns) FROM teams WHERE id = \(bind: id) AND user_id = \(bind: userID)")
            .map(Self.team)
    }

    func setTeamPhoto(teamID: String, contentType: String, data: Data) async throws {
        try await setPhoto(.team, id: teamID, contentType: contentType, data: data)
    }

    func teamPhoto(teamID: String, userID: String) async throws -> (contentType: String, data: Data)? {
        try await photo(.team, id: teamID, userID: userID)
    }

    func sessionCounts(userID: String) async throws -> [String: TeamSessionCounts] {
        let rows = try await database.all(
            """
            SELECT team_id, COUNT(*) AS saved, SUM(CASE WHEN reviewed = 0 THEN 1 ELSE 0 END) AS unreviewed FROM team_sessions
            WHERE user_id = \(bind: userID) AND state = \(bind: TeamSessionState.saved.rawValue) GROUP BY team_id
            """)
        var counts = [String: TeamSessionCounts]()
        for row in rows {
            counts[try row.string("team_id")] = TeamSessionCounts(saved: try row.int("saved"), unreviewed: try row.optionalInt("unreviewed") ?? 0)
        }
        return counts
    }

    func renameTeam(id: String, userID: String, to name: String) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM teams WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            try await sql.raw("UPDATE teams SET name = \(bind: name) WHERE id = \(bind: id)").run()
            return true
        }
    }

    func deleteTeam(id: String, userID: String) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM teams WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            // Spelled out rather than left to ON DELETE, so SQLite files opened without
            // foreign-key enforcement behave the same.
            try await sql.raw("UPDATE players SET team_id = NULL WHERE team_id = \(bind: id)").run()
            try await sql.raw("DELETE FROM team_session_players WHERE session_id IN (SELECT id FROM team_sessions WHERE team_id = \(bind: id))").run()
            try await sql.raw("DELETE FROM team_sessions WHERE team_id = \(bind: id)").run()
            try await sql.raw("DELETE FROM team_photos WHERE team_id = \(bind: id)").run()
            try await sql.raw("DELETE FROM teams WHERE id = \(bind: id)").run()
            return true
        }
    }

    // MARK: Sessions

    func createSession(_ session: TeamSessionRecord, now: Date) async throws {
        let lock = database.engine == .postgres ? " FOR UPDATE" : ""
        try await database.transaction { sql in
            // Locking the team's row serializes two starts of one team (PostgreSQL).
            guard try await sql.readFirst("SELECT id FROM teams WHERE id = \(bind: session.teamID) AND user_id = \(bind: session.userID)\(unsafeRaw: lock)") != nil else {
                throw StoreError.notFound("team")
            }
            if try await sql.readFirst(
                """
                SELECT id FROM team_sessions WHERE team_id = \(bind: session.teamID) AND state <> \(bind: TeamSessionState.saved.rawValue)
                """) != nil
            {
                throw StoreError.conflict("the team's last session is neither saved nor discarded yet: save or discard it first")
            }
            try await sql.raw(
                """
                INSERT INTO team_sessions (id, user_id, team_id, state, starts_at, planned_seconds, ended_at, reviewed, exported, created_at,
                    context_time, context_moment, context_situation, context_state, hrv_correction)
                VALUES (\(bind: session.id), \(bind: session.userID), \(bind: session.teamID), \(bind: session.state.rawValue),
                    \(bind: session.startsAt.millisecondsSince1970), \(bind: session.plannedSeconds), \(bind: session.endedAt?.millisecondsSince1970),
                    \(bind: session.reviewed ? 1 : 0), \(bind: session.exported ? 1 : 0), \(bind: session.createdAt.millisecondsSince1970),
                    \(bind: session.context.time?.rawValue), \(bind: session.context.moment?.rawValue), \(bind: session.context.situation?.rawValue),
                    \(bind: session.context.state?.rawValue), \(bind: session.correction.rawValue))
                """
            ).run()
            for player in session.players {
                let physiology = player.physiology
                try await sql.raw(
                    """
                    INSERT INTO team_session_players (session_id, player_id, sensor_id, name, number, sex, age_years, resting_hr, max_hr, weight_kg)
                    VALUES (\(bind: session.id), \(bind: player.playerID), \(bind: player.sensorID), \(bind: player.name), \(bind: player.number),
                        \(bind: physiology.sex?.rawValue), \(bind: physiology.ageYears), \(bind: physiology.restingHeartRate.map { Int($0) }),
                        \(bind: physiology.maximumHeartRate.map { Int($0) }), \(bind: physiology.weightKilograms))
                    """
                ).run()
            }
        }
    }

    func sessions(teamID: String, userID: String) async throws -> [TeamSessionRecord] {
        let rows = try await database.all(
            """
            SELECT \(unsafeRaw: Self.sessionColumns) FROM team_sessions WHERE team_id = \(bind: teamID) AND user_id = \(bind: userID)
            ORDER BY starts_at DESC, id
            """)
        var sessions = [TeamSessionRecord]()
        for row in rows { sessions.append(try await withPlayers(try Self.session(row))) }
        return sessions
    }

    func session(id: String, userID: String) async throws -> TeamSessionRecord? {
        guard
            let row = try await database.first(
                """
                SELECT \(unsafeRaw: Self.sessionColumns) FROM team_sessions WHERE id = \(bind: id) AND user_id = \(bind: userID)
                """)
        else { return nil }
        return try await withPlayers(try Self.session(row))
    }

    func updateSession(id: String, userID: String, _ changes: TeamSessionChanges) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM team_sessions WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            if let state = changes.state { try await sql.raw("UPDATE team_sessions SET state = \(bind: state.rawValue) WHERE id = \(bind: id)").run() }
            if let ended = changes.endedAt {
                try await sql.raw("UPDATE team_sessions SET ended_at = \(bind: ended.millisecondsSince1970) WHERE id = \(bind: id)").run()
            }
            if let reviewed = changes.reviewed { try await sql.raw("UPDATE team_sessions SET reviewed = \(bind: reviewed ? 1 : 0) WHERE id = \(bind: id)").run() }
            if let exported = changes.exported { try await sql.raw("UPDATE team_sessions SET exported = \(bind: exported ? 1 : 0) WHERE id = \(bind: id)").run() }
            if let context = changes.context {
                try await sql.raw(
                    """
                    UPDATE team_sessions SET context_time = \(bind: context.time?.rawValue), context_moment = \(bind: context.moment?.rawValue),
                        context_situation = \(bind: context.situation?.rawValue), context_state = \(bind: context.state?.rawValue)
                    WHERE id = \(bind: id)
                    """
                ).run()
            }
            if let correction = changes.correction {
                try await sql.raw("UPDATE team_sessions SET hrv_correction = \(bind: correction.rawValue) WHERE id = \(bind: id)").run()
            }
            return true
        }
    }

    func deleteSession(id: String, userID: String) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM team_sessions WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            try await sql.raw("DELETE FROM team_session_players WHERE session_id = \(bind: id)").run()
            try await sql.raw("DELETE FROM team_sessions WHERE id = \(bind: id)").run()
            return true
        }
    }

    private func withPlayers(_ session: TeamSessionRecord) async throws -> TeamSessionRecord {
        var session = session
        session.players = try await database.all(
            """
            SELECT player_id, sensor_id, name, number, sex, age_years, resting_hr, max_hr, weight_kg FROM team_session_players
            WHERE session_id = \(bind: session.id) ORDER BY name, player_id
            """
        ).map { row in
            TeamSessionPlayer(
                playerID: try row.string("player_id"), sensorID: try row.string("sensor_id"), name: try row.string("name"),
                number: try row.optionalString("number"),
                physiology: PlayerPhysiology(
                    restingHeartRate: try row.optionalInt("resting_hr").map(Double.init), maximumHeartRate: try row.optionalInt("max_hr").map(Double.init),
                    sex: try row.optionalString("sex").flatMap(Sex.init(rawValue:)), ageYears: try row.optionalInt("age_years"),
                    weightKilograms: try row.optionalDouble("weight_kg")))
        }
        return session
    }

    // MARK: Rows

    static func player(_ row: any ColumnReader) throws -> PlayerRecord {
        var firstName = try row.string("first_name")
        var surname = try row.string("surname")
        if firstName.isEmpty, surname.isEmpty {
            // Written by an instance from before migration 028 (a rolling upgrade): its name.
            (firstName, surname) = PlayerName.split(try row.string("name"))
        }
        return PlayerRecord(
            id: try row.string("id"), userID: try row.string("user_id"), firstName: firstName, surname: surname,
            number: try row.optionalString("number"),
            birthDate: try row.optionalString("birth_date").flatMap { CalendarDay(iso: $0) }, sex: try row.optionalString("sex").flatMap(Sex.init(rawValue:)),
            restingHeartRate: try row.optionalInt("resting_hr"), maximumHeartRate: try row.optionalInt("max_hr"),
            weightKilograms: try row.optionalDouble("weight_kg"), teamID: try row.optionalString("team_id"), sensorID: try row.optionalString("sensor_id"),
            createdAt: try row.date("created_at"), hasPhoto: try row.int("photo_count") > 0)
    }

    static func team(_ row: any ColumnReader) throws -> TeamRecord {
        TeamRecord(
            id: try row.string("id"), userID: try row.string("user_id"), name: try row.string("name"), createdAt: try row.date("created_at"),
            hasPhoto: try row.int("photo_count") > 0)
    }

    static func session(_ row: any ColumnReader) throws -> TeamSessionRecord {
        guard let state = TeamSessionState(rawValue: try row.string("state")) else { throw StoreError.corruptData("a team session's state") }
        return TeamSessionRecord(
            id: try row.string("id"), userID: try row.string("user_id"), teamID: try row.string("team_id"), state: state,
            startsAt: try row.date("starts_at"), plannedSeconds: try row.optionalInt("planned_seconds"), endedAt: try row.optionalDate("ended_at"),
            reviewed: try row.bool("reviewed"), exported: try row.bool("exported"), createdAt: try row.date("created_at"), players: [],
            context: SessionContext(
                time: try Self.setting(row, "context_time"), moment: try Self.setting(row, "context_moment"),
                situation: try Self.setting(row, "context_situation"), state: try Self.setting(row, "context_state")),
            correction: try Self.setting(row, "hrv_correction") ?? .kubios)
    }

    /// A stored setting; a value this version does not know is damage, not "unset".
    private static func setting<T: RawRepresentable>(_ row: any ColumnReader, _ column: String) throws -> T? where T.RawValue == String {
        guard let text = try row.optionalString(column) else { return nil }
        guard let value = T(rawValue: text) else { throw StoreError.corruptData("a team session's \(column)") }
        return value
    }
}
