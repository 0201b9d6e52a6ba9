import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

struct PlayerResponse: ResponseEncodable {
    let id: String
    let name: String
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
enum PlayerRequest {
    static let fields = ["name", "number", "birthDate", "sex", "restingHeartRate", "maximumHeartRate", "weightKilograms", "teamID", "sensorID"]

    static func input(_ body: JSONObjectReader) throws -> PlayerInput {
        var input = PlayerInput()
        input.name = try body.optionalString("name")
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

    init(_ team: TeamRecord, players: [PlayerRecord]) {
        id = team.id
        name = team.name
        createdAt = team.createdAt
        self.players = players.map(PlayerResponse.init)
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
    }
}

struct TeamSessionListResponse: ResponseEncodable {
    let sessions: [TeamSessionResponse]
}

/// POST /api/teams/{teamID}/sessions.
enum TeamSessionStartRequest {
    static let fields = ["countdownSeconds", "durationSeconds", "players"]

    static func read(_ body: JSONObjectReader) throws -> (countdown: Int, duration: Int?, participants: [TeamSessionService.Participant]?) {
        let participants = try body.optionalArray("players")?.enumerated().map { index, value in
            let item = try JSONObjectReader(value, path: "players[\(index)]", allowed: ["player", "sensor"])
            return TeamSessionService.Participant(playerID: try item.string("player"), sensorID: try item.optionalString("sensor"))
        }
        return (try body.optionalInteger("countdownSeconds") ?? 0, try body.optionalInteger("durationSeconds"), participants)
    }
}
