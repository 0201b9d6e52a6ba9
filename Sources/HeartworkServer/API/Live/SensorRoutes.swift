import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// The straps the caller's gateways have heard: list, name, and what they heard.
struct SensorRoutes {
    let services: HeartworkServices

    func register(on api: RouterGroup<AuthenticatedContext>) {
        // Paged, oldest first: `limit` 1–1000 (100), `offset`; `next` is the following page.
        api.get("sensors", use: getSensors)
        api.get("sensors/:sensorID", use: getSensorsSensorID)
        api.patch("sensors/:sensorID", use: patchSensorsSensorID)
        api.delete("sensors/:sensorID", use: deleteSensorsSensorID)
        api.get("sensors/:sensorID/heart-rate", use: getSensorsSensorIDHeartRate)
    }

    /// GET /api/sensors
    func getSensors(_ request: Request, context: AuthenticatedContext) async throws -> SensorListResponse {
        let parameters = request.uri.queryParameters
        let limit = try QueryParameters.integer(parameters.get("limit"), name: "limit", range: 1...1000) ?? 100
        let offset = try QueryParameters.integer(parameters.get("offset"), name: "offset", range: 0...1_000_000) ?? 0
        let players = try await services.teams.players(of: context.user)
        let page = try await services.live.sensors(of: context.user, limit: limit, offset: offset)
        return SensorListResponse(
            sensors: page.sensors.map { SensorResponse($0, players: players) },
            next: page.more ? "/api/sensors?limit=\(limit)&offset=\(offset + limit)" : nil)
    }

    /// GET /api/sensors/:sensorID
    func getSensorsSensorID(_ request: Request, context: AuthenticatedContext) async throws -> SensorResponse {
        SensorResponse(
            try await services.live.sensor(try context.parameters.require("sensorID"), of: context.user),
            players: try await services.teams.players(of: context.user))
    }

    /// PATCH /api/sensors/:sensorID
    func patchSensorsSensorID(_ request: Request, context: AuthenticatedContext) async throws -> SensorResponse {
        let body = try await RequestBody.jsonObject(request, allowed: ["name"], limit: 4 * 1024)
        return SensorResponse(
            try await services.live.rename(try context.parameters.require("sensorID"), of: context.user, to: try body.string("name")),
            players: try await services.teams.players(of: context.user))
    }

    /// DELETE /api/sensors/:sensorID?readings=keep|delete
    func deleteSensorsSensorID(_ request: Request, context: AuthenticatedContext) async throws -> SensorRemovalResponse {
        let id = try context.parameters.require("sensorID")
        // Whose it is first: another user's sensor is 404 whatever the query says.
        _ = try await services.live.sensor(id, of: context.user)
        guard let text = request.uri.queryParameters.get("readings") else {
            throw Problem.badRequest("say what happens to the sensor's readings: readings=keep or readings=delete", field: "readings")
        }
        guard let choice = SensorReadingsChoice(rawValue: text) else {
            throw Problem.badRequest("readings is keep or delete", field: "readings")
        }
        try await services.teams.deleteSensor(id, of: context.user, readings: choice)
        return SensorRemovalResponse(id: id, readings: choice == .keep ? "kept" : "deleted")
    }

    /// GET /api/sensors/:sensorID/heart-rate
    func getSensorsSensorIDHeartRate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let parameters = request.uri.queryParameters
        let to = try QueryParameters.date(parameters.get("to"), name: "to") ?? Date()
        let from = try QueryParameters.date(parameters.get("from"), name: "from") ?? to.addingTimeInterval(-600)
        let (sensor, readings) = try await services.live.readings(of: try context.parameters.require("sensorID"), for: context.user, from: from, to: to)
        return APIJSON.response(SensorHeartRateResponse.json(sensor: sensor, from: from, to: to, readings: readings))
    }
}

struct SensorResponse: ResponseEncodable {
    let id: String
    let address: String
    let name: String?
    let gatewayID: String?
    let createdAt: Date
    let lastSeenAt: Date?
    let lastBpm: Int?
    let contact: String?
    let battery: Int?
    /// Heard in the last 10 s (FitLabTeam F2).
    let connected: Bool
    /// The players who wear it by default (at most one per team).
    let assignedPlayers: [AssignedPlayer]

    struct AssignedPlayer: Encodable {
        let id: String
        let name: String
        let teamID: String?
    }

    init(_ sensor: SensorRecord, players: [PlayerRecord], now: Date = Date()) {
        assignedPlayers = players.filter { $0.sensorID == sensor.id }.map { AssignedPlayer(id: $0.id, name: $0.name, teamID: $0.teamID) }
        id = sensor.id
        address = sensor.address
        name = sensor.name
        gatewayID = sensor.gatewayID
        createdAt = sensor.createdAt
        lastSeenAt = sensor.lastAt
        lastBpm = sensor.lastBeatsPerMinute
        contact = sensor.lastContact?.rawValue
        battery = sensor.battery
        connected = SensorPresence.isConnected(lastAt: sensor.lastAt, now: now)
    }
}

/// What a deletion did with the readings: "kept" or "deleted".
struct SensorRemovalResponse: ResponseEncodable {
    let id: String
    let readings: String
}

struct SensorListResponse: ResponseEncodable {
    let sensors: [SensorResponse]
    /// The next page, when there is one.
    let next: String?
}

/// One value a second from `from` (the last reading heard in that second, null where none
/// was) and every RR interval heard, in milliseconds, in order.
enum SensorHeartRateResponse {
    static func json(sensor: SensorRecord, from: Date, to: Date, readings: [SensorReading]) -> [UInt8] {
        let start = Int64((from.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = max(0, Int(to.timeIntervalSince(from).rounded(.up)))
        var perSecond = [Int?](repeating: nil, count: seconds)
        for reading in readings {
            let index = Int((Int64(reading.atMilliseconds) - start) / 1000)
            if index >= 0 && index < seconds { perSecond[index] = reading.beatsPerMinute }
        }
        var json = JSONWriter(capacity: 1024 + seconds * 4 + readings.count * 8)
        json.beginObject()
        json.field("sensor", sensor.id)
        json.field("from", from)
        json.field("to", to)
        json.key("heartRate")
        json.beginArray()
        for value in perSecond {
            if let value { json.integer(value) } else { json.null() }
        }
        json.endArray()
        json.key("rrIntervals")
        json.beginArray()
        for reading in readings { for interval in reading.rrIntervalsMilliseconds { json.number(interval) } }
        json.endArray()
        json.field("readingCount", readings.count)
        json.endObject()
        return json.bytes
    }
}
