import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore
import HeartworkModel
import Hummingbird

/// FitLabTeam in the web app: teams, players, sensors and gateways (`/teams`), a team
/// (`/teams/{id}`), a player (`/players/{id}`), the coach's big screen (`/teams/{id}/live`)
/// and a session's review (`/team-sessions/{id}`). Forms post back and redirect; a form with
/// mistakes comes back with each one next to its field.
struct WebTeamPages {
    let services: HeartworkServices
    let pages: PageRenderer

    struct NameForm: Decodable { let name: String? }
    struct PlayerForm: Decodable {
        let firstName: String?, surname: String?, number: String?, birthDate: String?, sex: String?, restingHeartRate: String?, maximumHeartRate: String?
        let weightKilograms: String?, teamID: String?, sensorID: String?
    }
    struct SensorForm: Decodable { let sensorID: String? }
    struct SensorDeleteForm: Decodable { let readings: String? }
    struct AddForm: Decodable { let playerID: String? }
    struct StartForm: Decodable {
        let countdownSeconds: String?, durationMinutes: String?
        let time: String?, moment: String?, situation: String?, state: String?
        /// The players picked (`players[]`) and, by player id, the sensor each wears this
        /// session instead of their own (`sensor[<player id>]`, "" for their own).
        let players: [String]?
        let sensor: [String: String]?
    }
    struct ContextForm: Decodable { let time: String?, moment: String?, situation: String?, state: String? }
    struct CorrectionForm: Decodable { let correction: String? }

    func register(on router: RouterGroup<AuthenticatedContext>) {
        router.get("teams", use: getTeams)
        router.post("teams", use: postTeams)
        router.post("players", use: postPlayers)
        router.post("gateways", use: postGateways)
        router.post("gateways/:gatewayID/revoke", use: postGatewaysGatewayIDRevoke)
        router.post("sensors/:sensorID", use: postSensorsSensorID)
        router.post("sensors/:sensorID/delete", use: postSensorsSensorIDDelete)
        router.get("teams/:teamID", use: getTeamsTeamID)
        router.post("teams/:teamID", use: postTeamsTeamID)
        router.post("teams/:teamID/delete", use: postTeamsTeamIDDelete)
        router.post("teams/:teamID/players", use: postTeamsTeamIDPlayers)
        router.post("teams/:teamID/players/:playerID/remove", use: postTeamsTeamIDPlayersPlayerIDRemove)
        router.post("teams/:teamID/players/:playerID/sensor", use: postTeamsTeamIDPlayersPlayerIDSensor)
        router.post("teams/:teamID/sessions", use: postTeamsTeamIDSessions)
        router.get("teams/:teamID/live", use: getTeamsTeamIDLive)
        router.post("team-sessions/:sessionID/:action", use: postTeamSessionsSessionIDAction)
        router.get("team-sessions/:sessionID", use: getTeamSessionsSessionID)
        router.get("players/:playerID", use: getPlayersPlayerID)
        router.post("players/:playerID", use: postPlayersPlayerID)
        router.post("players/:playerID/delete", use: postPlayersPlayerIDDelete)
    }

    /// GET /teams
    func getTeams(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await overview(request, context)
    }

    /// POST /teams
    func postTeams(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(NameForm.self, from: request)
        do {
            let team = try await services.teams.createTeam(name: form.name ?? "", for: context.user)
            return pages.redirect(to: "/teams/\(team.id)", notice: .teamCreated)
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await overview(request, context, extra: { $0.teamForm = .init(name: form.name ?? "") }, error: error)
        }
    }

    /// POST /players
    func postPlayers(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(PlayerForm.self, from: request)
        do {
            let player = try await services.teams.createPlayer(try input(form, creating: true), for: context.user)
            return pages.redirect(to: player.teamID.map { "/teams/\($0)" } ?? "/teams", notice: .playerAdded)
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await overview(request, context, extra: { $0.playerForm = formValues(form) }, error: error)
        }
    }

    /// POST /gateways
    func postGateways(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(NameForm.self, from: request)
        do {
            let created = try await services.gateways.create(name: form.name ?? "", for: context.user)
            // The token is shown on this page only, once.
            return try await overview(request, context, extra: { $0.newGateway = .init(name: created.gateway.name, token: created.token) })
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await overview(request, context, error: error)
        }
    }

    /// POST /gateways/:gatewayID/revoke
    func postGatewaysGatewayIDRevoke(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await services.gateways.revoke(try context.parameters.require("gatewayID"), of: context.user)
        return pages.redirect(to: "/teams#gateways", notice: .gatewayRevoked)
    }

    /// POST /sensors/:sensorID
    func postSensorsSensorID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(NameForm.self, from: request)
        do {
            _ = try await services.live.rename(try context.parameters.require("sensorID"), of: context.user, to: form.name ?? "")
            return pages.redirect(to: "/teams#sensors", notice: .sensorRenamed)
        } catch let error as AppError where error.kind == .invalid {
            return try await overview(request, context, error: error)
        }
    }

    /// POST /sensors/:sensorID/delete
    func postSensorsSensorIDDelete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.parameters.require("sensorID")
        _ = try await services.live.sensor(id, of: context.user)
        let form = try await WebForm.decode(SensorDeleteForm.self, from: request)
        guard let choice = form.readings.flatMap(SensorReadingsChoice.init(rawValue:)) else {
            return try await overview(
                request, context, error: AppError.invalid("choose whether to keep the sensor's readings or delete them", field: "readings-\(id)"))
        }
        try await services.teams.deleteSensor(id, of: context.user, readings: choice)
        return pages.redirect(to: "/teams#sensors", notice: choice == .keep ? .sensorRemovedKeepingReadings : .sensorDeletedWithReadings)
    }

    /// GET /teams/:teamID
    func getTeamsTeamID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await team(request, context)
    }

    /// POST /teams/:teamID: renames the team (its photo is sent by the page's script, as a
    /// player's, to PUT /api/teams/{id}/photo).
    func postTeamsTeamID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let teamID = try context.parameters.require("teamID")
        _ = try await services.teams.team(teamID, of: context.user)
        let form = try await WebForm.decode(NameForm.self, from: request)
        do {
            _ = try await services.teams.renameTeam(teamID, of: context.user, to: form.name ?? "")
            return pages.redirect(to: "/teams/\(teamID)", notice: .teamRenamed)
        } catch let error as AppError where error.kind == .invalid {
            return try await team(request, context, error: error, typedName: form.name ?? "")
        }
    }

    /// POST /teams/:teamID/delete
    func postTeamsTeamIDDelete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await services.teams.deleteTeam(try context.parameters.require("teamID"), of: context.user)
        return pages.redirect(to: "/teams", notice: .teamDeleted)
    }

    /// POST /teams/:teamID/players
    func postTeamsTeamIDPlayers(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let teamID = try context.parameters.require("teamID")
        let form = try await WebForm.decode(AddForm.self, from: request)
        do {
            _ = try await services.teams.addPlayer(form.playerID ?? "", to: teamID, for: context.user)
            return pages.redirect(to: "/teams/\(teamID)", notice: .playerAdded)
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict || error.kind == .notFound {
            return try await team(request, context, error: error.kind == .notFound ? AppError.invalid("choose one of your players", field: "playerID") : error)
        }
    }

    /// POST /teams/:teamID/players/:playerID/remove
    func postTeamsTeamIDPlayersPlayerIDRemove(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let teamID = try context.parameters.require("teamID")
        try await services.teams.removePlayer(try context.parameters.require("playerID"), from: teamID, for: context.user)
        return pages.redirect(to: "/teams/\(teamID)", notice: .playerRemoved)
    }

    /// POST /teams/:teamID/players/:playerID/sensor
    func postTeamsTeamIDPlayersPlayerIDSensor(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let teamID = try context.parameters.require("teamID")
        // Whose it is first: another coach's ids are 404 whatever the form holds.
        _ = try await services.teams.team(teamID, of: context.user)
        _ = try await services.teams.player(try context.parameters.require("playerID"), of: context.user)
        let form = try await WebForm.decode(SensorForm.self, from: request, requiringFields: true)
        guard form.sensorID != nil else { throw Problem.badRequest("choose a sensor, or none") }
        do {
            let sensor: FieldUpdate<String> = WebForm.nonEmpty(form.sensorID).map { .set($0) } ?? .clear
            _ = try await services.teams.updatePlayer(try context.parameters.require("playerID"), PlayerInput(sensorID: sensor), of: context.user)
            return pages.redirect(to: "/teams/\(teamID)", notice: .sensorAssigned)
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await team(request, context, error: error)
        }
    }

    /// POST /teams/:teamID/sessions
    func postTeamsTeamIDSessions(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let teamID = try context.parameters.require("teamID")
        let form = try await WebForm.decode(StartForm.self, from: request)
        do {
            let countdown = try WebForm.number(form.countdownSeconds, field: "countdownSeconds").map { Int($0) } ?? 0
            let minutes = try WebForm.number(form.durationMinutes, field: "durationMinutes")
            let planned = try minutes.map { minutes -> Int in
                guard minutes.isFinite, minutes >= 1, minutes <= 720 else { throw AppError.invalid("a duration is 1–720 minutes, or continuous", field: "durationMinutes") }
                return Int(minutes * 60)
            }
            let sessionContext = try SessionContextInput(time: form.time, moment: form.moment, situation: form.situation, state: form.state)
                .context(fieldPrefix: "")
            // Who takes part (F6) and a sensor for this session only (F5); on the web, only
            // players whose sensor is connected (the API does not require it).
            let picked = (form.players ?? []).map { id in
                TeamSessionService.Participant(playerID: id, sensorID: WebForm.nonEmpty(form.sensor?[id]))
            }
            guard !picked.isEmpty else {
                throw AppError.invalid("pick at least one player: only players whose sensor is connected can be picked", field: "players")
            }
            _ = try await services.teamSessions.start(
                teamID: teamID, participants: picked, countdownSeconds: countdown, plannedSeconds: planned, context: sessionContext,
                onlyConnected: true, for: context.user)
            return pages.redirect(to: "/teams/\(teamID)/live")
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await coach(request, context, error: error, form: form)
        }
    }

    /// GET /teams/:teamID/live
    func getTeamsTeamIDLive(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await coach(request, context)
    }

    /// POST /team-sessions/:sessionID/:action
    func postTeamSessionsSessionIDAction(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.parameters.require("sessionID")
        let session = try await services.teamSessions.session(id, of: context.user)
        switch try context.parameters.require("action") {
        case "stop":
            _ = try await services.teamSessions.stop(id, of: context.user)
            return pages.redirect(to: "/teams/\(session.teamID)/live", notice: .sessionStopped)
        case "save":
            _ = try await services.teamSessions.save(id, of: context.user)
            return pages.redirect(to: "/team-sessions/\(id)", notice: .sessionSaved)
        case "discard":
            try await services.teamSessions.discard(id, of: context.user)
            return pages.redirect(to: "/teams/\(session.teamID)", notice: .sessionDiscarded)
        case "reviewed", "unreviewed":
            _ = try await services.teamSessions.mark(id, of: context.user, reviewed: try context.parameters.require("action") == "reviewed", exported: nil)
            return pages.redirect(to: "/team-sessions/\(id)")
        case "context":
            let form = try await WebForm.decode(ContextForm.self, from: request)
            do {
                let changed = try SessionContextInput(time: form.time, moment: form.moment, situation: form.situation, state: form.state)
                    .context(fieldPrefix: "")
                _ = try await services.teamSessions.setContext(id, of: context.user, to: changed)
                return pages.redirect(to: "/team-sessions/\(id)", notice: .sessionContextSaved)
            } catch let error as AppError where error.kind == .invalid {
                return try await review(request, context, error: error)
            }
        case "correction":
            let form = try await WebForm.decode(CorrectionForm.self, from: request)
            do {
                let text = form.correction ?? ""
                guard let method = ArtifactCorrectionMethod(rawValue: text), TeamSessionService.corrections.contains(method) else {
                    throw AppError.invalid("choose the Kubios or the FitLab correction", field: "correction")
                }
                _ = try await services.teamSessions.setCorrection(id, of: context.user, to: method)
                return pages.redirect(to: "/team-sessions/\(id)", notice: .sessionCorrectionSaved)
            } catch let error as AppError where error.kind == .invalid {
                return try await review(request, context, error: error)
            }
        default:
            throw AppError.notFound("action")
        }
    }

    /// GET /team-sessions/:sessionID
    func getTeamSessionsSessionID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await review(request, context)
    }

    /// GET /players/:playerID
    func getPlayersPlayerID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await player(request, context)
    }

    /// POST /players/:playerID
    func postPlayersPlayerID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.parameters.require("playerID")
        _ = try await services.teams.player(id, of: context.user)
        let form = try await WebForm.decode(PlayerForm.self, from: request, requiringFields: true)
        do {
            let player = try await services.teams.updatePlayer(id, try input(form, creating: false), of: context.user)
            return pages.redirect(to: "/players/\(player.id)", notice: .playerSaved)
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await player(request, context, form: formValues(form), error: error)
        }
    }

    /// POST /players/:playerID/delete
    func postPlayersPlayerIDDelete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await services.teams.deletePlayer(try context.parameters.require("playerID"), of: context.user)
        return pages.redirect(to: "/teams", notice: .playerDeleted)
    }

    // MARK: Pages

    private func review(_ request: Request, _ context: AuthenticatedContext, error: AppError? = nil) async throws -> Response {
        let review = try await services.teamSessions.review(try context.parameters.require("sessionID"), of: context.user)
        let team = try await services.teams.team(review.session.teamID, of: context.user)
        // Each player's photo as it is now (a session keeps names, not pictures).
        let photos = Set(try await services.teams.players(of: context.user).filter(\.hasPhoto).map(\.id))
        let page = TeamSessionPage(review: review, team: team, zone: TimeZones.zone(context.user.timeZone), photos: photos)
        return pages.page(
            "team-session", title: page.title, model: page.model(), errors: error.map(PageRenderer.formErrors), request: request,
            identity: context.identity, status: error == nil ? .ok : .unprocessableContent)
    }

    private func overview(_ request: Request, _ context: AuthenticatedContext, extra: (inout TeamsPage) -> Void = { _ in }, error: AppError? = nil) async throws -> Response {
        let user = context.user
        let zone = TimeZones.zone(user.timeZone)
        let teams = try await services.teams.teams(of: user)
        let players = try await services.teams.players(of: user)
        let sensors = try await services.live.sensors(of: user)
        let gateways = try await services.gateways.list(for: user)
        let now = Date()
        // The delete form that came back without a choice, by sensor.
        var readingsErrors = [String: String]()
        for fieldError in error?.allFieldErrors ?? [] where fieldError.field.hasPrefix("readings-") {
            readingsErrors[String(fieldError.field.dropFirst("readings-".count))] = fieldError.detail
        }
        let sensorNames = Dictionary(sensors.map { ($0.id, $0.name ?? $0.address) }, uniquingKeysWith: { first, _ in first })
        let counts = try await services.teams.sessionCounts(of: user)
        var model = TeamsPage(
            teams: teams.map { team in
                let count = counts[team.id] ?? TeamSessionCounts()
                let members = players.filter { $0.teamID == team.id }.count
                return .init(
                    id: team.id, name: team.name, playerCount: members, hasPhoto: team.hasPhoto,
                    initial: team.initial, unreviewedCount: count.unreviewed,
                    hasUnreviewed: count.unreviewed > 0,
                    summary: "\(members) player\(members == 1 ? "" : "s") · \(count.saved) session\(count.saved == 1 ? "" : "s")")
            },
            hasTeams: !teams.isEmpty,
            playerGroups: PlayerGroup.byTeam(players, teams: teams).map { group in
                .init(
                    heading: group.team?.name ?? "Not in a team", teamURL: group.team.map { "/teams/\($0.id)" },
                    count: group.players.count == 1 ? "1 player" : "\(group.players.count) players",
                    players: group.players.map { player in
                        .init(
                            id: player.id, name: player.name, firstName: player.firstName, surname: player.surname.isEmpty ? "—" : player.surname,
                            number: player.number ?? "", sensor: player.sensorID.flatMap { sensorNames[$0] } ?? "—")
                    })
            },
            hasPlayers: !players.isEmpty,
            sensors: sensors.map { sensor in
                .init(
                    id: sensor.id, address: sensor.address, name: sensor.name ?? "", battery: sensor.battery.map { "\($0) %" } ?? "—",
                    lastSeen: sensor.lastAt.map { Formatting.dateTime($0, zone: zone) } ?? "—", bpm: sensor.lastBeatsPerMinute.map { "\($0)" } ?? "—",
                    wornBy: players.filter { $0.sensorID == sensor.id }.map(\.name).joined(separator: ", "),
                    connected: SensorPresence.isConnected(lastAt: sensor.lastAt, now: now),
                    readingsError: readingsErrors[sensor.id])
            },
            hasSensors: !sensors.isEmpty,
            gateways: gateways.map { gateway in
                .init(id: gateway.id, name: gateway.name, lastSeen: gateway.lastSeenAt.map { Formatting.dateTime($0, zone: zone) } ?? "never")
            },
            hasGateways: !gateways.isEmpty,
            teamOptions: teams.map { .init(id: $0.id, name: $0.name) },
            sensorOptions: sensors.map { .init(id: $0.id, name: $0.name ?? $0.address) },
            serverURL: request.head.authority.map { "http://\($0)" } ?? "http://localhost:8080")
        extra(&model)
        if let form = model.playerForm {
            // The add-player form came back: its choices stay chosen.
            for index in model.teamOptions.indices { model.teamOptions[index].selected = model.teamOptions[index].id == form.teamID }
            for index in model.sensorOptions.indices { model.sensorOptions[index].selected = model.sensorOptions[index].id == form.sensorID }
        }
        return pages.page(
            "teams", title: "Teams", model: model, errors: error.map(PageRenderer.formErrors), request: request,
            identity: context.identity, status: error.map { $0.kind == .conflict ? .conflict : .unprocessableContent } ?? .ok)
    }

    private func team(_ request: Request, _ context: AuthenticatedContext, error: AppError? = nil, typedName: String? = nil) async throws -> Response {
        let user = context.user
        let teamID = try context.parameters.require("teamID")
        let team = try await services.teams.team(teamID, of: user)
        let players = try await services.teams.players(of: user)
        let sensors = try await services.live.sensors(of: user)
        let query = request.uri.queryParameters
        let filter: SessionContext
        do {
            filter = try SessionContextInput(time: query.get("time"), moment: query.get("moment"), situation: query.get("situation"), state: query.get("state"))
                .context(fieldPrefix: "")
        } catch {
            throw Problem.badRequest(error.detail, field: error.field)
        }
        let everySession = try await services.teamSessions.sessions(of: teamID, for: user)
        let sessions = everySession.filter { $0.context.matches(filter) }
        let zone = TimeZones.zone(user.timeZone)
        let members = players.filter { $0.teamID == teamID }
        let pending = everySession.filter { $0.state == .saved && !$0.reviewed }.count
        var model = TeamPage(
            id: team.id, teamID: team.id, name: team.name,
            members: members.map { player in
                .init(
                    id: player.id, name: player.name, number: player.number, hasPhoto: player.hasPhoto,
                    initial: player.initials,
                    sensorOptions: sensors.map { sensor in
                        let wearer = members.first { $0.id != player.id && $0.sensorID == sensor.id }?.name
                        return .init(
                            id: sensor.id, name: sensor.name ?? sensor.address, selected: sensor.id == player.sensorID,
                            taken: wearer != nil, takenBy: wearer ?? "")
                    },
                    noSensor: player.sensorID == nil)
            },
            hasMembers: !members.isEmpty,
            candidates: players.filter { $0.teamID != teamID }.map { .init(id: $0.id, name: $0.name) },
            hasCandidates: players.contains { $0.teamID != teamID },
            sessions: sessions.map { session in
                let now = Date()
                return .init(
                    id: session.id, when: Formatting.dateTime(session.startsAt, zone: zone), players: session.players.count,
                    state: session.isRecording(now: now)
                        ? "Recording"
                        : session.isCountingDown(now: now)
                            ? "Counting down"
                            : session.state == .saved ? "Saved" : "Stopped, not saved",
                    open: session.state != .saved, reviewed: session.reviewed, exported: session.exported,
                    context: session.context.summary ?? "—")
            },
            hasSessions: !sessions.isEmpty,
            pending: pending, hasPending: pending > 0,
            filter: SessionContextChoices(filter), filtering: !filter.isEmpty, filteredOut: everySession.count - sessions.count,
            noneMatch: sessions.isEmpty && !everySession.isEmpty, anySessions: !everySession.isEmpty)
        model.hasPhoto = team.hasPhoto
        model.initial = team.initial
        model.nameValue = typedName ?? team.name
        return pages.page(
            "team", title: team.name, model: model, errors: error.map(PageRenderer.formErrors), request: request,
            identity: context.identity, status: error.map { $0.kind == .conflict ? .conflict : .unprocessableContent } ?? .ok)
    }

    private func coach(_ request: Request, _ context: AuthenticatedContext, error: AppError? = nil, form: StartForm? = nil) async throws -> Response {
        let teamID = try context.parameters.require("teamID")
        let board = try await services.teamSessions.board(of: teamID, for: context.user)
        let session = board.session
        let now = board.now
        var model = CoachPage(
            teamID: board.team.id, teamName: board.team.name, tileCount: board.tiles.count, noTiles: board.tiles.isEmpty,
            tiles: board.tiles.map { tile in
                .init(
                    sensorID: tile.player.sensorID, name: tile.player.name, number: tile.player.number ?? "",
                    initial: PlayerName.initials(tile.player.name), hasPhoto: tile.hasPhoto, playerID: tile.player.playerID)
            },
            withoutSensor: board.playersWithoutSensor.map(\.name).joined(separator: ", "),
            hasWithoutSensor: !board.playersWithoutSensor.isEmpty && session == nil,
            context: SessionContextChoices(SessionContext()))
        if let session {
            model.session = .init(
                id: session.id, recording: session.isRecording(now: now), countingDown: session.isCountingDown(now: now),
                stopped: session.state == .stopped || (session.state == .recording && session.end(now: now) != nil),
                startsAt: Int64(session.startsAt.timeIntervalSince1970 * 1000),
                plannedEndAt: session.plannedSeconds.map { Int64(session.startsAt.addingTimeInterval(TimeInterval($0)).timeIntervalSince1970 * 1000) } ?? 0)
        } else {
            let lineup = try await services.teamSessions.lineup(of: board.team.id, for: context.user, now: now)
            model.picker = CoachPage.Picker(lineup, form: form.map { ($0.players ?? [], $0.sensor ?? [:]) })
        }
        return pages.page(
            "coach", title: "\(board.team.name) · live", model: model, errors: error.map(PageRenderer.formErrors), request: request,
            identity: context.identity, status: error.map { $0.kind == .conflict ? .conflict : .unprocessableContent } ?? .ok)
    }

    private func player(_ request: Request, _ context: AuthenticatedContext, form: PlayerFields? = nil, error: AppError? = nil) async throws -> Response {
        let player = try await services.teams.player(try context.parameters.require("playerID"), of: context.user)
        let teams = try await services.teams.teams(of: context.user)
        let sensors = try await services.live.sensors(of: context.user)
        let typed =
            form
            ?? PlayerFields(
                firstName: player.firstName, surname: player.surname, number: player.number ?? "", birthDate: player.birthDate?.description ?? "",
                sex: player.sex?.rawValue ?? "",
                restingHeartRate: player.restingHeartRate.map { "\($0)" } ?? "", maximumHeartRate: player.maximumHeartRate.map { "\($0)" } ?? "",
                weightKilograms: player.weightKilograms.map { Formatting.number($0, decimals: 1) } ?? "",
                teamID: player.teamID ?? "", sensorID: player.sensorID ?? "")
        let model = PlayerPage(
            id: player.id, name: player.name, hasPhoto: player.hasPhoto, initial: player.initials, noSurname: player.surname.isEmpty,
            form: typed,
            isFemale: typed.sex == "female", isMale: typed.sex == "male", noSex: typed.sex.isEmpty,
            teamOptions: teams.map { .init(id: $0.id, name: $0.name, selected: $0.id == typed.teamID) },
            noTeam: typed.teamID.isEmpty,
            sensorOptions: sensors.map { .init(id: $0.id, name: $0.name ?? $0.address, selected: $0.id == typed.sensorID) },
            noSensor: typed.sensorID.isEmpty,
            backURL: player.teamID.map { "/teams/\($0)" } ?? "/teams#players",
            backName: player.teamID.flatMap { id in teams.first { $0.id == id }?.name } ?? "Players")
        return pages.page(
            "player", title: player.name, model: model, errors: error.map(PageRenderer.formErrors), request: request,
            identity: context.identity, status: error.map { $0.kind == .conflict ? .conflict : .unprocessableContent } ?? .ok)
    }

    // MARK: Forms

    private func formValues(_ form: PlayerForm) -> PlayerFields {
        PlayerFields(
            firstName: form.firstName ?? "", surname: form.surname ?? "", number: form.number ?? "", birthDate: form.birthDate ?? "", sex: form.sex ?? "",
            restingHeartRate: form.restingHeartRate ?? "", maximumHeartRate: form.maximumHeartRate ?? "", weightKilograms: form.weightKilograms ?? "",
            teamID: form.teamID ?? "", sensorID: form.sensorID ?? "")
    }

    /// A form's fields as a player edit: a blank optional field clears it. Every mistake in
    /// the typing is reported at once.
    private func input(_ form: PlayerForm, creating: Bool) throws -> PlayerInput {
        var errors = [AppError.FieldError]()
        func whole(_ text: String?, _ field: String) -> FieldUpdate<Int> {
            guard let text = WebForm.nonEmpty(text) else { return .clear }
            guard let value = Int(text) else {
                errors.append(.init(field: field, detail: "'\(text)' is not a whole number"))
                return .clear
            }
            return .set(value)
        }
        var input = PlayerInput()
        // FitLabTeam F3: first name, surname and number, all asked (the API keeps a missing
        // number for older clients; the form does not).
        input.firstName = form.firstName ?? (creating ? "" : nil)
        input.surname = form.surname ?? (creating ? "" : nil)
        if let number = WebForm.nonEmpty(form.number) {
            input.number = .set(number)
        } else if creating || form.number != nil {
            errors.append(.init(field: "number", detail: "a player needs a number: their shirt or bib number, such as 7 or GK1"))
        }
        if let text = WebForm.nonEmpty(form.birthDate) {
            do { input.birthDate = .set(try InputParsing.calendarDay(text, field: "birthDate")) } catch { errors.append(.init(field: "birthDate", detail: error.detail)) }
        } else {
            input.birthDate = .clear
        }
        switch WebForm.nonEmpty(form.sex) {
        case nil: input.sex = .clear
        case let text?:
            if let sex = Sex(rawValue: text) { input.sex = .set(sex) } else { errors.append(.init(field: "sex", detail: "sex is female or male")) }
        }
        input.restingHeartRate = whole(form.restingHeartRate, "restingHeartRate")
        input.maximumHeartRate = whole(form.maximumHeartRate, "maximumHeartRate")
        do {
            input.weightKilograms = try WebForm.number(form.weightKilograms, field: "weightKilograms").map { .set($0) } ?? .clear
        } catch let error as AppError {
            errors += error.allFieldErrors
        }
        if form.teamID != nil { input.teamID = WebForm.nonEmpty(form.teamID).map { .set($0) } ?? .clear }
        if form.sensorID != nil { input.sensorID = WebForm.nonEmpty(form.sensorID).map { .set($0) } ?? .clear }
        // Mistakes of typing and of value, all at once.
        if !errors.isEmpty {
            let typed = Set(errors.map(\.field))
            throw AppError.invalid(errors + services.teams.mistakes(in: input, creating: creating).filter { !typed.contains($0.field) })
        }
        return input
    }
}
