import Foundation
import SQLKit

/// Runs the migrations a database lacks, at start, each in its own transaction.
enum Migrations {
    static let all: [Migration] = [
        .initial, .measurements, .timeZone, .gateways, .teams, .matches, .matchWorkouts, .strength, .strengthBaselines, .workoutDevice, .healthBlocks, .dailyHealth,
        .healthSettings, .hostileInput, .workoutNotes, .strengthBar, .webhookJobs, .recordings, .matchSources, .phoneSync,
        .importDetails, .importedBody,
        .compactBlocks,
        .sensorLog,
        .customExercises,
        .emailKey,
        .sessionContext,
        .playerNames,
        .manualSleep,
        .lifestyleChosen,
        .webPush,
        .teamPhoto,
        .dailyFormula,
        .sensorPending,
        .issue40,
        .strapFeeds,
    ]

    /// Applies what is missing. On PostgreSQL an advisory lock keeps two instances
    /// starting together from racing; SQLite's write lock does the same.
    static func run(on database: DatabaseConnection) async throws -> [Int] {
        try await database.sql.raw("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)").run()
        var applied = [Int]()
        for migration in all {
            let ran = try await database.transaction { sql in
                if database.engine == .postgres {
                    try await sql.raw("SELECT pg_advisory_xact_lock(7261943)").run()
                }
                let existing = try await sql.raw("SELECT version FROM schema_migrations WHERE version = \(bind: migration.version)").first()
                guard existing == nil else { return false }
                for statement in migration.statements(database.engine) {
                    try await sql.raw(SQLQueryString(statement)).run()
                }
                try await Migration.work[migration.version]?(sql)
                try await sql.raw("INSERT INTO schema_migrations (version, applied_at) VALUES (\(bind: migration.version), \(bind: Date().millisecondsSince1970))").run()
                return true
            }
            if ran { applied.append(migration.version) }
        }
        return applied
    }
}
