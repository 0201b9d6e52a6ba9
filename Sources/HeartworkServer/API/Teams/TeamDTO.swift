import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

struct PlayerResponse: ResponseEncodable {
    let id: String
    /// "First Surname", as before issue 25.
    let name: String
    let firstName: String
    /// Empty for a player stored with one word before issue 25 (or by a client sending `name`).
    let surname: String
    let number: String?
    let birthDate: String?
    let sex: String?
    let restingHeartRate: Int?
    let maximumHeartRate: Int?
    let weightKilograms: Double?
    let teamID: String?
    let sensorID: String?
    let createdAt: Date
    let hasPhoto: Bool
    let photoURL: String?

    init(_ player: PlayerRecord) {
        id = player.id
        name = player.name
        firstName = player.firstName
        surname = player.surname
        number = player.number
        birthDate = player.birthDate?.description
        sex = player.sex?.rawValue
        restingHeartRate = player.restingHeartRate
        maximumHeartRate = player.maximumHeartRate
        weightKilograms = player.weightKilograms
        teamID = player.teamID
        sensorID = player.sensorID
        createdAt = player.createdAt
        hasPhoto = player.hasPhoto
        photoURL = player.hasPhoto ? "/api/players/\(player.id)/photo" : nil
    }
}

struct PlayerListResponse: ResponseEncodable {
    let players: [PlayerResponse]
}

/// POST and PATCH /api/players: every field optional on PATCH; `null` clears an optional fact.
/// A new player needs `firstName` and `surname` (issue 25), or the older `name`, split at its
/// last space; `number` is asked by the web form, and stays optional here for older clients.
enum PlayerRequest {
    static let fields = ["name", "firstName", "surname", "number", "birthDate", "sex", "restingHeartRate", "maximumHeartRate", "weightKilograms", "teamID", "sensorID"]

    static func input(_ body: JSONObjectReader) throws -> PlayerInput {
        var input = PlayerInput()
        input.name = try body.optionalString("name")
        input.firstName = try body.optionalString("firstName")
        input.surname = try body.optionalString("surname")
        input.number = try body.clearable("number", JSONObjectReader.string)
        input.birthDate = try body.clearable("birthDate", JSONObjectReader.string)?.map { try InputParsing.calendarDay($0, field: "birthDate") }
        input.sex = try body.clearable("sex", JSONObjectReader.string)?.map { try InputParsing.oneOf($0, Sex.self, field: "sex", what: "sex") }
        input.restingHeartRate = try body.clearable("restingHeartRate", JSONObjectReader.integer)
        input.maximumHeartRate = try body.clearable("maximumHeartRate", JSONObjectReader.integer)
        input.weightKilograms = try body.clearable("weightKilograms", JSONObjectReader.double)
        input.teamID = try body.clearable("teamID", JSONObjectReader.string)
        input.sensorID = try body.clearable("sensorID", JSONObjectReader.string)
        return input
    }
}

struct TeamResponse: ResponseEncodable {
    let id: String
    let name: String
    let createdAt: Date
    let players: [PlayerResponse]
    /// The team's photo (F4), as a player's.
    let hasPhoto: Bool
    let photoURL: String?
    /// Saved sessions, and those of them not marked reviewed (FitLabTeam F4, "pending").
    let sessionCount: Int
    let unreviewedCount: Int

    init(_ team: TeamRecord, players: [PlayerRecord], counts: TeamSessionCounts?) {
        id = team.id
        name = team.name
        createdAt = team.createdAt
        self.players = players.map(PlayerResponse.init)
        hasPhoto = team.hasPhoto
        photoURL = team.hasPhoto ? "/api/teams/\(team.id)/photo" : nil
        sessionCount = counts?.saved ?? 0
        unreviewedCount = counts?.unreviewed ?? 0
    }
}

struct TeamListResponse: ResponseEncodable {
    let teams: [TeamResponse]
}

struct TeamSessionResponse: ResponseEncodable {
    struct Participant: Encodable {
        let playerID: String
        let sensorID: String
        let name: String
        let number: String?
    }

    /// FitLabTeam F8: the seed's four settings, as the seed's labels; an unset one is left out.
    struct Context: Encodable {
        let time: String?
        let moment: String?
        let situation: String?
        let state: String?

        init(_ context: SessionContext) {
            time = context.time?.rawValue
            moment = context.moment?.rawValue
            situation = context.situation?.rawValue
            state = context.state?.rawValue
        }
    }

    let id: String
    let teamID: String
    let state: String
    let recording: Bool
    let startsAt: Date
    let plannedEndAt: Date?
    let endedAt: Date?
    let reviewed: Bool
    let exported: Bool
    let createdAt: Date
    let players: [Participant]
    let context: Context
    /// The RR artifact correction its HRV uses: kubios or fitlab.
    let correction: String

    init(_ session: TeamSessionRecord, now: Date = Date()) {
        id = session.id
        teamID = session.teamID
        // A planned end that has passed reads as stopped, though nobody pressed stop.
        state = session.state == .recording && session.end(now: now) != nil ? TeamSessionState.stopped.rawValue : session.state.rawValue
        recording = session.isRecording(now: now)
        startsAt = session.startsAt
        plannedEndAt = session.plannedSeconds.map { session.startsAt.addingTimeInterval(TimeInterval($0)) }
        endedAt = session.end(now: now)
        reviewed = session.reviewed
        exported = session.exported
        createdAt = session.createdAt
        players = session.players.map { Participant(playerID: $0.playerID, sensorID: $0.sensorID, name: $0.name, number: $0.number) }
        context = Context(session.context)
        correction = session.correction.rawValue
    }
}

struct TeamSessionListResponse: ResponseEncodable {
    let sessions: [TeamSessionResponse]
}

/// POST /api/teams/{teamID}/sessions.
enum TeamSessionStartRequest {
    static let fields = ["countdownSeconds", "durationSeconds", "players", "context", "correction"]

    struct Start {
        let countdown: Int
        let duration: Int?
        let participants: [TeamSessionService.Participant]?
        let context: SessionContext
        let correction: ArtifactCorrectionMethod
    }

    static func read(_ body: JSONObjectReader) throws -> Start {
        let participants = try body.optionalArray("players")?.enumerated().map { index, value in
            let item = try JSONObjectReader(value, path: "players[\(index)]", allowed: ["player", "sensor"])
            return TeamSessionService.Participant(playerID: try item.string("player"), sensorID: try item.optionalString("sensor"))
        }
        return Start(
            countdown: try body.optionalInteger("countdownSeconds") ?? 0, duration: try body.optionalInteger("durationSeconds"),
            participants: participants, context: try TeamSessionContextRequest.read(body, base: SessionContext()),
            correction: try TeamSessionContextRequest.correction(body) ?? .kubios)
    }
}

/// The `context` and `correction` members of a session's start or PATCH body.
enum TeamSessionContextRequest {
    /// `base` with what `context` changes: a member sets its setting, `null` clears it, an
    /// absent one leaves it.
    static func read(_ body: JSONObjectReader, base: SessionContext) throws -> SessionContext {
        guard let value = try body.optional("context") else { return base }
        let object = try JSONObjectReader(value, path: body.path("context"), allowed: ["time", "moment", "situation", "state"])
        var input = SessionContextInput(base)
        if let time = try object.clearable("time", JSONObjectReader.string) { input.time = time.value }
        if let moment = try object.clearable("moment", JSONObjectReader.string) { input.moment = moment.value }
        if let situation = try object.clearable("situation", JSONObjectReader.string) { input.situation = situation.value }
        if let state = try object.clearable("state", JSONObjectReader.string) { input.state = state.value }
        return try input.context()
    }

    static func correction(_ body: JSONObjectReader) throws -> ArtifactCorrectionMethod? {
        try body.optionalString("correction").map { text in
            guard let method = ArtifactCorrectionMethod(rawValue: text), TeamSessionService.corrections.contains(method) else {
                throw AppError.invalid("correction is kubios or fitlab", field: "correction")
            }
            return method
        }
    }
}
