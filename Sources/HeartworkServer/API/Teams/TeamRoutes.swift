import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkModel
import Hummingbird

/// A coach's players, teams and team sessions (FitLabTeam): docs/PROTOCOL.md §8 and the
/// OpenAPI document.
struct TeamRoutes {
    let services: HeartworkServices

    func register(on api: RouterGroup<AuthenticatedContext>) {
        registerPlayers(on: api)
        registerTeams(on: api)
        registerSessions(on: api)
    }

    private func registerPlayers(on api: RouterGroup<AuthenticatedContext>) {
        api.get("players", use: getPlayers)
        api.post("players", use: postPlayers)
        api.get("players/:playerID", use: getPlayersPlayerID)
        api.patch("players/:playerID", use: patchPlayersPlayerID)
        api.delete("players/:playerID", use: deletePlayersPlayerID)
        api.put("players/:playerID/photo", use: putPlayersPlayerIDPhoto)
        api.get("players/:playerID/photo", use: getPlayersPlayerIDPhoto)
    }

    /// GET /api/players
    func getPlayers(_ request: Request, context: AuthenticatedContext) async throws -> PlayerListResponse {
        PlayerListResponse(players: try await services.teams.players(of: context.user).map(PlayerResponse.init))
    }

    /// POST /api/players
    func postPlayers(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let input = try PlayerRequest.input(try await RequestBody.jsonObject(request, allowed: PlayerRequest.fields))
        let player = try await services.teams.createPlayer(input, for: context.user)
        var response = try APIJSON.response(PlayerResponse(player), status: .created)
        response.headers[.location] = "/api/players/\(player.id)"
        return response
    }

    /// GET /api/players/:playerID
    func getPlayersPlayerID(_ request: Request, context: AuthenticatedContext) async throws -> PlayerResponse {
        PlayerResponse(try await services.teams.player(try context.parameters.require("playerID"), of: context.user))
    }

    /// PATCH /api/players/:playerID
    func patchPlayersPlayerID(_ request: Request, context: AuthenticatedContext) async throws -> PlayerResponse {
        let input = try PlayerRequest.input(try await RequestBody.jsonObject(request, allowed: PlayerRequest.fields))
        return PlayerResponse(try await services.teams.updatePlayer(try context.parameters.require("playerID"), input, of: context.user))
    }

    /// DELETE /api/players/:playerID
    func deletePlayersPlayerID(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await services.teams.deletePlayer(try context.parameters.require("playerID"), of: context.user)
        return .noContent
    }

    /// PUT /api/players/:playerID/photo
    func putPlayersPlayerIDPhoto(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("playerID")
        return try await PhotoHTTP.put(request, limit: TeamService.maximumPhotoBytes) { try await services.teams.setPhoto(id, of: context.user, bytes: $0) }
    }

    /// GET /api/players/:playerID/photo
    func getPlayersPlayerIDPhoto(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        PhotoHTTP.response(try await services.teams.photo(try context.parameters.require("playerID"), of: context.user))
    }

    private func registerTeams(on api: RouterGroup<AuthenticatedContext>) {
        api.get("teams", use: getTeams)
        api.post("teams", use: postTeams)
        api.get("teams/:teamID", use: getTeamsTeamID)
        api.patch("teams/:teamID", use: patchTeamsTeamID)
        api.delete("teams/:teamID", use: deleteTeamsTeamID)
        api.put("teams/:teamID/players/:playerID", use: putTeamsTeamIDPlayersPlayerID)
        api.delete("teams/:teamID/players/:playerID", use: deleteTeamsTeamIDPlayersPlayerID)
        api.get("teams/:teamID/board", use: getTeamsTeamIDBoard)
        api.put("teams/:teamID/photo", use: putTeamsTeamIDPhoto)
        api.get("teams/:teamID/photo", use: getTeamsTeamIDPhoto)
    }

    /// PUT /api/teams/:teamID/photo
    func putTeamsTeamIDPhoto(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("teamID")
        return try await PhotoHTTP.put(request, limit: TeamService.maximumPhotoBytes) { try await services.teams.setTeamPhoto(id, of: context.user, bytes: $0) }
    }

    /// GET /api/teams/:teamID/photo
    func getTeamsTeamIDPhoto(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        PhotoHTTP.response(try await services.teams.teamPhoto(try context.parameters.require("teamID"), of: context.user))
    }

    /// GET /api/teams
    func getTeams(_ request: Request, context: AuthenticatedContext) async throws -> TeamListResponse {
        let players = try await services.teams.players(of: context.user)
        let counts = try await services.teams.sessionCounts(of: context.user)
        return TeamListResponse(
            teams: try await services.teams.teams(of: context.user).map { team in
                TeamResponse(team, players: players.filter { $0.teamID == team.id }, counts: counts[team.id])
            })
    }

    /// POST /api/teams
    func postTeams(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await RequestBody.jsonObject(request, allowed: ["name"], limit: 4 * 1024)
        let team = try await services.teams.createTeam(name: try body.string("name"), for: context.user)
        var response = try APIJSON.response(TeamResponse(team, players: [], counts: nil), status: .created)
        response.headers[.location] = "/api/teams/\(team.id)"
        return response
    }

    /// GET /api/teams/:teamID
    func getTeamsTeamID(_ request: Request, context: AuthenticatedContext) async throws -> TeamResponse {
        let id = try context.parameters.require("teamID")
        let team = try await services.teams.team(id, of: context.user)
        return TeamResponse(
            team, players: try await services.teams.members(of: id, for: context.user), counts: try await services.teams.sessionCounts(of: context.user)[id])
    }

    /// PATCH /api/teams/:teamID
    func patchTeamsTeamID(_ request: Request, context: AuthenticatedContext) async throws -> TeamResponse {
        let body = try await RequestBody.jsonObject(request, allowed: ["name"], limit: 4 * 1024)
        let id = try context.parameters.require("teamID")
        let team = try await services.teams.renameTeam(id, of: context.user, to: try body.string("name"))
        return TeamResponse(
            team, players: try await services.teams.members(of: id, for: context.user), counts: try await services.teams.sessionCounts(of: context.user)[id])
    }

    /// DELETE /api/teams/:teamID
    func deleteTeamsTeamID(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await services.teams.deleteTeam(try context.parameters.require("teamID"), of: context.user)
        return .noContent
    }

    /// PUT /api/teams/:teamID/players/:playerID
    func putTeamsTeamIDPlayersPlayerID(_ request: Request, context: AuthenticatedContext) async throws -> PlayerResponse {
        PlayerResponse(
            try await services.teams.addPlayer(
                try context.parameters.require("playerID"), to: try context.parameters.require("teamID"), for: context.user))
    }

    /// DELETE /api/teams/:teamID/players/:playerID
    func deleteTeamsTeamIDPlayersPlayerID(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await services.teams.removePlayer(
            try context.parameters.require("playerID"), from: try context.parameters.require("teamID"), for: context.user)
        return .noContent
    }

    /// GET /api/teams/:teamID/board
    func getTeamsTeamIDBoard(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let board = try await services.teamSessions.board(of: try context.parameters.require("teamID"), for: context.user)
        return try APIJSON.response(TeamBoardResponse(board))
    }

    private func registerSessions(on api: RouterGroup<AuthenticatedContext>) {
        api.get("teams/:teamID/sessions", use: getTeamsTeamIDSessions)
        api.post("teams/:teamID/sessions", use: postTeamsTeamIDSessions)
        api.get("team-sessions/:sessionID", use: getTeamSessionsSessionID)
        api.patch("team-sessions/:sessionID", use: patchTeamSessionsSessionID)
        api.delete("team-sessions/:sessionID", use: deleteTeamSessionsSessionID)
        api.post("team-sessions/:sessionID/stop", use: postTeamSessionsSessionIDStop)
        api.post("team-sessions/:sessionID/save", use: postTeamSessionsSessionIDSave)
        api.get("team-sessions/:sessionID/review", use: getTeamSessionsSessionIDReview)
        api.get("team-sessions/:sessionID/export", use: getTeamSessionsSessionIDExport)
    }

    /// GET /api/teams/:teamID/sessions
    func getTeamsTeamIDSessions(_ request: Request, context: AuthenticatedContext) async throws -> TeamSessionListResponse {
        let parameters = request.uri.queryParameters
        let input = SessionContextInput(
            time: parameters.get("context.time"), moment: parameters.get("context.moment"), situation: parameters.get("context.situation"),
            state: parameters.get("context.state"))
        let filter: SessionContext
        do {
            filter = try input.context()
        } catch {
            // A query's mistake is a malformed request (400), as elsewhere.
            throw Problem.badRequest(error.detail, field: error.field)
        }
        return TeamSessionListResponse(
            sessions: try await services.teamSessions.sessions(of: try context.parameters.require("teamID"), for: context.user, matching: filter)
                .map { TeamSessionResponse($0) })
    }

    /// POST /api/teams/:teamID/sessions
    func postTeamsTeamIDSessions(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let start = try TeamSessionStartRequest.read(try await RequestBody.jsonObject(request, allowed: TeamSessionStartRequest.fields))
        let session = try await services.teamSessions.start(
            teamID: try context.parameters.require("teamID"), participants: start.participants, countdownSeconds: start.countdown,
            plannedSeconds: start.duration, context: start.context, correction: start.correction, for: context.user)
        var response = try APIJSON.response(TeamSessionResponse(session), status: .created)
        response.headers[.location] = "/api/team-sessions/\(session.id)"
        return response
    }

    /// GET /api/team-sessions/:sessionID
    func getTeamSessionsSessionID(_ request: Request, context: AuthenticatedContext) async throws -> TeamSessionResponse {
        TeamSessionResponse(try await services.teamSessions.session(try context.parameters.require("sessionID"), of: context.user))
    }

    /// PATCH /api/team-sessions/:sessionID
    func patchTeamSessionsSessionID(_ request: Request, context: AuthenticatedContext) async throws -> TeamSessionResponse {
        let body = try await RequestBody.jsonObject(request, allowed: ["reviewed", "exported", "context", "correction"], limit: 4 * 1024)
        let id = try context.parameters.require("sessionID")
        // Whose it is first: another coach's id is 404 whatever the body holds.
        let current = try await services.teamSessions.session(id, of: context.user)
        let sessionContext = try TeamSessionContextRequest.read(body, base: current.context)
        let correction = try TeamSessionContextRequest.correction(body)
        let reviewed = try body.optionalBool("reviewed")
        let exported = try body.optionalBool("exported")
        if sessionContext != current.context { _ = try await services.teamSessions.setContext(id, of: context.user, to: sessionContext) }
        if let correction { _ = try await services.teamSessions.setCorrection(id, of: context.user, to: correction) }
        return TeamSessionResponse(try await services.teamSessions.mark(id, of: context.user, reviewed: reviewed, exported: exported))
    }

    /// DELETE /api/team-sessions/:sessionID
    func deleteTeamSessionsSessionID(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await services.teamSessions.discard(try context.parameters.require("sessionID"), of: context.user)
        return .noContent
    }

    /// POST /api/team-sessions/:sessionID/stop
    func postTeamSessionsSessionIDStop(_ request: Request, context: AuthenticatedContext) async throws -> TeamSessionResponse {
        TeamSessionResponse(try await services.teamSessions.stop(try context.parameters.require("sessionID"), of: context.user))
    }

    /// POST /api/team-sessions/:sessionID/save
    func postTeamSessionsSessionIDSave(_ request: Request, context: AuthenticatedContext) async throws -> TeamSessionResponse {
        TeamSessionResponse(try await services.teamSessions.save(try context.parameters.require("sessionID"), of: context.user))
    }

    /// GET /api/team-sessions/:sessionID/review
    func getTeamSessionsSessionIDReview(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let review = try await services.teamSessions.review(try context.parameters.require("sessionID"), of: context.user)
        let team = try await services.teams.team(review.session.teamID, of: context.user)
        return try APIJSON.response(TeamSessionReviewResponse(review, teamName: team.name))
    }

    /// GET /api/team-sessions/:sessionID/export
    func getTeamSessionsSessionIDExport(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let format = request.uri.queryParameters.get("format") ?? "json"
        guard format == "json" || format == "csv" else {
            throw AppError.invalid("format is json or csv", field: "format")
        }
        let id = try context.parameters.require("sessionID")
        let review = try await services.teamSessions.review(id, of: context.user)
        let team = try await services.teams.team(review.session.teamID, of: context.user)
        _ = try await services.teamSessions.mark(id, of: context.user, reviewed: nil, exported: true)
        var response: Response
        if format == "csv" {
            var headers = HTTPFields()
            headers[.contentType] = "text/csv; charset=utf-8"
            response = Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: TeamSessionCSV.csv(review))))
        } else {
            response = try APIJSON.response(TeamSessionReviewResponse(review, teamName: team.name, includesRR: true))
        }
        // The day in the coach's zone, as the session list shows it.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZones.zone(context.user.timeZone)
        let parts = calendar.dateComponents([.year, .month, .day], from: review.session.startsAt)
        let day = String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
        response.headers[.contentDisposition] = "attachment; filename=\"team-session-\(day).\(format)\""
        return response
    }
}
