import Foundation
import HeartworkTestSupport
import SQLKit
import Testing

@testable import HeartworkStore

/// Migration 032 (issue 25, FitLabTeam F4): a team's photo, on both engines: a database at
/// 031 gains `team_photos`; a photo is stored, replaced, read only by its coach, and goes with
/// its team.
@Suite("Migration 032, team photos")
struct TeamPhotoMigrationTests {
    @Test(arguments: TestDatabase.all)
    func aDatabaseAt031GainsTeamPhotos(_ engine: TestDatabase) async throws {
        try await engine.withFreshLocation { location in
            let coach = UserRecord(username: "coach", fullName: "Coach", email: "c@example.org", passwordHash: "$2b$04$hash")
            let rival = UserRecord(username: "rival", fullName: "Rival", email: "r@example.org", passwordHash: "$2b$04$hash")
            let team = TeamRecord(userID: coach.id, name: "Squad")
            // A database as 031 left it: no team_photos, 032 not recorded.
            let first = try await HeartworkStore.open(location, logger: TestDatabase.logger, connectionWaitSeconds: 60)
            do {
                try await first.users.create(coach)
                try await first.users.create(rival)
                try await first.teams.createTeam(team)
                try await first.shutdown()
            } catch {
                try? await first.shutdown()
                throw error
            }
            let raw = try await DatabaseConnection.open(location, logger: TestDatabase.logger)
            do {
                try await raw.sql.raw("DROP TABLE team_photos").run()
                try await raw.sql.raw("DROP INDEX team_sessions_user_state").run()
                try await raw.sql.raw("DELETE FROM schema_migrations WHERE version = 32").run()
                try await raw.shutdown()
            } catch {
                try? await raw.shutdown()
                throw error
            }
            // Opening the store runs 032.
            let store = try await HeartworkStore.open(location, logger: TestDatabase.logger, connectionWaitSeconds: 60)
            do {
                #expect(try await store.teams.team(id: team.id, userID: coach.id)?.hasPhoto == false)
                try await store.teams.setTeamPhoto(teamID: team.id, contentType: "image/png", data: Data([1, 2, 3]))
                try await store.teams.setTeamPhoto(teamID: team.id, contentType: "image/jpeg", data: Data([4, 5]))
                let photo = try #require(try await store.teams.teamPhoto(teamID: team.id, userID: coach.id))
                #expect(photo.contentType == "image/jpeg" && photo.data == Data([4, 5]))
                #expect(try await store.teams.teamPhoto(teamID: team.id, userID: rival.id) == nil, "another coach's team")
                #expect(try await store.teams.teams(userID: coach.id).map(\.hasPhoto) == [true])
                #expect(try await store.teams.deleteTeam(id: team.id, userID: coach.id))
                try await store.shutdown()
            } catch {
                try? await store.shutdown()
                throw error
            }
            let check = try await DatabaseConnection.open(location, logger: TestDatabase.logger)
            do {
                let versions = try await check.sql.raw("SELECT version FROM schema_migrations WHERE version = 32").all()
                let left = try await check.sql.raw("SELECT COUNT(*) AS n FROM team_photos").first()?.decode(column: "n", as: Int.self)
                #expect(versions.count == 1 && left == 0, "the photo went with its team")
                try await check.shutdown()
            } catch {
                try? await check.shutdown()
                throw error
            }
        }
    }
}
