import Foundation
import HeartworkCore
import SQLKit

struct SQLUserRepository: UserRepository {
    let database: DatabaseConnection
    private var sql: any SQLDatabase { database.sql }

    private static let columns = """
        id, username, full_name, email, password_hash, status, date_of_birth, sex, height_m, max_hr_method, \
        measured_max_hr, units, auto_share, max_shared_workouts, created_at, \
        (SELECT COUNT(*) FROM user_photos p WHERE p.user_id = users.id) AS photo_count
        """

    func create(_ user: UserRecord) async throws {
        do {
            try await database.execute("""
                INSERT INTO users (id, username, username_key, full_name, full_name_key, email, password_hash, status,
                    date_of_birth, sex, height_m, max_hr_method, measured_max_hr, units, auto_share, max_shared_workouts, created_at)
                VALUES (\(bind: user.id), \(bind: user.username), \(bind: user.username.lowercased()), \(bind: user.fullName),
                    \(bind: user.fullName.lowercased()), \(bind: user.email), \(bind: user.passwordHash), \(bind: user.status),
                    \(bind: user.dateOfBirth), \(bind: user.sex?.rawValue), \(bind: user.heightMeters), \(bind: user.maxHeartRateMethod),
                    \(bind: user.measuredMaxHeartRate), \(bind: user.units), \(bind: user.autoShareWorkouts ? 1 : 0),
                    \(bind: user.maxSharedWorkouts), \(bind: user.createdAt.millisecondsSince1970))
                """)
        } catch where isUniqueViolation(error) {
            throw StoreError.conflict("the username '\(user.username)' is taken")
        }
    }

    func find(id: String) async throws -> UserRecord? {
        try await database.first("SELECT \(unsafeRaw: Self.columns) FROM users WHERE id = \(bind: id)").map(Self.record)
    }

    func find(username: String) async throws -> UserRecord? {
        try await database.first("SELECT \(unsafeRaw: Self.columns) FROM users WHERE username_key = \(bind: username.lowercased())").map(Self.record)
    }

    func search(_ text: String, excluding userID: String, page: Page) async throws -> [UserRecord] {
        let pattern = likePattern(containing: text)
        return try await database.all("""
            SELECT \(unsafeRaw: Self.columns) FROM users
            WHERE id <> \(bind: userID) AND (username_key LIKE \(bind: pattern) ESCAPE '\\' OR full_name_key LIKE \(bind: pattern) ESCAPE '\\')
            ORDER BY username_key LIMIT \(bind: page.limit) OFFSET \(bind: page.offset)
            """).map(Self.record)
    }

    func update(_ user: UserRecord) async throws {
        try await database.execute("""
            UPDATE users SET full_name = \(bind: user.fullName), full_name_key = \(bind: user.fullName.lowercased()),
                email = \(bind: user.email), status = \(bind: user.status), date_of_birth = \(bind: user.dateOfBirth),
                sex = \(bind: user.sex?.rawValue), height_m = \(bind: user.heightMeters), max_hr_method = \(bind: user.maxHeartRateMethod),
                measured_max_hr = \(bind: user.measuredMaxHeartRate), units = \(bind: user.units),
                auto_share = \(bind: user.autoShareWorkouts ? 1 : 0), max_shared_workouts = \(bind: user.maxSharedWorkouts)
            WHERE id = \(bind: user.id)
            """)
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

    func addWeight(userID: String, _ entry: MeasurementEntry) async throws {
        try await database.execute("""
            INSERT INTO weight_entries (id, user_id, measured_at, kilograms)
            VALUES (\(bind: entry.id), \(bind: userID), \(bind: entry.measuredAt.millisecondsSince1970), \(bind: entry.value))
            """)
    }

    func weights(userID: String) async throws -> [MeasurementEntry] {
        try await database.all("SELECT id, measured_at, kilograms AS value FROM weight_entries WHERE user_id = \(bind: userID) ORDER BY measured_at, id").map(Self.measurement)
    }

    func addRestingHeartRate(userID: String, _ entry: MeasurementEntry) async throws {
        try await database.execute("""
            INSERT INTO resting_hr_entries (id, user_id, measured_at, bpm)
            VALUES (\(bind: entry.id), \(bind: userID), \(bind: entry.measuredAt.millisecondsSince1970), \(bind: entry.value))
            """)
    }

    func restingHeartRates(userID: String) async throws -> [MeasurementEntry] {
        try await database.all("SELECT id, measured_at, bpm AS value FROM resting_hr_entries WHERE user_id = \(bind: userID) ORDER BY measured_at, id").map(Self.measurement)
    }

    static func record(_ row: any ColumnReader) throws -> UserRecord {
        UserRecord(
            id: try row.string("id"), username: try row.string("username"), fullName: try row.string("full_name"),
            email: try row.string("email"), passwordHash: try row.string("password_hash"), status: try row.string("status"),
            dateOfBirth: try row.optionalString("date_of_birth"), sex: try row.optionalString("sex").flatMap(Sex.init(rawValue:)),
            heightMeters: try row.optionalDouble("height_m"), maxHeartRateMethod: try row.string("max_hr_method"),
            measuredMaxHeartRate: try row.optionalDouble("measured_max_hr"), units: try row.string("units"),
            autoShareWorkouts: try row.bool("auto_share"), maxSharedWorkouts: try row.int("max_shared_workouts"),
            createdAt: try row.date("created_at"), hasPhoto: try row.int("photo_count") > 0)
    }

    static func measurement(_ row: any ColumnReader) throws -> MeasurementEntry {
        MeasurementEntry(id: try row.string("id"), measuredAt: try row.date("measured_at"), value: try row.double("value"))
    }
}
