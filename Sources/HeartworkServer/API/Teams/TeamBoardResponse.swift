import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkModel
import Hummingbird

/// GET /api/teams/{teamID}/board: what the coach's screen draws before live readings arrive
/// over /api/live/feed (whose `sensor` matches a tile's `sensorID`). Everything a tile
/// needs to colour a zone and add TRIMP itself is here, so the page computes nothing the
/// server does not also compute the same way (`PlayerSessionAnalysis`).
struct TeamBoardResponse: ResponseEncodable {
    struct Tile: Encodable {
        let playerID: String
        let name: String
        let number: String?
        let photoURL: String?
        let sensorID: String
        let sensorName: String?
        let restingHeartRate: Double?
        let maximumHeartRate: Double?
        /// Karvonen thresholds (bpm) of the low, moderate, high and red-line zones.
        let zoneThresholds: [Double]?
        /// Banister constants for this player's TRIMP: Δmin · HRr · k · e^(b · HRr).
        let trimpK: Double?
        let trimpB: Double?
        let trimp: Double?
        let lastBpm: Int?
        let contact: String?
        let battery: Int?
        let lastSeenAt: Date?
    }

    struct Team: Encodable {
        let id: String
        let name: String
    }

    struct PlayerName: Encodable {
        let id: String
        let name: String
    }

    let team: Team
    let serverTime: Date
    let staleAfterSeconds: Double
    let session: TeamSessionResponse?
    let tiles: [Tile]
    let playersWithoutSensor: [PlayerName]

    init(_ board: TeamBoard) {
        team = Team(id: board.team.id, name: board.team.name)
        serverTime = board.now
        staleAfterSeconds = PlayerSessionAnalysis.staleAfterSeconds
        session = board.session.map { TeamSessionResponse($0, now: board.now) }
        tiles = board.tiles.map { tile in
            let physiology = tile.player.physiology
            let profile = physiology.zoneProfile
            let trimp = profile.map { BanisterTRIMP(profile: $0, sex: physiology.sex) }
            return Tile(
                playerID: tile.player.playerID, name: tile.player.name, number: tile.player.number,
                photoURL: tile.hasPhoto ? "/api/players/\(tile.player.playerID)/photo" : nil, sensorID: tile.player.sensorID,
                sensorName: tile.sensor?.name ?? tile.sensor?.address, restingHeartRate: profile?.restingHeartRate,
                maximumHeartRate: physiology.effectiveMaximumHeartRate, zoneThresholds: profile?.reserveZoneThresholds.dropLast().map { ($0 * 10).rounded() / 10 },
                trimpK: trimp?.k, trimpB: trimp?.b, trimp: tile.trimp.map { ($0 * 100).rounded() / 100 },
                lastBpm: tile.sensor?.lastBeatsPerMinute, contact: tile.sensor?.lastContact?.rawValue, battery: tile.sensor?.battery,
                lastSeenAt: tile.sensor?.lastAt)
        }
        playersWithoutSensor = board.playersWithoutSensor.map { PlayerName(id: $0.id, name: $0.name) }
    }
}
