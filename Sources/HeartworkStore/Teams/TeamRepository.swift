import Foundation

/// A coach's players, teams and team sessions. Every call is scoped to the owning user: an
/// id of someone else's record finds nothing.
public protocol TeamRepository: Sendable {
    /// At most `limit` players a coach (`StoreError.limitReached`), counted in the same transaction.
    func createPlayer(_ player: PlayerRecord, limit: Int) async throws
    func players(userID: String) async throws -> [PlayerRecord]
    func player(id: String, userID: String) async throws -> PlayerRecord?
    /// Saves every field; throws `StoreError.conflict` when the sensor is already worn by
    /// another player of the same team.
    func updatePlayer(_ player: PlayerRecord) async throws
    func deletePlayer(id: String, userID: String) async throws -> Bool
    func setPlayerPhoto(playerID: String, contentType: String, data: Data) async throws
    func playerPhoto(playerID: String, userID: String) async throws -> (contentType: String, data: Data)?

    /// At most `limit` teams a coach (`StoreError.limitReached`), counted in the same transaction.
    func createTeam(_ team: TeamRecord, limit: Int) async throws
    func teams(userID: String) async throws -> [TeamRecord]
    func team(id: String, userID: String) async throws -> TeamRecord?
    func renameTeam(id: String, userID: String, to name: String) async throws -> Bool
    func setTeamPhoto(teamID: String, contentType: String, data: Data) async throws
    func teamPhoto(teamID: String, userID: String) async throws -> (contentType: String, data: Data)?
    /// Each team's saved and unreviewed sessions, by team id (one query; a team without saved
    /// sessions is absent).
    func sessionCounts(userID: String) async throws -> [String: TeamSessionCounts]
    /// The team and its sessions go; its players stay, in no team.
    func deleteTeam(id: String, userID: String) async throws -> Bool

    /// Creates the session unless the team already has one recording or stopped-unsaved
    /// (`StoreError.conflict`).
    func createSession(_ session: TeamSessionRecord, now: Date) async throws
    func sessions(teamID: String, userID: String) async throws -> [TeamSessionRecord]
    func session(id: String, userID: String) async throws -> TeamSessionRecord?
    func updateSession(id: String, userID: String, _ changes: TeamSessionChanges) async throws -> Bool
    func deleteSession(id: String, userID: String) async throws -> Bool
}

extension TeamRepository {
    /// Stores a team whatever the coach has (tools and tests).
    public func createTeam(_ team: TeamRecord) async throws { try await createTeam(team, limit: .max) }
}
