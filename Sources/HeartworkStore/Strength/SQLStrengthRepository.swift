import Foundation
import HeartworkCore
import SQLKit

struct SQLStrengthRepository: StrengthRepository {
    let database: DatabaseConnection

    // MARK: settings

    func settings(userID: String) async throws -> StrengthSettingsRecord? {
        guard
            let row = try await database.first(
                """
                SELECT user_id, goal, lifestyle, lifestyle_chosen, plate_step_kg, bar_kg, disclaimer_accepted_at, webhook_url, webhook_secret, updated_at
                FROM strength_settings WHERE user_id = \(bind: userID)
                """)
        else { return nil }
        return StrengthSettingsRecord(
            userID: try row.string("user_id"), goal: try Self.goal(try row.string("goal")), lifestyle: Lifestyle(rawValue: try row.string("lifestyle")) ?? .lowActive,
            lifestyleChosen: try row.bool("lifestyle_chosen"), plateStepKilograms: try row.optionalDouble("plate_step_kg"), barKilograms: try row.double("bar_kg"),
            disclaimerAcceptedAt: try row.optionalDate("disclaimer_accepted_at"),
            webhookURL: try row.optionalString("webhook_url"), webhookSecret: try row.string("webhook_secret"), updatedAt: try row.date("updated_at"))
    }

    func saveSettings(_ s: StrengthSettingsRecord) async throws {
        try await database.execute(
            """
            INSERT INTO strength_settings (user_id, goal, lifestyle, lifestyle_chosen, plate_step_kg, bar_kg, disclaimer_accepted_at, webhook_url, webhook_secret, updated_at)
            VALUES (\(bind: s.userID), \(bind: s.goal.rawValue), \(bind: s.lifestyle.rawValue), \(bind: s.lifestyleChosen ? 1 : 0), \(bind: s.plateStepKilograms), \(bind: s.barKilograms),
                \(bind: s.disclaimerAcceptedAt?.millisecondsSince1970), \(bind: s.webhookURL), \(bind: s.webhookSecret), \(bind: s.updatedAt.millisecondsSince1970))
            ON CONFLICT (user_id) DO UPDATE SET goal = excluded.goal, lifestyle = excluded.lifestyle, lifestyle_chosen = excluded.lifestyle_chosen, plate_step_kg = excluded.plate_step_kg, bar_kg = excluded.bar_kg,
                disclaimer_accepted_at = excluded.disclaimer_accepted_at, webhook_url = excluded.webhook_url,
                webhook_secret = excluded.webhook_secret, updated_at = excluded.updated_at
            """)
    }

    static func goal(_ text: String) throws -> StrengthGoal {
        guard let goal = StrengthGoal(rawValue: text) else { throw StoreError.corruptData("unknown strength goal \(text)") }
        return goal
    }

    // MARK: routines

    func routines(userID: String) async throws -> [UserRoutineRecord] {
        try await database.all(
            """
            SELECT id, user_id, name, goal, description, exercises, position, created_at, updated_at FROM strength_routines
            WHERE user_id = \(bind: userID) ORDER BY position, name
            """
        ).map { row in
            UserRoutineRecord(
                id: try row.string("id"), userID: try row.string("user_id"), name: try row.string("name"), goal: try Self.goal(try row.string("goal")),
                description: try row.string("description"), exerciseIDs: try row.string("exercises").split(separator: ",").map(String.init),
                position: try row.int("position"), createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"))
        }
    }

    func addRoutine(_ r: UserRoutineRecord, limit: Int) async throws {
        do {
            try await database.cappedInsert(userID: r.userID, limit: limit, counting: "SELECT id FROM strength_routines WHERE user_id = \(bind: r.userID)") { sql in
                try await sql.raw(
                    """
                    INSERT INTO strength_routines (id, user_id, name, goal, description, exercises, position, created_at, updated_at)
                    VALUES (\(bind: r.id), \(bind: r.userID), \(bind: r.name), \(bind: r.goal.rawValue), \(bind: r.description),
                        \(bind: r.exerciseIDs.joined(separator: ",")), \(bind: r.position), \(bind: r.createdAt.millisecondsSince1970), \(bind: r.updatedAt.millisecondsSince1970))
                    """
                ).run()
            }
        } catch  where StoreError.isUniqueViolation(error) {
            throw StoreError.conflict("you already have a routine called \(r.name)")
        }
    }

    func updateRoutine(_ r: UserRoutineRecord) async throws -> Bool {
        do {
            return try await database.transaction { sql in
                guard try await sql.readFirst("SELECT id FROM strength_routines WHERE id = \(bind: r.id) AND user_id = \(bind: r.userID)") != nil else { return false }
                try await sql.raw(
                    """
                    UPDATE strength_routines SET name = \(bind: r.name), goal = \(bind: r.goal.rawValue), description = \(bind: r.description),
                        exercises = \(bind: r.exerciseIDs.joined(separator: ",")), updated_at = \(bind: r.updatedAt.millisecondsSince1970)
                    WHERE id = \(bind: r.id) AND user_id = \(bind: r.userID)
                    """
                ).run()
                return true
            }
        } catch  where StoreError.isUniqueViolation(error) {
            throw StoreError.conflict("you already have a routine called \(r.name)")
        }
    }

    func deleteRoutine(id: String, userID: String) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM strength_routines WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            try await sql.raw("DELETE FROM strength_routines WHERE id = \(bind: id) AND user_id = \(bind: userID)").run()
            return true
        }
    }

    func reorderRoutines(userID: String, ids: [String], at: Date) async throws {
        try await database.transaction { sql in
            for (position, id) in ids.enumerated() {
                try await sql.raw(
                    """
                    UPDATE strength_routines SET position = \(bind: position), updated_at = \(bind: at.millisecondsSince1970)
                    WHERE id = \(bind: id) AND user_id = \(bind: userID)
                    """
                ).run()
            }
        }
    }

    // MARK: custom exercises

    func customExercises(userID: String) async throws -> [CustomExerciseRecord] {
        try await database.all(
            """
            SELECT id, user_id, name, muscle_group, equipment, loaded, measure, source, created_at FROM strength_custom_exercises
            WHERE user_id = \(bind: userID) ORDER BY name, id
            """
        ).map { row in
            let group = try row.string("muscle_group")
            let measure = try row.string("measure")
            guard let muscleGroup = MuscleGroup(rawValue: group), let measured = ExerciseMeasure(rawValue: measure) else {
                throw StoreError.corruptData("custom exercise with group \(group) and measure \(measure)")
            }
            return CustomExerciseRecord(
                id: try row.string("id"), userID: try row.string("user_id"), name: try row.string("name"), group: muscleGroup,
                equipment: try row.string("equipment"), loaded: try row.bool("loaded"), measure: measured, source: try row.string("source"),
                createdAt: try row.date("created_at"))
        }
    }

    func addCustomExercise(_ e: CustomExerciseRecord, nameKey: String, limit: Int) async throws {
        do {
            try await database.cappedInsert(userID: e.userID, limit: limit, counting: "SELECT id FROM strength_custom_exercises WHERE user_id = \(bind: e.userID)") {
                sql in
                try await sql.raw(
                    """
                    INSERT INTO strength_custom_exercises (id, user_id, name, name_key, muscle_group, equipment, loaded, measure, source, created_at)
                    VALUES (\(bind: e.id), \(bind: e.userID), \(bind: e.name), \(bind: nameKey), \(bind: e.group.rawValue), \(bind: e.equipment),
                        \(bind: e.loaded ? 1 : 0), \(bind: e.measure.rawValue), \(bind: e.source), \(bind: e.createdAt.millisecondsSince1970))
                    """
                ).run()
            }
        } catch  where StoreError.isUniqueViolation(error) {
            throw StoreError.conflict("you already have an exercise called \(e.name)")
        }
    }

    // MARK: statistics

    func stats(userID: String) async throws -> [String: ExerciseStatsRecord] {
        var out = [String: ExerciseStatsRecord]()
        for row in try await database.all(
            """
            SELECT exercise_id, most_reps, most_weight_kg, one_rep_max_kg, reset_at, updated_at FROM exercise_stats WHERE user_id = \(bind: userID)
            """)
        {
            let id = try row.string("exercise_id")
            out[id] = ExerciseStatsRecord(
                exerciseID: id,
                stats: ExerciseStats(
                    mostReps: try row.int("most_reps"), mostWeightKilograms: try row.double("most_weight_kg"), oneRepMaxKilograms: try row.double("one_rep_max_kg")),
                resetAt: try row.optionalDate("reset_at"), updatedAt: try row.date("updated_at"))
        }
        return out
    }

    static func upsertStats(_ sql: any SQLDatabase, userID: String, exerciseID: String, stats: ExerciseStats, resetAt: Date?, at: Date) async throws {
        let reset: SQLQueryString = resetAt == nil ? "exercise_stats.reset_at" : "excluded.reset_at"
        try await sql.raw(
            """
            INSERT INTO exercise_stats (user_id, exercise_id, most_reps, most_weight_kg, one_rep_max_kg, reset_at, updated_at)
            VALUES (\(bind: userID), \(bind: exerciseID), \(bind: stats.mostReps), \(bind: stats.mostWeightKilograms), \(bind: stats.oneRepMaxKilograms),
                \(bind: resetAt?.millisecondsSince1970), \(bind: at.millisecondsSince1970))
            ON CONFLICT (user_id, exercise_id) DO UPDATE SET most_reps = excluded.most_reps, most_weight_kg = excluded.most_weight_kg,
                one_rep_max_kg = excluded.one_rep_max_kg, reset_at = \(reset), updated_at = excluded.updated_at
            """
        ).run()
    }

    func resetStats(userID: String, exerciseID: String, at: Date) async throws {
        try await database.transaction { sql in
            try await Self.upsertStats(sql, userID: userID, exerciseID: exerciseID, stats: .coldStart, resetAt: at, at: at)
        }
    }

    func saveStats(userID: String, _ stats: [String: ExerciseStats], at: Date) async throws {
        try await database.transaction { sql in
            for (id, value) in stats.sorted(by: { $0.key < $1.key }) {
                try await Self.upsertStats(sql, userID: userID, exerciseID: id, stats: value, resetAt: nil, at: at)
            }
        }
    }

    // MARK: sessions

    static let sessionColumns: SQLQueryString = """
        id, user_id, routine_id, name, goal, source, import_key, sensor_id, started_at, finished_at, review, enjoyment, difficulty,
        sentiment, message, volume_kg, total_reps, total_sets, duration_seconds
        """

    static func session(_ row: any ColumnReader) throws -> StrengthSessionRecord {
        var s = StrengthSessionRecord(
            id: try row.string("id"), userID: try row.string("user_id"), routineID: try row.optionalString("routine_id"), name: try row.string("name"),
            goal: try goal(try row.string("goal")), source: try row.string("source"), importKey: try row.optionalString("import_key"),
            sensorID: try row.optionalString("sensor_id"), startedAt: try row.date("started_at"))
        s.finishedAt = try row.optionalDate("finished_at")
        s.review = try row.optionalString("review")
        s.enjoyment = try row.optionalInt("enjoyment")
        s.difficulty = try row.optionalInt("difficulty")
        s.sentiment = try row.optionalInt("sentiment")
        s.message = try row.optionalString("message")
        s.volumeKilograms = try row.optionalDouble("volume_kg")
        s.totalReps = try row.optionalInt("total_reps")
        s.totalSets = try row.optionalInt("total_sets")
        s.durationSeconds = try row.optionalDouble("duration_seconds")
        return s
    }

    static func set(_ row: any ColumnReader) throws -> StrengthSetRecord {
        StrengthSetRecord(
            position: try row.int("position"), exerciseID: try row.string("exercise_id"), exerciseName: try row.string("exercise_name"),
            exerciseIndex: try row.int("exercise_index"), kind: try row.string("kind"), prescribedReps: try row.optionalInt("prescribed_reps"),
            prescribedWeightKilograms: try row.double("prescribed_weight_kg"), reps: try row.optionalInt("reps"), weightKilograms: try row.double("weight_kg"),
            done: try row.bool("done"), doneAt: try row.optionalDate("done_at"))
    }

    static let setColumns: SQLQueryString = """
        position, exercise_id, exercise_name, exercise_index, kind, prescribed_reps, prescribed_weight_kg, reps, weight_kg, done, done_at
        """

    static func insert(_ sql: any SQLDatabase, _ s: StrengthSessionRecord, sets: [StrengthSetRecord]) async throws {
        try await sql.raw(
            """
            INSERT INTO strength_sessions (\(sessionColumns))
            VALUES (\(bind: s.id), \(bind: s.userID), \(bind: s.routineID), \(bind: s.name), \(bind: s.goal.rawValue), \(bind: s.source), \(bind: s.importKey),
                \(bind: s.sensorID), \(bind: s.startedAt.millisecondsSince1970), \(bind: s.finishedAt?.millisecondsSince1970), \(bind: s.review),
                \(bind: s.enjoyment), \(bind: s.difficulty), \(bind: s.sentiment), \(bind: s.message), \(bind: s.volumeKilograms), \(bind: s.totalReps),
                \(bind: s.totalSets), \(bind: s.durationSeconds))
            """
        ).run()
        for set in sets {
            try await sql.raw(
                """
                INSERT INTO strength_sets (session_id, \(setColumns))
                VALUES (\(bind: s.id), \(bind: set.position), \(bind: set.exerciseID), \(bind: set.exerciseName), \(bind: set.exerciseIndex), \(bind: set.kind),
                    \(bind: set.prescribedReps), \(bind: set.prescribedWeightKilograms), \(bind: set.reps), \(bind: set.weightKilograms),
                    \(bind: set.done ? 1 : 0), \(bind: set.doneAt?.millisecondsSince1970))
                """
            ).run()
        }
    }

    func createSession(_ session: StrengthSessionRecord, sets: [StrengthSetRecord]) async throws {
        try await database.transaction { sql in try await Self.insert(sql, session, sets: sets) }
    }

    func session(id: String, userID: String) async throws -> (session: StrengthSessionRecord, sets: [StrengthSetRecord])? {
        guard let row = try await database.first("SELECT \(Self.sessionColumns) FROM strength_sessions WHERE id = \(bind: id) AND user_id = \(bind: userID)") else {
            return nil
        }
        let sets = try await database.all("SELECT \(Self.setColumns) FROM strength_sets WHERE session_id = \(bind: id) ORDER BY position").map(Self.set)
        return (try Self.session(row), sets)
    }

    func deleteSession(id: String, userID: String) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM strength_sessions WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else { return false }
            // Spelled out rather than left to ON DELETE CASCADE, so SQLite files opened without
            // foreign-key enforcement behave the same.
            try await sql.raw("DELETE FROM strength_baselines WHERE session_id = \(bind: id)").run()
            try await sql.raw("DELETE FROM strength_sets WHERE session_id = \(bind: id)").run()
            try await sql.raw("DELETE FROM strength_sessions WHERE id = \(bind: id) AND user_id = \(bind: userID)").run()
            return true
        }
    }

    func sessions(userID: String, from: Date?, to: Date?, limit: Int, offset: Int) async throws -> [StrengthSessionRecord] {
        let lower: SQLQueryString = from.map { "AND started_at >= \(bind: $0.millisecondsSince1970)" } ?? ""
        let upper: SQLQueryString = to.map { "AND started_at < \(bind: $0.millisecondsSince1970)" } ?? ""
        return try await database.all(
            """
            SELECT \(Self.sessionColumns) FROM strength_sessions WHERE user_id = \(bind: userID) \(lower) \(upper)
            ORDER BY started_at DESC, id LIMIT \(bind: limit) OFFSET \(bind: offset)
            """
        ).map(Self.session)
    }

    func modifySet(sessionID: String, position: Int, _ change: @escaping @Sendable (inout StrengthSetRecord) throws -> Void) async throws -> StrengthSetRecord? {
        let lock: SQLQueryString = database.engine == .postgres ? "FOR UPDATE" : ""
        return try await database.transaction { sql in
            guard
                let row = try await sql.readFirst(
                    "SELECT \(Self.setColumns) FROM strength_sets WHERE session_id = \(bind: sessionID) AND position = \(bind: position) \(lock)")
            else { return nil }
            var set = try Self.set(row)
            try change(&set)
            try await sql.raw(
                """
                UPDATE strength_sets SET reps = \(bind: set.reps), weight_kg = \(bind: set.weightKilograms), done = \(bind: set.done ? 1 : 0),
                    done_at = \(bind: set.doneAt?.millisecondsSince1970)
                WHERE session_id = \(bind: sessionID) AND position = \(bind: position)
                """
            ).run()
            return set
        }
    }

    func finish(_ s: StrengthSessionRecord, stats: [String: ExerciseStats], baselines: [String: ExerciseStats], at: Date) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM strength_sessions WHERE id = \(bind: s.id) AND user_id = \(bind: s.userID) AND finished_at IS NULL") != nil else {
                return false
            }
            try await Self.writeFinish(sql, s)
            for (id, value) in baselines.sorted(by: { $0.key < $1.key }) {
                try await sql.raw(
                    """
                    INSERT INTO strength_baselines (session_id, exercise_id, most_reps, most_weight_kg, one_rep_max_kg)
                    VALUES (\(bind: s.id), \(bind: id), \(bind: value.mostReps), \(bind: value.mostWeightKilograms), \(bind: value.oneRepMaxKilograms))
                    """
                ).run()
            }
            for (id, value) in stats.sorted(by: { $0.key < $1.key }) {
                try await Self.upsertStats(sql, userID: s.userID, exerciseID: id, stats: value, resetAt: nil, at: at)
            }
            return true
        }
    }

    func baselines(sessionID: String) async throws -> [String: ExerciseStats] {
        var out = [String: ExerciseStats]()
        for row in try await database.all(
            "SELECT exercise_id, most_reps, most_weight_kg, one_rep_max_kg FROM strength_baselines WHERE session_id = \(bind: sessionID)")
        {
            out[try row.string("exercise_id")] = ExerciseStats(
                mostReps: try row.int("most_reps"), mostWeightKilograms: try row.double("most_weight_kg"), oneRepMaxKilograms: try row.double("one_rep_max_kg"))
        }
        return out
    }

    func changedSince(userID: String, exerciseID: String, date: Date, excluding sessionID: String) async throws -> Bool {
        let at = date.millisecondsSince1970
        if try await database.first(
            """
            SELECT exercise_id FROM exercise_stats WHERE user_id = \(bind: userID) AND exercise_id = \(bind: exerciseID) AND reset_at > \(bind: at)
            """) != nil
        {
            return true
        }
        return try await database.first(
            """
            SELECT x.id FROM strength_sessions x JOIN strength_sets s ON s.session_id = x.id
            WHERE x.user_id = \(bind: userID) AND s.exercise_id = \(bind: exerciseID) AND x.id <> \(bind: sessionID)
                AND x.finished_at IS NOT NULL AND x.finished_at > \(bind: at)
            LIMIT 1
            """) != nil
    }

    static func writeFinish(_ sql: any SQLDatabase, _ s: StrengthSessionRecord) async throws {
        try await sql.raw(
            """
            UPDATE strength_sessions SET finished_at = \(bind: s.finishedAt?.millisecondsSince1970), review = \(bind: s.review),
                enjoyment = \(bind: s.enjoyment), difficulty = \(bind: s.difficulty), sentiment = \(bind: s.sentiment), message = \(bind: s.message),
                volume_kg = \(bind: s.volumeKilograms), total_reps = \(bind: s.totalReps), total_sets = \(bind: s.totalSets),
                duration_seconds = \(bind: s.durationSeconds), sensor_id = \(bind: s.sensorID)
            WHERE id = \(bind: s.id) AND user_id = \(bind: s.userID)
            """
        ).run()
    }

    func updateTotals(_ session: StrengthSessionRecord) async throws {
        try await database.transaction { sql in try await Self.writeFinish(sql, session) }
    }

    func importSession(_ session: StrengthSessionRecord, sets: [StrengthSetRecord], stats: [String: ExerciseStats], at: Date) async throws -> Bool {
        try await database.transaction { sql in
            if let key = session.importKey,
                try await sql.readFirst("SELECT id FROM strength_sessions WHERE user_id = \(bind: session.userID) AND import_key = \(bind: key)") != nil
            {
                return false
            }
            try await Self.insert(sql, session, sets: sets)
            for (id, value) in stats.sorted(by: { $0.key < $1.key }) {
                try await Self.upsertStats(sql, userID: session.userID, exerciseID: id, stats: value, resetAt: nil, at: at)
            }
            return true
        }
    }

    func importedSessionID(userID: String, importKey: String) async throws -> String? {
        try await database.first("SELECT id FROM strength_sessions WHERE user_id = \(bind: userID) AND import_key = \(bind: importKey)").map {
            try $0.string("id")
        }
    }

    func exerciseHistory(userID: String, exerciseID: String, limit: Int) async throws -> [(session: StrengthSessionRecord, sets: [StrengthSetRecord])] {
        let rows = try await database.all(
            """
            SELECT s.session_id AS sid, \(Self.setColumns) FROM strength_sets s JOIN strength_sessions x ON x.id = s.session_id
            WHERE x.user_id = \(bind: userID) AND s.exercise_id = \(bind: exerciseID) AND x.finished_at IS NOT NULL
            ORDER BY x.started_at, s.position
            """)
        var order = [String]()
        var sets = [String: [StrengthSetRecord]]()
        for row in rows {
            let id = try row.string("sid")
            if sets[id] == nil { order.append(id) }
            sets[id, default: []].append(try Self.set(row))
        }
        let wanted = Array(order.suffix(limit))
        guard !wanted.isEmpty else { return [] }
        let sessions = try await database.all(
            """
            SELECT \(Self.sessionColumns) FROM strength_sessions WHERE user_id = \(bind: userID) AND id IN (\(binds: wanted))
            """
        ).map(Self.session)
        let byID = Dictionary(sessions.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return wanted.compactMap { id in byID[id].map { ($0, sets[id] ?? []) } }
    }

    func exercisesTrained(userID: String, since: Date) async throws -> [(startedAt: Date, exerciseID: String)] {
        try await database.all(
            """
            SELECT DISTINCT x.started_at, s.exercise_id FROM strength_sets s JOIN strength_sessions x ON x.id = s.session_id
            WHERE x.user_id = \(bind: userID) AND x.started_at >= \(bind: since.millisecondsSince1970)
            """
        ).map { (try $0.date("started_at"), try $0.string("exercise_id")) }
    }

    func lastStarted(userID: String) async throws -> [String: Date] {
        var out = [String: Date]()
        for row in try await database.all(
            """
            SELECT routine_id, MAX(started_at) AS last FROM strength_sessions WHERE user_id = \(bind: userID) AND routine_id IS NOT NULL GROUP BY routine_id
            """)
        {
            out[try row.string("routine_id")] = try row.date("last")
        }
        return out
    }

    // MARK: webhooks

    static func delivery(_ row: any ColumnReader) throws -> WebhookDeliveryRecord {
        WebhookDeliveryRecord(
            id: try row.string("id"), userID: try row.string("user_id"), url: try row.string("url"), body: try row.string("body"),
            attempts: try row.int("attempts"), nextAttemptAt: try row.date("next_attempt_at"), deliveredAt: try row.optionalDate("delivered_at"),
            givenUpAt: try row.optionalDate("given_up_at"), lastError: try row.optionalString("last_error"), createdAt: try row.date("created_at"))
    }

    static let deliveryColumns: SQLQueryString = "id, user_id, url, body, attempts, next_attempt_at, delivered_at, given_up_at, last_error, created_at"

    func enqueueWebhook(_ d: WebhookDeliveryRecord, job: JobRecord) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                INSERT INTO webhook_deliveries (\(Self.deliveryColumns))
                VALUES (\(bind: d.id), \(bind: d.userID), \(bind: d.url), \(bind: d.body), \(bind: d.attempts), \(bind: d.nextAttemptAt.millisecondsSince1970),
                    NULL, NULL, NULL, \(bind: d.createdAt.millisecondsSince1970))
                """
            ).run()
            try await sql.raw(SQLJobRepository.insert(job)).run()
        }
    }

    func webhookDelivery(id: String) async throws -> WebhookDeliveryRecord? {
        try await database.first("SELECT \(Self.deliveryColumns) FROM webhook_deliveries WHERE id = \(bind: id)").map(Self.delivery)
    }

    func recordWebhookAttempt(_ d: WebhookDeliveryRecord) async throws {
        try await database.execute(
            """
            UPDATE webhook_deliveries SET attempts = \(bind: d.attempts), next_attempt_at = \(bind: d.nextAttemptAt.millisecondsSince1970),
                delivered_at = \(bind: d.deliveredAt?.millisecondsSince1970), given_up_at = \(bind: d.givenUpAt?.millisecondsSince1970),
                last_error = \(bind: d.lastError)
            WHERE id = \(bind: d.id)
            """)
    }

    func webhookDeliveries(userID: String, limit: Int) async throws -> [WebhookDeliveryRecord] {
        try await database.all(
            """
            SELECT \(Self.deliveryColumns) FROM webhook_deliveries WHERE user_id = \(bind: userID) ORDER BY created_at DESC, id LIMIT \(bind: limit)
            """
        ).map(Self.delivery)
    }
}
