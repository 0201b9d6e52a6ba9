import Foundation
import HeartworkCore
import SQLKit

struct SQLUserRepository: UserRepository {
    let database: DatabaseConnection

    static let columns = """
        users.id, username, full_name, email, password_hash, status, date_of_birth, sex, height_m, max_hr_method, \
        measured_max_hr, units, time_zone, auto_share, max_shared_workouts, users.created_at, \
        (SELECT COUNT(*) FROM user_photos p WHERE p.user_id = users.id) AS photo_count
        """

    func create(_ user: UserRecord) async throws {
        do {
            try await database.execute(
                """
                INSERT INTO users (id, username, username_key, full_name, full_name_key, email, email_key, password_hash, status,
                    date_of_birth, sex, height_m, max_hr_method, measured_max_hr, units, time_zone, auto_share, max_shared_workouts, created_at)
                VALUES (\(bind: user.id), \(bind: user.username), \(bind: user.username.lowercased()), \(bind: user.fullName),
                    \(bind: user.fullName.lowercased()), \(bind: user.email), \(bind: EmailKey.of(user.email)), \(bind: user.passwordHash), \(bind: user.status),
                    \(bind: user.dateOfBirth?.description), \(bind: user.sex?.rawValue), \(bind: user.heightMeters),
                    \(bind: user.maxHeartRateSource.rawValue), \(bind: user.measuredMaxHeartRate), \(bind: user.units.rawValue), \(bind: user.timeZone),
                    \(bind: user.autoShareWorkouts ? 1 : 0), \(bind: user.maxSharedWorkouts), \(bind: user.createdAt.millisecondsSince1970))
                """)
        } catch  where StoreError.isUniqueViolation(error) {
            throw StoreError.conflict("the username '\(user.username)' is taken")
        }
    }

    func find(id: String) async throws -> UserRecord? {
        try await database.first("SELECT \(unsafeRaw: Self.columns) FROM users WHERE id = \(bind: id)").map(Self.record)
    }

    func find(username: String) async throws -> UserRecord? {
        try await database.first("SELECT \(unsafeRaw: Self.columns) FROM users WHERE username_key = \(bind: username.lowercased())").map(Self.record)
    }

    func find(email: String, limit: Int) async throws -> [UserRecord] {
        try await database.all(
            """
            SELECT \(unsafeRaw: Self.columns) FROM users WHERE email_key = \(bind: EmailKey.of(email))
            ORDER BY users.created_at, users.id LIMIT \(bind: limit)
            """
        ).map(Self.record)
    }

    func search(_ text: String, excluding userID: String, page: Page) async throws -> [UserRecord] {
        let pattern = likePattern(containing: text)
        return try await database.all(
            """
            SELECT \(unsafeRaw: Self.columns) FROM users
            WHERE id <> \(bind: userID) AND (username_key LIKE \(bind: pattern) ESCAPE '\\' OR full_name_key LIKE \(bind: pattern) ESCAPE '\\')
            ORDER BY username_key LIMIT \(bind: page.limit) OFFSET \(bind: page.offset)
            """
        ).map(Self.record)
    }

    func update(userID: String, _ changes: UserChanges, check: @escaping @Sendable (UserRecord) throws -> Void) async throws -> UserRecord? {
        let lock: SQLQueryString = database.engine == .postgres ? " FOR UPDATE" : ""
        return try await database.transaction { sql in
            guard let row = try await sql.readFirst("SELECT \(unsafeRaw: Self.columns) FROM users WHERE id = \(bind: userID)\(lock)") else {
                return nil
            }
            let updated = changes.applied(to: try Self.record(row))
            try check(updated)
            let assignments = Self.assignments(changes)
            guard !assignments.isEmpty else { return updated }
            try await sql.raw("UPDATE users SET \(assignments.joined(separator: ", ")) WHERE id = \(bind: userID)").run()
            return updated
        }
    }

    /// `column = value` for each changed field, and nothing else.
    private static func assignments(_ changes: UserChanges) -> [SQLQueryString] {
        var list = [SQLQueryString]()
        let (profile, settings) = (changes.profile, changes.settings)
        if let fullName = profile.fullName {
            list.append("full_name = \(bind: fullName)")
            list.append("full_name_key = \(bind: fullName.lowercased())")
        }
        if let email = profile.email {
            list.append("email = \(bind: email)")
            list.append("email_key = \(bind: EmailKey.of(email))")
        }
        if let status = profile.status { list.append("status = \(bind: status)") }
        if let day = profile.dateOfBirth { list.append("date_of_birth = \(bind: day.value?.description)") }
        if let sex = profile.sex { list.append("sex = \(bind: sex.value?.rawValue)") }
        if let height = profile.heightMeters { list.append("height_m = \(bind: height.value)") }
        if let source = profile.maxHeartRateSource { list.append("max_hr_method = \(bind: source.rawValue)") }
        if let measured = profile.measuredMaxHeartRate { list.append("measured_max_hr = \(bind: measured.value)") }
        if let units = profile.units { list.append("units = \(bind: units.rawValue)") }
        if let timeZone = profile.timeZone { list.append("time_zone = \(bind: timeZone.value)") }
        if let share = settings.autoShareWorkouts { list.append("auto_share = \(bind: share ? 1 : 0)") }
        if let maximum = settings.maxSharedWorkouts { list.append("max_shared_workouts = \(bind: maximum)") }
        return list
    }

    func updatePasswordHash(userID: String, passwordHash: String) async throws {
        try await database.execute("UPDATE users SET password_hash = \(bind: passwordHash) WHERE id = \(bind: userID)")
    }

    func setPhoto(userID: String, contentType: String, data: Data) async throws {
        try await database.transaction { sql in
            try await sql.raw("DELETE FROM user_photos WHERE user_id = \(bind: userID)").run()
            try await sql.raw("INSERT INTO user_photos (user_id, content_type, data) VALUES (\(bind: userID), \(bind: contentType), \(bind: data))").run()
        }
    }

    func photo(userID: String) async throws -> (contentType: String, data: Data)? {
        guard let row = try await database.first("SELECT content_type, data FROM user_photos WHERE user_id = \(bind: userID)") else { return nil }
        return (try row.string("content_type"), try row.data("data"))
    }

    static func record(_ row: any ColumnReader) throws -> UserRecord {
        UserRecord(
            id: try row.string("id"), username: try row.string("username"), fullName: try row.string("full_name"),
            email: try row.string("email"), passwordHash: try row.string("password_hash"), status: try row.string("status"),
            dateOfBirth: try row.optionalString("date_of_birth").flatMap { CalendarDay(iso: $0) },
            sex: try row.optionalString("sex").flatMap(Sex.init(rawValue:)), heightMeters: try row.optionalDouble("height_m"),
            maxHeartRateSource: MaximumHeartRateSource(rawValue: try row.string("max_hr_method")) ?? .default,
            measuredMaxHeartRate: try row.optionalDouble("measured_max_hr"),
            units: UnitSystem(rawValue: try row.string("units")) ?? .metric, timeZone: try row.optionalString("time_zone"),
            autoShareWorkouts: try row.bool("auto_share"), maxSharedWorkouts: try row.int("max_shared_workouts"),
            createdAt: try row.date("created_at"), hasPhoto: try row.int("photo_count") > 0)
    }
}
