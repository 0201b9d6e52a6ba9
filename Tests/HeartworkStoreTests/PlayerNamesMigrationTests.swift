import Foundation
import HeartworkTestSupport
import SQLKit
import Testing

@testable import HeartworkStore

/// Migration 028 (issue 25, FitLabTeam F3): players stored with one `name` get a first name
/// and a surname, split at the last space (one word: a first name and no surname), on both
/// engines; their `name` is unchanged, and running the split again changes nothing.
@Suite("Migration 028, player first name and surname")
struct PlayerNamesMigrationTests {
    @Test(arguments: TestDatabase.all)
    func existingNamesAreSplitAtTheLastSpace(_ engine: TestDatabase) async throws {
        try await engine.withFreshLocation { location in
            let user = UserRecord(username: "coach28", fullName: "Coach", email: "c28@example.org", passwordHash: "$2b$04$hash")
            let first = try await HeartworkStore.open(location, logger: TestDatabase.logger, connectionWaitSeconds: 60)
            do {
                try await first.users.create(user)
                try await first.shutdown()
            } catch {
                try? await first.shutdown()
                throw error
            }
            // The players table as it was before migration 028, with names as they were typed.
            let names = ["p1": "Ana María Ruiz", "p2": "Pelé", "p3": "  Bea   Lopez ", "p4": "Jo O'Neil"]
            let raw = try await DatabaseConnection.open(location, logger: TestDatabase.logger)
            do {
                try await raw.sql.raw("ALTER TABLE players DROP COLUMN first_name").run()
                try await raw.sql.raw("ALTER TABLE players DROP COLUMN surname").run()
                try await raw.sql.raw("DELETE FROM schema_migrations WHERE version = 28").run()
                for (id, name) in names.sorted(by: { $0.key < $1.key }) {
                    try await raw.sql.raw(
                        "INSERT INTO players (id, user_id, name, number, created_at) VALUES (\(bind: id), \(bind: user.id), \(bind: name), '7', 0)"
                    ).run()
                }
                try await raw.shutdown()
            } catch {
                try? await raw.shutdown()
                throw error
            }
            // Opening the store runs migration 028.
            let store = try await HeartworkStore.open(location, logger: TestDatabase.logger, connectionWaitSeconds: 60)
            do {
                let players = Dictionary(uniqueKeysWithValues: try await store.teams.players(userID: user.id).map { ($0.id, $0) })
                #expect(players["p1"]?.firstName == "Ana María" && players["p1"]?.surname == "Ruiz")
                #expect(players["p2"]?.firstName == "Pelé" && players["p2"]?.surname == "", "one word: a first name, no surname")
                #expect(players["p3"]?.firstName == "Bea" && players["p3"]?.surname == "Lopez")
                #expect(players["p4"]?.firstName == "Jo" && players["p4"]?.surname == "O'Neil")
                #expect(players["p1"]?.name == "Ana María Ruiz" && players["p2"]?.name == "Pelé")
                let stored = try await store.database.sql.raw("SELECT name FROM players WHERE id = 'p3'").first()
                #expect(try stored?.decode(column: "name", as: String.self) == "  Bea   Lopez ", "the stored name is left as it was")
                let applied = try await store.database.sql.raw("SELECT version FROM schema_migrations WHERE version = 28").first()
                #expect(applied != nil)
                // Nothing left to split: running it again changes nothing.
                #expect(try await SplitPlayerNames.run(store.database.sql, batchSize: 2) == 0)
                print("migration 028 (\(engine)): " + names.keys.sorted().map { "\(names[$0]!) → [\(players[$0]!.firstName)] [\(players[$0]!.surname)]" }.joined(separator: "; "))
                try await store.shutdown()
            } catch {
                try? await store.shutdown()
                throw error
            }
        }
    }
}
