import Foundation
import HeartworkCore
import SQLKit

struct SQLDailyRepository: DailyRepository {
    let database: DatabaseConnection

    func putDay(userID: String, _ summary: DailySummary, now: Date) async throws {
        let json = String(decoding: try Self.encoder.encode(summary), as: UTF8.self)
        try await database.execute(
            """
            INSERT INTO day_metrics (user_id, day, data, computed_at, formula)
            VALUES (\(bind: userID), \(bind: summary.date), \(bind: json), \(bind: now.millisecondsSince1970), \(bind: DailyCalculator.formulaVersion))
            ON CONFLICT (user_id, day) DO UPDATE SET data = excluded.data, computed_at = excluded.computed_at, formula = excluded.formula
            """)
    }

    func outdatedDays(formula: Int) async throws -> [(userID: String, from: CalendarDay)] {
        try await database.all("SELECT user_id, MIN(day) AS first FROM day_metrics WHERE formula < \(bind: formula) GROUP BY user_id ORDER BY user_id")
            .compactMap { row in
                guard let day = CalendarDay(iso: try row.string("first")) else { return nil }
                return (try row.string("user_id"), day)
            }
    }

    func day(userID: String, _ day: CalendarDay) async throws -> DailySummary? {
        guard let row = try await database.first("SELECT data FROM day_metrics WHERE user_id = \(bind: userID) AND day = \(bind: day.description)") else { return nil }
        return try Self.summary(row, day.description)
    }

    func days(userID: String, from: CalendarDay, through: CalendarDay) async throws -> [DailySummary] {
        try await database.all(
            """
            SELECT day, data FROM day_metrics WHERE user_id = \(bind: userID) AND day >= \(bind: from.description) AND day <= \(bind: through.description) ORDER BY day
            """
        ).map { try Self.summary($0, try $0.string("day")) }
    }

    func marks(userID: String, from: CalendarDay, through: CalendarDay) async throws -> [DayMarkRecord] {
        try await database.all(
            """
            SELECT day, sleep_quality, mark, updated_at FROM day_marks WHERE user_id = \(bind: userID)
                AND day >= \(bind: from.description) AND day <= \(bind: through.description) ORDER BY day
            """
        ).compactMap { row in
            guard let day = CalendarDay(iso: try row.string("day")) else { return nil }
            return DayMarkRecord(day: day, sleepQuality: try row.optionalInt("sleep_quality"), mark: try row.optionalString("mark"), updatedAt: try row.date("updated_at"))
        }
    }

    func putMark(userID: String, _ mark: DayMarkRecord) async throws {
        try await database.execute(
            """
            INSERT INTO day_marks (user_id, day, sleep_quality, mark, updated_at)
            VALUES (\(bind: userID), \(bind: mark.day.description), \(bind: mark.sleepQuality), \(bind: mark.mark), \(bind: mark.updatedAt.millisecondsSince1970))
            ON CONFLICT (user_id, day) DO UPDATE SET sleep_quality = excluded.sleep_quality, mark = excluded.mark, updated_at = excluded.updated_at
            """)
    }

    func manualSleep(userID: String, from: CalendarDay, through: CalendarDay) async throws -> [CalendarDay: ManualSleep] {
        var nights = [CalendarDay: ManualSleep]()
        for row in try await database.all(
            """
            SELECT day, bed_at, wake_at FROM day_marks WHERE user_id = \(bind: userID) AND bed_at IS NOT NULL AND wake_at IS NOT NULL
                AND day >= \(bind: from.description) AND day <= \(bind: through.description) ORDER BY day
            """)
        {
            guard let day = CalendarDay(iso: try row.string("day")) else { continue }
            nights[day] = ManualSleep(bedTime: try row.date("bed_at"), wakeTime: try row.date("wake_at"))
        }
        return nights
    }

    func putManualSleep(userID: String, day: CalendarDay, _ sleep: ManualSleep?, now: Date) async throws -> Bool {
        guard let sleep else {
            return try await database.transaction { sql in
                try await sql.readFirst(
                    """
                    UPDATE day_marks SET bed_at = NULL, wake_at = NULL, updated_at = \(bind: now.millisecondsSince1970)
                    WHERE user_id = \(bind: userID) AND day = \(bind: day.description) AND bed_at IS NOT NULL RETURNING day
                    """) != nil
            }
        }
        try await database.execute(
            """
            INSERT INTO day_marks (user_id, day, bed_at, wake_at, updated_at)
            VALUES (\(bind: userID), \(bind: day.description), \(bind: sleep.bedTime.millisecondsSince1970), \(bind: sleep.wakeTime.millisecondsSince1970),
                \(bind: now.millisecondsSince1970))
            ON CONFLICT (user_id, day) DO UPDATE SET bed_at = excluded.bed_at, wake_at = excluded.wake_at, updated_at = excluded.updated_at
            """)
        return true
    }

    func dataRange(userID: String) async throws -> (first: CalendarDay, last: CalendarDay)? {
        guard
            let row = try await database.first(
                """
                SELECT MIN(day) AS first_day, MAX(day) AS last_day FROM health_blocks WHERE user_id = \(bind: userID)
                """), let first = try row.optionalString("first_day").flatMap(CalendarDay.init(iso:)),
            let last = try row.optionalString("last_day").flatMap(CalendarDay.init(iso:))
        else { return nil }
        return (first, last)
    }

    func settings(userID: String) async throws -> HealthSettingsRecord {
        guard
            let row = try await database.first(
                """
                SELECT step_threshold, inactivity_minute, inactivity_alerts, anomaly_alerts, ar_order, band_sd, consecutive, interval_minutes,
                    source_order, updated_at FROM health_settings WHERE user_id = \(bind: userID)
                """)
        else { return .defaults }
        let order = (try? JSONDecoder().decode([String].self, from: Data(try row.string("source_order").utf8))) ?? []
        return HealthSettingsRecord(
            stepThreshold: try row.int("step_threshold"), inactivityMinute: try row.int("inactivity_minute"), inactivityAlerts: try row.bool("inactivity_alerts"),
            anomalyAlerts: try row.bool("anomaly_alerts"), order: try row.int("ar_order"), bandSD: try row.double("band_sd"), consecutive: try row.int("consecutive"),
            intervalMinutes: try row.int("interval_minutes"), sourceOrder: order, updatedAt: try row.date("updated_at"))
    }

    func putSettings(userID: String, _ s: HealthSettingsRecord) async throws {
        let order = String(decoding: try JSONEncoder().encode(s.sourceOrder), as: UTF8.self)
        try await database.execute(
            """
            INSERT INTO health_settings (user_id, step_threshold, inactivity_minute, inactivity_alerts, anomaly_alerts, ar_order, band_sd, consecutive,
                interval_minutes, source_order, updated_at)
            VALUES (\(bind: userID), \(bind: s.stepThreshold), \(bind: s.inactivityMinute), \(bind: s.inactivityAlerts ? 1 : 0), \(bind: s.anomalyAlerts ? 1 : 0),
                \(bind: s.order), \(bind: s.bandSD), \(bind: s.consecutive), \(bind: s.intervalMinutes), \(bind: order), \(bind: s.updatedAt.millisecondsSince1970))
            ON CONFLICT (user_id) DO UPDATE SET step_threshold = excluded.step_threshold, inactivity_minute = excluded.inactivity_minute,
                inactivity_alerts = excluded.inactivity_alerts, anomaly_alerts = excluded.anomaly_alerts, ar_order = excluded.ar_order,
                band_sd = excluded.band_sd, consecutive = excluded.consecutive, interval_minutes = excluded.interval_minutes,
                source_order = excluded.source_order, updated_at = excluded.updated_at
            """)
    }

    func claimAlert(userID: String, key: String, now: Date) async throws -> Bool {
        // RETURNING gives a row only when this insert made it: two instances never both claim.
        try await database.transaction { sql in
            try await sql.readFirst(
                """
                INSERT INTO health_alerts (user_id, alert_key, created_at) VALUES (\(bind: userID), \(bind: key), \(bind: now.millisecondsSince1970))
                ON CONFLICT (user_id, alert_key) DO NOTHING RETURNING alert_key
                """) != nil
        }
    }

    func usersWithSamples(since: CalendarDay) async throws -> [String] {
        try await database.all("SELECT DISTINCT user_id FROM health_blocks WHERE day >= \(bind: since.description) ORDER BY user_id").map { try $0.string("user_id") }
    }

    static let columns: SQLQueryString = """
        id, user_id, format, file_path, state, bytes_total, bytes_done, samples_read, samples_added, workouts_added, workouts_duplicate,
        first_day, last_day, error, created_at, updated_at, finished_at, workouts_skipped, body_update, records_skipped,
        read_counts, not_understood, summary
        """

    func admitImport(_ r: HealthImportRecord, maximumOpen: Int) async throws -> ImportAdmission {
        let lock: SQLQueryString = database.engine == .postgres ? " FOR UPDATE" : ""
        return try await database.transaction { sql in
            // The user's row, held until the end (SQLite: the write lock): admissions of one
            // user go one at a time, and an account deleted meanwhile is seen here.
            guard try await sql.readFirst("SELECT id FROM users WHERE id = \(bind: r.userID)\(lock)") != nil else {
                throw StoreError.notFound("user")
            }
            let open =
                try await sql.readFirst(
                    """
                    SELECT COUNT(*) AS n FROM health_imports WHERE user_id = \(bind: r.userID) AND state IN ('receiving', 'queued', 'running')
                    """
                ).map { try $0.int("n") } ?? 0
            guard open < maximumOpen else { return .refused(open: open) }
            try await sql.raw(
                """
                INSERT INTO health_imports (\(Self.columns)) VALUES (\(bind: r.id), \(bind: r.userID), \(bind: r.format), \(bind: r.filePath),
                    \(bind: r.state.rawValue), \(bind: r.bytesTotal), \(bind: r.bytesDone), \(bind: r.samplesRead), \(bind: r.samplesAdded),
                    \(bind: r.workoutsAdded), \(bind: r.workoutsDuplicate), \(bind: r.firstDay?.description), \(bind: r.lastDay?.description),
                    \(bind: r.error), \(bind: r.createdAt.millisecondsSince1970), \(bind: r.updatedAt.millisecondsSince1970), \(bind: r.finishedAt?.millisecondsSince1970),
                    \(bind: Self.encodeSkipped(r.workoutsSkipped)), \(bind: Self.encodeBody(r.body)), \(bind: Self.encodeSkipped(r.recordsSkipped)),
                    \(bind: Self.encodeSkipped(r.read)), \(bind: Self.encodeSkipped(r.notUnderstood)), \(bind: r.summary))
                """
            ).run()
            return .admitted
        }
    }

    func queueImport(id: String, bytesTotal: Int64, job: JobRecord, now: Date) async throws -> Bool {
        try await database.transaction { sql in
            guard
                try await sql.readFirst(
                    """
                    UPDATE health_imports SET state = 'queued', bytes_total = \(bind: bytesTotal), updated_at = \(bind: now.millisecondsSince1970)
                    WHERE id = \(bind: id) AND state = 'receiving' RETURNING id
                    """) != nil
            else { return false }
            try await sql.raw(SQLJobRepository.insert(job)).run()
            return true
        }
    }

    func updateImport(_ r: HealthImportRecord) async throws -> Bool {
        try await database.transaction { sql in
            try await sql.readFirst(
                """
                UPDATE health_imports SET state = \(bind: r.state.rawValue), bytes_total = \(bind: r.bytesTotal), bytes_done = \(bind: r.bytesDone),
                    samples_read = \(bind: r.samplesRead), samples_added = \(bind: r.samplesAdded), workouts_added = \(bind: r.workoutsAdded),
                    workouts_duplicate = \(bind: r.workoutsDuplicate), first_day = \(bind: r.firstDay?.description), last_day = \(bind: r.lastDay?.description),
                    error = \(bind: r.error), updated_at = \(bind: r.updatedAt.millisecondsSince1970), finished_at = \(bind: r.finishedAt?.millisecondsSince1970),
                    workouts_skipped = \(bind: Self.encodeSkipped(r.workoutsSkipped)), body_update = \(bind: Self.encodeBody(r.body)),
                    records_skipped = \(bind: Self.encodeSkipped(r.recordsSkipped)), read_counts = \(bind: Self.encodeSkipped(r.read)),
                    not_understood = \(bind: Self.encodeSkipped(r.notUnderstood)), summary = \(bind: r.summary)
                WHERE id = \(bind: r.id) RETURNING id
                """) != nil
        }
    }

    func deleteImport(id: String) async throws {
        try await database.execute("DELETE FROM health_imports WHERE id = \(bind: id)")
    }

    func failStaleUploads(updatedBefore: Date, now: Date) async throws -> [String] {
        try await database.transaction { sql in
            try await sql.readAll(
                """
                UPDATE health_imports SET state = 'failed', error = 'the upload stopped before it was complete; send the file again',
                    updated_at = \(bind: now.millisecondsSince1970), finished_at = \(bind: now.millisecondsSince1970)
                WHERE state = 'receiving' AND updated_at < \(bind: updatedBefore.millisecondsSince1970) RETURNING file_path
                """
            ).map { try $0.string("file_path") }
        }
    }

    func openImportFiles() async throws -> Set<String> {
        Set(
            try await database.all(
                """
                SELECT file_path FROM health_imports WHERE state IN ('receiving', 'queued', 'running')
                """
            ).map { try $0.string("file_path") })
    }

    func importFiles(userID: String) async throws -> [String] {
        try await database.all("SELECT file_path FROM health_imports WHERE user_id = \(bind: userID)").map { try $0.string("file_path") }
    }

    func findImport(id: String, userID: String) async throws -> HealthImportRecord? {
        try await database.first("SELECT \(Self.columns) FROM health_imports WHERE id = \(bind: id) AND user_id = \(bind: userID)").map(Self.importRecord)
    }

    func findImport(id: String) async throws -> HealthImportRecord? {
        try await database.first("SELECT \(Self.columns) FROM health_imports WHERE id = \(bind: id)").map(Self.importRecord)
    }

    func imports(userID: String, limit: Int) async throws -> [HealthImportRecord] {
        try await database.all(
            """
            SELECT \(Self.columns) FROM health_imports WHERE user_id = \(bind: userID) ORDER BY created_at DESC LIMIT \(bind: max(1, min(limit, 100)))
            """
        ).map(Self.importRecord)
    }

    static func importRecord(_ row: any ColumnReader) throws -> HealthImportRecord {
        var r = HealthImportRecord(
            id: try row.string("id"), userID: try row.string("user_id"), format: try row.string("format"),
            filePath: try row.string("file_path"), bytesTotal: try row.optionalInt64("bytes_total") ?? 0, createdAt: try row.date("created_at"))
        guard let state = HealthImportRecord.State(rawValue: try row.string("state")) else { throw StoreError.corruptData("import \(r.id): state") }
        r.state = state
        r.bytesDone = try row.optionalInt64("bytes_done") ?? 0
        r.samplesRead = try row.optionalInt64("samples_read") ?? 0
        r.samplesAdded = try row.optionalInt64("samples_added") ?? 0
        r.workoutsAdded = try row.int("workouts_added")
        r.workoutsDuplicate = try row.int("workouts_duplicate")
        r.firstDay = try row.optionalString("first_day").flatMap(CalendarDay.init(iso:))
        r.lastDay = try row.optionalString("last_day").flatMap(CalendarDay.init(iso:))
        r.error = try row.optionalString("error")
        r.updatedAt = try row.date("updated_at")
        r.finishedAt = try row.optionalDate("finished_at")
        r.workoutsSkipped = Self.decodeSkipped(try row.optionalString("workouts_skipped"))
        r.body = Self.decodeBody(try row.optionalString("body_update"))
        r.recordsSkipped = Self.decodeSkipped(try row.optionalString("records_skipped"))
        r.read = Self.decodeSkipped(try row.optionalString("read_counts"))
        r.notUnderstood = Self.decodeSkipped(try row.optionalString("not_understood"))
        r.summary = try row.optionalString("summary")
        return r
    }

    /// An import's `BodyUpdate` as JSON (nil when it did nothing and left nothing out).
    static func encodeBody(_ body: BodyUpdate) -> String? {
        guard body != BodyUpdate(), let data = try? encoder.encode(body) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeBody(_ text: String?) -> BodyUpdate {
        guard let text, let body = try? JSONDecoder().decode(BodyUpdate.self, from: Data(text.utf8)) else { return BodyUpdate() }
        return body
    }

    static func encodeSkipped(_ skipped: [String: Int]) -> String? {
        guard !skipped.isEmpty, let data = try? encoder.encode(skipped) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeSkipped(_ text: String?) -> [String: Int] {
        guard let text, let skipped = try? JSONDecoder().decode([String: Int].self, from: Data(text.utf8)) else { return [:] }
        return skipped
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()

    static func summary(_ row: any ColumnReader, _ day: String) throws -> DailySummary {
        do {
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            return try decoder.decode(DailySummary.self, from: Data(try row.string("data").utf8))
        } catch {
            throw StoreError.corruptData("day \(day): \(error)")
        }
    }
}
