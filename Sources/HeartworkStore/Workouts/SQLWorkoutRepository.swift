import Foundation
import HeartworkCore
import HeartworkFormats
import SQLKit

struct SQLWorkoutRepository: WorkoutRepository {
    let database: DatabaseConnection
    /// Qualified, so joins with other tables read the same columns.
    static let columns = [
        "id", "user_id", "sport", "started_at", "indoor", "duration_s", "avg_hr", "min_hr", "max_hr", "kilocalories", "distance_m",
        "zone_none_s", "zone_low_s", "zone_moderate_s", "zone_high_s", "zone_red_line_s",
        "profile_age", "profile_resting_hr", "profile_max_hr", "profile_max_hr_method", "profile_weight_kg", "profile_sex",
        "rr_count", "track_count", "shared", "shared_at", "created_at", "device", "title", "notes",
    ].map { "workouts.\($0)" }.joined(separator: ", ")

    func insert(_ workout: WorkoutRecord, streams: WorkoutStreams) async throws {
        let (heartRate, rr, track) = Self.encoded(streams)
        let metrics = workout.metrics
        let zones = workout.metrics.secondsInZones
        let profile = workout.profile
        try await database.transaction { sql in
            // The same activity twice: a start within a second and the same device (or either
            // unknown). On PostgreSQL the user's row is locked so two uploads of one file at
            // once cannot both pass; SQLite has one writer.
            if database.engine == .postgres {
                _ = try await sql.readFirst("SELECT id FROM users WHERE id = \(bind: workout.userID) FOR UPDATE")
            }
            let start = workout.startedAt.millisecondsSince1970
            let sameDevice: SQLQueryString = workout.device.map { " AND (device IS NULL OR device = \(bind: $0))" } ?? ""
            if let existing = try await sql.readFirst(
                """
                SELECT id FROM workouts WHERE user_id = \(bind: workout.userID) AND started_at > \(bind: start - 1000) AND started_at < \(bind: start + 1000)\(sameDevice)
                ORDER BY started_at, id LIMIT 1
                """)
            {
                throw StoreError.duplicate(try existing.string("id"))
            }
            try await sql.raw(
                """
                INSERT INTO workouts (id, user_id, sport, started_at, indoor, duration_s, avg_hr, min_hr, max_hr, kilocalories, distance_m,
                    zone_none_s, zone_low_s, zone_moderate_s, zone_high_s, zone_red_line_s,
                    profile_age, profile_resting_hr, profile_max_hr, profile_max_hr_method, profile_weight_kg, profile_sex,
                    rr_count, track_count, shared, shared_at, created_at, device, title, notes)
                VALUES (\(bind: workout.id), \(bind: workout.userID), \(bind: workout.sport.rawValue), \(bind: workout.startedAt.millisecondsSince1970),
                    \(bind: workout.indoor ? 1 : 0), \(bind: metrics.durationSeconds), \(bind: metrics.averageHeartRate),
                    \(bind: metrics.minimumHeartRate), \(bind: metrics.maximumHeartRate), \(bind: metrics.kilocalories), \(bind: metrics.distanceMeters),
                    \(bind: zones?[0]), \(bind: zones?[1]), \(bind: zones?[2]), \(bind: zones?[3]), \(bind: zones?[4]),
                    \(bind: profile.ageYears), \(bind: profile.restingHeartRate), \(bind: profile.maximumHeartRate),
                    \(bind: profile.maximumHeartRateSource?.rawValue), \(bind: profile.weightKilograms), \(bind: profile.sex?.rawValue),
                    \(bind: workout.rrCount), \(bind: workout.trackCount), \(bind: workout.shared ? 1 : 0),
                    \(bind: workout.sharedAt?.millisecondsSince1970), \(bind: workout.createdAt.millisecondsSince1970), \(bind: workout.device),
                    \(bind: workout.title), \(bind: Self.encodeNotes(workout.notes)))
                """
            ).run()
            try await sql.raw(
                """
                INSERT INTO workout_streams (workout_id, heart_rate, rr, track)
                VALUES (\(bind: workout.id), \(bind: heartRate), \(bind: rr), \(bind: track))
                """
            ).run()
            if workout.shared { try await Self.enforceShareCap(sql, userID: workout.userID) }
        }
    }

    func replaceShorter(id: String, with workout: WorkoutRecord, streams: WorkoutStreams) async throws -> Bool {
        let (heartRate, rr, track) = Self.encoded(streams)
        let metrics = workout.metrics
        let zones = workout.metrics.secondsInZones
        let profile = workout.profile
        return try await database.transaction { sql in
            // Checked in the transaction: two longer copies at once replace it once each, the
            // longest last, never a longer one by a shorter.
            guard
                try await sql.readFirst(
                    "SELECT id FROM workouts WHERE id = \(bind: id) AND user_id = \(bind: workout.userID) AND duration_s < \(bind: metrics.durationSeconds)"
                ) != nil
            else { return false }
            try await sql.raw(
                """
                UPDATE workouts SET sport = \(bind: workout.sport.rawValue), started_at = \(bind: workout.startedAt.millisecondsSince1970),
                    indoor = \(bind: workout.indoor ? 1 : 0), duration_s = \(bind: metrics.durationSeconds), avg_hr = \(bind: metrics.averageHeartRate),
                    min_hr = \(bind: metrics.minimumHeartRate), max_hr = \(bind: metrics.maximumHeartRate), kilocalories = \(bind: metrics.kilocalories),
                    distance_m = \(bind: metrics.distanceMeters), zone_none_s = \(bind: zones?[0]), zone_low_s = \(bind: zones?[1]),
                    zone_moderate_s = \(bind: zones?[2]), zone_high_s = \(bind: zones?[3]), zone_red_line_s = \(bind: zones?[4]),
                    profile_age = \(bind: profile.ageYears), profile_resting_hr = \(bind: profile.restingHeartRate),
                    profile_max_hr = \(bind: profile.maximumHeartRate), profile_max_hr_method = \(bind: profile.maximumHeartRateSource?.rawValue),
                    profile_weight_kg = \(bind: profile.weightKilograms), profile_sex = \(bind: profile.sex?.rawValue),
                    rr_count = \(bind: workout.rrCount), track_count = \(bind: workout.trackCount), device = \(bind: workout.device),
                    title = COALESCE(\(bind: workout.title), title), notes = \(bind: Self.encodeNotes(workout.notes))
                WHERE id = \(bind: id)
                """
            ).run()
            try await sql.raw(
                "UPDATE workout_streams SET heart_rate = \(bind: heartRate), rr = \(bind: rr), track = \(bind: track) WHERE workout_id = \(bind: id)"
            ).run()
            return true
        }
    }

    /// The stream columns' bytes (`WorkoutStreamCodec`), for an insert and a replacement.
    static func encoded(_ streams: WorkoutStreams) -> (heartRate: Data, rr: Data, track: Data) {
        (
            Data(WorkoutStreamCodec.encodeHeartRate(streams.heartRate)), Data(WorkoutStreamCodec.encodeRRIntervals(streams.rrIntervalsMilliseconds)),
            Data(WorkoutStreamCodec.encodeTrack(streams.track))
        )
    }

    /// Unshares the oldest shared workouts (by start time) beyond the owner's cap; never deletes.
    static func enforceShareCap(_ sql: any SQLDatabase, userID: String) async throws {
        let maxShared = try await sql.readFirst("SELECT max_shared_workouts FROM users WHERE id = \(bind: userID)")?.int("max_shared_workouts") ?? 0
        let shared = try await sql.readAll(
            """
            SELECT id FROM workouts WHERE user_id = \(bind: userID) AND shared = 1 ORDER BY started_at DESC, id DESC
            """
        ).map { try $0.string("id") }
        for id in shared.dropFirst(max(0, maxShared)) {
            try await sql.raw("UPDATE workouts SET shared = 0, shared_at = NULL WHERE id = \(bind: id)").run()
        }
    }

    func list(userID: String, from: Date?, to: Date?, sharedOnly: Bool, page: Page) async throws -> [WorkoutRecord] {
        let lower = from?.millisecondsSince1970 ?? Int64.min
        let upper = to?.millisecondsSince1970 ?? Int64.max
        let sharedClause: SQLQueryString = sharedOnly ? " AND shared = 1" : ""
        return try await database.all(
            """
            SELECT \(unsafeRaw: Self.columns) FROM workouts
            WHERE user_id = \(bind: userID) AND started_at >= \(bind: lower) AND started_at < \(bind: upper)\(sharedClause)
            ORDER BY started_at DESC, id DESC LIMIT \(bind: page.limit) OFFSET \(bind: page.offset)
            """
        ).map(Self.record)
    }

    func find(id: String) async throws -> WorkoutRecord? {
        try await database.first("SELECT \(unsafeRaw: Self.columns) FROM workouts WHERE id = \(bind: id)").map(Self.record)
    }

    func streams(workoutID: String) async throws -> WorkoutStreams? {
        guard let row = try await database.first("SELECT heart_rate, rr, track FROM workout_streams WHERE workout_id = \(bind: workoutID)") else {
            return nil
        }
        do {
            return WorkoutStreams(
                heartRate: try WorkoutStreamCodec.decodeHeartRate([UInt8](try row.data("heart_rate"))),
                rrIntervalsMilliseconds: try WorkoutStreamCodec.decodeRRIntervals([UInt8](try row.data("rr"))),
                track: try WorkoutStreamCodec.decodeTrack([UInt8](try row.data("track"))))
        } catch let error as StreamDecodingError {
            throw StoreError.corruptData("workout \(workoutID): \(error)")
        }
    }

    func delete(id: String, userID: String) async throws -> Bool {
        try await database.transaction { sql in
            guard try await sql.readFirst("SELECT id FROM workouts WHERE id = \(bind: id) AND user_id = \(bind: userID)") != nil else {
                return false
            }
            try await sql.raw("DELETE FROM workout_streams WHERE workout_id = \(bind: id)").run()
            try await sql.raw("DELETE FROM workouts WHERE id = \(bind: id)").run()
            return true
        }
    }

    func setShared(id: String, userID: String, shared: Bool, at date: Date) async throws -> WorkoutRecord? {
        try await database.transaction { sql in
            guard let row = try await sql.readFirst("SELECT \(unsafeRaw: Self.columns) FROM workouts WHERE id = \(bind: id) AND user_id = \(bind: userID)") else {
                return nil
            }
            let workout = try Self.record(row)
            if shared && !workout.shared {
                // Sharing one that the cap would unshare at once (older than every shared one,
                // with the cap reached) is refused rather than silently undone.
                let cap = try await sql.readFirst("SELECT max_shared_workouts FROM users WHERE id = \(bind: userID)")?.int("max_shared_workouts") ?? 0
                let sharedStarts = try await sql.readAll(
                    """
                    SELECT started_at FROM workouts WHERE user_id = \(bind: userID) AND shared = 1 ORDER BY started_at DESC, id DESC
                    """
                ).map { try $0.date("started_at") }
                if sharedStarts.count >= cap, sharedStarts.prefix(cap).allSatisfy({ $0 >= workout.startedAt }) {
                    throw StoreError.limitReached(cap)
                }
                try await sql.raw(
                    """
                    UPDATE workouts SET shared = 1, shared_at = \(bind: date.millisecondsSince1970) WHERE id = \(bind: id)
                    """
                ).run()
                try await Self.enforceShareCap(sql, userID: userID)
            } else if !shared {
                try await sql.raw("UPDATE workouts SET shared = 0, shared_at = NULL WHERE id = \(bind: id)").run()
            }
            return try await sql.readFirst("SELECT \(unsafeRaw: Self.columns) FROM workouts WHERE id = \(bind: id)").map(Self.record)
        }
    }

    func sharedByFriends(of userID: String, limit: Int) async throws -> [WorkoutRecord] {
        try await database.all(
            """
            SELECT \(unsafeRaw: Self.columns)
            FROM workouts JOIN friendships ON friendships.friend_id = workouts.user_id
            WHERE friendships.user_id = \(bind: userID) AND workouts.shared = 1
            ORDER BY workouts.started_at DESC, workouts.id DESC LIMIT \(bind: max(1, min(limit, 100)))
            """
        ).map(Self.record)
    }

    func withIncompleteSnapshot(userID: String, fillable: SnapshotFields, limit: Int) async throws -> [WorkoutRecord] {
        // Only gaps the profile can fill: a user without a birth date does not have every
        // workout read again at each edit (the columns are fixed names, not input).
        let gaps = [
            (SnapshotFields.age, "profile_age"), (.restingHeartRate, "profile_resting_hr"), (.maximumHeartRate, "profile_max_hr"),
            (.weight, "profile_weight_kg"), (.sex, "profile_sex"),
        ]
        .filter { fillable.contains($0.0) }.map { "\($0.1) IS NULL" }
        guard !gaps.isEmpty else { return [] }
        return try await database.all(
            """
            SELECT \(unsafeRaw: Self.columns) FROM workouts
            WHERE user_id = \(bind: userID) AND (\(unsafeRaw: gaps.joined(separator: " OR ")))
            ORDER BY started_at, id LIMIT \(bind: max(1, min(limit, 10_000)))
            """
        ).map(Self.record)
    }

    func updateDerived(id: String, userID: String, profile: ProfileSnapshot, metrics: WorkoutMetrics) async throws {
        let zones = metrics.secondsInZones
        try await database.execute(
            """
            UPDATE workouts SET avg_hr = \(bind: metrics.averageHeartRate), min_hr = \(bind: metrics.minimumHeartRate),
                max_hr = \(bind: metrics.maximumHeartRate), kilocalories = \(bind: metrics.kilocalories), distance_m = \(bind: metrics.distanceMeters),
                zone_none_s = \(bind: zones?[0]), zone_low_s = \(bind: zones?[1]), zone_moderate_s = \(bind: zones?[2]),
                zone_high_s = \(bind: zones?[3]), zone_red_line_s = \(bind: zones?[4]),
                profile_age = \(bind: profile.ageYears), profile_resting_hr = \(bind: profile.restingHeartRate),
                profile_max_hr = \(bind: profile.maximumHeartRate), profile_max_hr_method = \(bind: profile.maximumHeartRateSource?.rawValue),
                profile_weight_kg = \(bind: profile.weightKilograms), profile_sex = \(bind: profile.sex?.rawValue)
            WHERE id = \(bind: id) AND user_id = \(bind: userID)
            """)
    }

    func count(userID: String) async throws -> Int {
        try await database.first("SELECT COUNT(*) AS total FROM workouts WHERE user_id = \(bind: userID)")?.int("total") ?? 0
    }

    static func record(_ row: any ColumnReader) throws -> WorkoutRecord {
        let zoneColumns = ["zone_none_s", "zone_low_s", "zone_moderate_s", "zone_high_s", "zone_red_line_s"]
        let zones = try zoneColumns.map { try row.optionalInt($0) }
        return WorkoutRecord(
            id: try row.string("id"), userID: try row.string("user_id"),
            sport: Sport(rawValue: try row.string("sport")) ?? .other, startedAt: try row.date("started_at"),
            indoor: try row.bool("indoor"),
            metrics: WorkoutMetrics(
                durationSeconds: try row.int("duration_s"),
                averageHeartRate: try row.optionalDouble("avg_hr"), minimumHeartRate: try row.optionalDouble("min_hr"),
                maximumHeartRate: try row.optionalDouble("max_hr"), secondsInZones: zones.contains(nil) ? nil : zones.compactMap { $0 },
                kilocalories: try row.optionalDouble("kilocalories"), distanceMeters: try row.optionalDouble("distance_m")),
            profile: ProfileSnapshot(
                ageYears: try row.optionalInt("profile_age"), restingHeartRate: try row.optionalDouble("profile_resting_hr"),
                maximumHeartRate: try row.optionalDouble("profile_max_hr"),
                maximumHeartRateSource: try row.optionalString("profile_max_hr_method").flatMap(MaximumHeartRateSource.init(rawValue:)),
                weightKilograms: try row.optionalDouble("profile_weight_kg"),
                sex: try row.optionalString("profile_sex").flatMap(Sex.init(rawValue:))),
            rrCount: try row.int("rr_count"), trackCount: try row.int("track_count"),
            shared: try row.bool("shared"), sharedAt: try row.optionalDate("shared_at"), createdAt: try row.date("created_at"),
            device: try row.optionalString("device"), title: try row.optionalString("title"),
            notes: Self.decodeNotes(try row.optionalString("notes")))
    }

    /// Notes as JSON text (nil when there are none).
    static func encodeNotes(_ notes: [WorkoutNote]) -> String? {
        guard !notes.isEmpty, let data = try? JSONEncoder().encode(notes) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeNotes(_ text: String?) -> [WorkoutNote] {
        guard let text, let notes = try? JSONDecoder().decode([WorkoutNote].self, from: Data(text.utf8)) else { return [] }
        return notes
    }
}
