import Foundation
import HeartworkCore
import HeartworkStore
import HeartworkFormats
import Hummingbird

/// POST /api/workouts. Heart rate is one value per second from `startTime` (null where
/// there was no reading); RR intervals in ms; track points with `t` in seconds from the start.
struct WorkoutUploadRequest {
    static let fields = ["sport", "startTime", "indoor", "heartRate", "rrIntervals", "track", "distanceMeters", "kilocalories"]

    struct TrackPoint {
        static let fields = ["lat", "lon", "ele", "t"]
        let lat: Double
        let lon: Double
        let ele: Double?
        let t: Double
    }

    let sport: String
    let startTime: Date
    let indoor: Bool
    let heartRate: [Int?]
    let rrIntervals: [Double]
    let track: [TrackPoint]
    let distanceMeters: Double?
    let kilocalories: Double?

    /// Reads the body with the fast JSON parser (a 2-hour upload is half a megabyte).
    init(json: JSONValue) throws {
        let body = try JSONFields(json, path: "", allowed: Self.fields)
        sport = try body.string("sport")
        let start = try body.string("startTime")
        guard let startTime = JSONCoding.parseISO8601(start) else {
            throw APIError.invalid("'\(start)' is not an ISO 8601 date-time such as 2026-11-21T07:30:00Z", field: "startTime")
        }
        self.startTime = startTime
        indoor = try body.optionalBool("indoor") ?? false
        heartRate = try body.array("heartRate").enumerated().map { index, value in
            switch value {
            case .null: return nil
            case .number(let number):
                guard number == number.rounded(), abs(number) < 1e9 else {
                    throw APIError.badRequest("expected a whole number of beats per minute", field: "heartRate[\(index)]")
                }
                return Int(number)
            default: throw APIError.badRequest("expected a number or null", field: "heartRate[\(index)]")
            }
        }
        rrIntervals = try (body.optionalArray("rrIntervals") ?? []).enumerated().map { index, value in
            try JSONFields.double(value, "rrIntervals[\(index)]")
        }
        track = try (body.optionalArray("track") ?? []).enumerated().map { index, value in
            let point = try JSONFields(value, path: "track[\(index)]", allowed: TrackPoint.fields)
            return TrackPoint(lat: try point.double("lat"), lon: try point.double("lon"), ele: try point.optionalDouble("ele"), t: try point.double("t"))
        }
        distanceMeters = try body.optionalDouble("distanceMeters")
        kilocalories = try body.optionalDouble("kilocalories")
    }

    static let maximumSeconds = 24 * 3600

    /// Checks every value; the error names the first field at fault.
    func validated(now: Date = Date()) throws -> (sport: Sport, streams: WorkoutStreams) {
        guard let sport = Sport(rawValue: sport) else {
            throw APIError.invalid("sport is one of running, cycling, strength, other", field: "sport")
        }
        guard startTime <= now.addingTimeInterval(86_400), startTime > Date(timeIntervalSince1970: 0) else {
            throw APIError.invalid("the start time is in the future or before 1970", field: "startTime")
        }
        guard !heartRate.isEmpty else { throw APIError.invalid("at least one second of heart rate is needed", field: "heartRate") }
        guard heartRate.count <= Self.maximumSeconds else {
            throw APIError.invalid("at most 24 hours (86,400 seconds) per workout", field: "heartRate")
        }
        for (index, value) in heartRate.enumerated() {
            if let value, !(1...250).contains(value) {
                throw APIError.invalid("\(value) bpm is not a heart rate (1–250 bpm, or null for no reading)", field: "heartRate[\(index)]")
            }
        }
        guard heartRate.contains(where: { $0 != nil }) else {
            throw APIError.invalid("every second is null: no heart rate was recorded", field: "heartRate")
        }
        guard rrIntervals.count <= 200_000 else { throw APIError.invalid("at most 200,000 RR intervals", field: "rrIntervals") }
        for (index, value) in rrIntervals.enumerated() where !(value > 0 && value <= RRValidation.maximumIntervalMilliseconds) {
            throw APIError.invalid("\(value) ms is not an RR interval (more than 0, at most 5000 ms)", field: "rrIntervals[\(index)]")
        }
        guard track.count <= Self.maximumSeconds * 2 else { throw APIError.invalid("at most 172,800 track points", field: "track") }
        var points = [GeoPoint]()
        points.reserveCapacity(track.count)
        var previousTime = -Double.infinity
        for (index, point) in track.enumerated() {
            guard (-90...90).contains(point.lat) else { throw APIError.invalid("latitude \(point.lat) is outside −90…90", field: "track[\(index)].lat") }
            guard (-180...180).contains(point.lon) else { throw APIError.invalid("longitude \(point.lon) is outside −180…180", field: "track[\(index)].lon") }
            if let ele = point.ele, !(-500...9_000).contains(ele) {
                throw APIError.invalid("elevation \(ele) m is outside −500…9000 m", field: "track[\(index)].ele")
            }
            guard point.t >= 0, point.t <= Double(Self.maximumSeconds) else {
                throw APIError.invalid("t is seconds from the start, 0–86400", field: "track[\(index)].t")
            }
            guard point.t >= previousTime else {
                throw APIError.invalid("t \(point.t) comes before the previous point's \(previousTime): points must be in time order", field: "track[\(index)].t")
            }
            previousTime = point.t
            points.append(try GeoPoint(latitudeDegrees: point.lat, longitudeDegrees: point.lon, elevationMeters: point.ele, timeSeconds: point.t))
        }
        if let distanceMeters, !(0...1_000_000).contains(distanceMeters) {
            throw APIError.invalid("distance is 0–1,000,000 m", field: "distanceMeters")
        }
        if let kilocalories, !(0...20_000).contains(kilocalories) {
            throw APIError.invalid("energy is 0–20,000 kcal", field: "kilocalories")
        }
        return (sport, WorkoutStreams(heartRate: heartRate, rrIntervalsMilliseconds: rrIntervals, track: points))
    }
}

/// A workout in lists: the summary only.
struct WorkoutSummaryResponse: ResponseEncodable {
    struct ZoneSeconds: Encodable {
        let none: Int, low: Int, moderate: Int, high: Int, redLine: Int
    }

    struct Snapshot: Encodable {
        let ageYears: Int?
        let restingHeartRate: Double?
        let maxHeartRate: Double?
        let maxHeartRateMethod: String?
        let weightKilograms: Double?
        let sex: String?
        /// Karvonen thresholds at 60, 70, 80, 90 and 100 % HRR, when the snapshot has zones.
        let zoneThresholds: [Double]?
    }

    let id: String
    let ownerID: String
    let sport: String
    let startTime: Date
    let indoor: Bool
    let durationSeconds: Int
    let averageHeartRate: Double?
    let minimumHeartRate: Double?
    let maximumHeartRate: Double?
    let kilocalories: Double?
    let distanceMeters: Double?
    let secondsInZones: ZoneSeconds?
    let profile: Snapshot
    let rrIntervalCount: Int
    let trackPointCount: Int
    let shared: Bool

    init(_ workout: WorkoutRecord) {
        id = workout.id
        ownerID = workout.userID
        sport = workout.sport.rawValue
        startTime = workout.startedAt
        indoor = workout.indoor
        durationSeconds = workout.durationSeconds
        averageHeartRate = workout.averageHeartRate.map { ($0 * 10).rounded() / 10 }
        minimumHeartRate = workout.minimumHeartRate
        maximumHeartRate = workout.maximumHeartRate
        kilocalories = workout.kilocalories.map { ($0 * 10).rounded() / 10 }
        distanceMeters = workout.distanceMeters.map { $0.rounded() }
        secondsInZones = workout.secondsInZones.map { ZoneSeconds(none: $0[0], low: $0[1], moderate: $0[2], high: $0[3], redLine: $0[4]) }
        let snapshot = workout.profile
        profile = Snapshot(
            ageYears: snapshot.ageYears, restingHeartRate: snapshot.restingHeartRate, maxHeartRate: snapshot.maximumHeartRate,
            maxHeartRateMethod: snapshot.maximumHeartRateMethod, weightKilograms: snapshot.weightKilograms, sex: snapshot.sex?.rawValue,
            zoneThresholds: snapshot.zoneProfile?.reserveZoneThresholds.map { ($0 * 1000).rounded() / 1000 })
        rrIntervalCount = workout.rrCount
        trackPointCount = workout.trackCount
        shared = workout.shared
    }
}

struct WorkoutListResponse: Encodable {
    let workouts: [WorkoutSummaryResponse]
    let limit: Int
    let offset: Int
}

/// The answer to an upload.
struct WorkoutCreatedResponse: ResponseEncodable {
    let summary: WorkoutSummaryResponse
}

/// A workout with its streams.
struct WorkoutDetailResponse: Encodable {
    struct Point: Encodable {
        let lat: Double, lon: Double, ele: Double?, t: Double
    }

    let summary: WorkoutSummaryResponse
    let heartRate: [Int?]
    let rrIntervals: [Double]
    let track: [Point]

    init(_ workout: WorkoutRecord, streams: WorkoutStreams) {
        summary = WorkoutSummaryResponse(workout)
        heartRate = streams.heartRate
        rrIntervals = streams.rrIntervalsMilliseconds
        track = streams.track.map { Point(lat: $0.latitudeDegrees, lon: $0.longitudeDegrees, ele: $0.elevationMeters, t: $0.timeSeconds ?? 0) }
    }
}

// MARK: Fast JSON for the hot responses (same shape as the Encodable form)

extension WorkoutSummaryResponse {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("averageHeartRate", averageHeartRate)
        json.field("distanceMeters", distanceMeters)
        json.field("durationSeconds", durationSeconds)
        json.field("id", id)
        json.field("indoor", indoor)
        json.field("kilocalories", kilocalories)
        json.field("maximumHeartRate", maximumHeartRate)
        json.field("minimumHeartRate", minimumHeartRate)
        json.field("ownerID", ownerID)
        json.key("profile")
        json.beginObject()
        json.field("ageYears", profile.ageYears)
        json.field("maxHeartRate", profile.maxHeartRate)
        json.field("maxHeartRateMethod", profile.maxHeartRateMethod)
        json.field("restingHeartRate", profile.restingHeartRate)
        json.field("sex", profile.sex)
        json.field("weightKilograms", profile.weightKilograms)
        if let thresholds = profile.zoneThresholds {
            json.key("zoneThresholds")
            json.beginArray()
            for threshold in thresholds { json.number(threshold) }
            json.endArray()
        }
        json.endObject()
        json.field("rrIntervalCount", rrIntervalCount)
        if let zones = secondsInZones {
            json.key("secondsInZones")
            json.beginObject()
            json.field("high", zones.high)
            json.field("low", zones.low)
            json.field("moderate", zones.moderate)
            json.field("none", zones.none)
            json.field("redLine", zones.redLine)
            json.endObject()
        }
        json.field("shared", shared)
        json.field("sport", sport)
        json.field("startTime", startTime)
        json.field("trackPointCount", trackPointCount)
        json.endObject()
    }
}

extension WorkoutListResponse: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONWriter.response(jsonBytes())
    }

    func jsonBytes() -> [UInt8] {
        var json = JSONWriter(capacity: 512 * (workouts.count + 1))
        json.beginObject()
        json.field("limit", limit)
        json.field("offset", offset)
        json.key("workouts")
        json.beginArray()
        for workout in workouts { workout.write(to: &json) }
        json.endArray()
        json.endObject()
        return json.bytes
    }
}

extension WorkoutDetailResponse: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONWriter.response(jsonBytes())
    }

    func jsonBytes() -> [UInt8] {
        var json = JSONWriter(capacity: 64 * 1024 + heartRate.count * 4 + rrIntervals.count * 8 + track.count * 64)
        json.beginObject()
        json.key("heartRate")
        json.beginArray()
        for value in heartRate {
            if let value { json.integer(value) } else { json.null() }
        }
        json.endArray()
        json.key("rrIntervals")
        json.beginArray()
        for value in rrIntervals { json.number(value) }
        json.endArray()
        json.key("summary")
        summary.write(to: &json)
        json.key("track")
        json.beginArray()
        for point in track {
            json.beginObject()
            json.field("ele", point.ele)
            json.field("lat", point.lat)
            json.field("lon", point.lon)
            json.field("t", point.t)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }
}
