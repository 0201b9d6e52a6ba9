import Foundation
import HeartworkCore
import SQLKit

struct SQLMeasurementRepository: MeasurementRepository {
    let database: DatabaseConnection

    func add(userID: String, _ measurement: MeasurementRecord) async throws {
        try await database.execute(
            """
            INSERT INTO measurements (id, user_id, kind, measured_at, value, source)
            VALUES (\(bind: measurement.id), \(bind: userID), \(bind: measurement.kind.rawValue),
                \(bind: measurement.measuredAt.millisecondsSince1970), \(bind: measurement.value), \(bind: measurement.source))
            """)
    }

    func addTyped(userID: String, _ measurement: MeasurementRecord, replacingImportedIn day: Range<Date>) async throws -> Int {
        try await database.transaction { sql in
            let imported = try await sql.readAll(
                """
                SELECT id FROM measurements WHERE user_id = \(bind: userID) AND kind = \(bind: measurement.kind.rawValue)
                    AND source IS NOT NULL AND measured_at >= \(bind: day.lowerBound.millisecondsSince1970)
                    AND measured_at < \(bind: day.upperBound.millisecondsSince1970)
                """)
            for row in imported {
                let id = try row.string("id")
                try await sql.raw("DELETE FROM measurements WHERE id = \(bind: id)").run()
            }
            try await sql.raw(
                """
                INSERT INTO measurements (id, user_id, kind, measured_at, value, source)
                VALUES (\(bind: measurement.id), \(bind: userID), \(bind: measurement.kind.rawValue),
                    \(bind: measurement.measuredAt.millisecondsSince1970), \(bind: measurement.value), \(bind: measurement.source))
                """
            ).run()
            return imported.count
        }
    }

    func list(userID: String, kind: MeasurementKind) async throws -> [MeasurementRecord] {
        try await database.all(
            """
            SELECT id, kind, measured_at, value, source FROM measurements
            WHERE user_id = \(bind: userID) AND kind = \(bind: kind.rawValue) ORDER BY measured_at, id
            """
        ).map(Self.record)
    }

    func latest(userID: String, kind: MeasurementKind, atOrBefore date: Date?) async throws -> MeasurementRecord? {
        let bound = date?.millisecondsSince1970 ?? Int64.max
        return try await database.first(
            """
            SELECT id, kind, measured_at, value, source FROM measurements
            WHERE user_id = \(bind: userID) AND kind = \(bind: kind.rawValue) AND measured_at <= \(bind: bound)
            ORDER BY measured_at DESC, id DESC LIMIT 1
            """
        ).map(Self.record)
    }

    func delete(id: String, userID: String, kind: MeasurementKind) async throws -> Bool {
        try await database.transaction { sql in
            guard
                try await sql.readFirst(
                    """
                    SELECT id FROM measurements WHERE id = \(bind: id) AND user_id = \(bind: userID) AND kind = \(bind: kind.rawValue)
                    """) != nil
            else { return false }
            try await sql.raw("DELETE FROM measurements WHERE id = \(bind: id)").run()
            return true
        }
    }

    static func record(_ row: any ColumnReader) throws -> MeasurementRecord {
        let kindName = try row.string("kind")
        guard let kind = MeasurementKind(rawValue: kindName) else { throw StoreError.corruptData("unknown measurement kind '\(kindName)'") }
        return MeasurementRecord(
            id: try row.string("id"), kind: kind, measuredAt: try row.date("measured_at"), value: try row.double("value"),
            source: try row.optionalString("source"))
    }
}
