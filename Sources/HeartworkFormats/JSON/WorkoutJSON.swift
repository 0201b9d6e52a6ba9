import Foundation
import HeartworkCore

/// Heartwork's own workout document (the JSON of `POST /api/workouts` and of exports):
///
///     { "sport": "running", "startTime": "2026-11-20T07:00:00Z", "indoor": false,
///       "heartRate": [121, 122, null], "rrIntervals": [812.5],
///       "track": [{"lat": 48.2, "lon": 16.37, "ele": 180.5, "t": 0}],
///       "distanceMeters": 5012, "kilocalories": 412 }
///
/// Read in one pass straight into typed arrays (no JSON tree: peak memory stays near the
/// size of the arrays), refusing an array as soon as it passes its limit. Reading checks
/// shapes, types and sizes; the workout service checks the values.
public enum WorkoutJSON {
    public static let fields = ["sport", "startTime", "indoor", "heartRate", "rrIntervals", "track", "distanceMeters", "kilocalories", "device"]
    public static let trackPointFields = ["lat", "lon", "ele", "t"]

    public static func read(_ bytes: [UInt8]) throws(JSONFieldError) -> NewWorkout {
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONStreamReader(buffer)
                let workout = try read(&reader)
                try reader.finish()
                return workout
            }
        } catch let error as JSONFieldError {
            throw error
        } catch {
            throw JSONFieldError(.notJSON, path: nil, "the body could not be read: \(error)")
        }
    }

    private static func read(_ reader: inout JSONStreamReader) throws -> NewWorkout {
        var sport: Sport?
        var startTime: Date?
        var indoor: Bool?
        var heartRate: [Int?]?
        var rr = [Double]()
        var track = [NewWorkout.TrackPoint]()
        var distance: Double?
        var kilocalories: Double?
        var device: String?
        try reader.readObject(path: "") { reader, key in
            if key != "heartRate", key != "track", key != "rrIntervals", Self.fields.contains(key), try reader.readNull() {
                throw JSONFieldError(.wrongType, path: key, "may be left out, but not null")
            }
            switch key {
            case "sport":
                let name = try reader.readString(path: key)
                guard let value = Sport(rawValue: name) else {
                    throw JSONFieldError(.invalidValue, path: key, "sport is one of \(Sport.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                sport = value
            case "startTime":
                let text = try reader.readString(path: key)
                guard let date = RFC3339.parse(text) else {
                    throw JSONFieldError(.invalidValue, path: key, "'\(text)' is not a date-time such as 2026-11-21T07:30:00Z")
                }
                startTime = date
            case "indoor":
                indoor = try reader.readBool(path: key)
            case "heartRate":
                heartRate = try readHeartRate(&reader)
            case "rrIntervals":
                rr = try readNumbers(&reader, path: key, limit: WorkoutLimits.rrIntervals, limitText: "at most 200,000 RR intervals")
            case "track":
                track = try readTrack(&reader)
            case "distanceMeters":
                distance = try reader.readNumber(path: key)
            case "kilocalories":
                kilocalories = try reader.readNumber(path: key)
            case "device":
                let name = try reader.readString(path: key)
                guard name.count <= 200 else { throw JSONFieldError(.invalidValue, path: key, "at most 200 characters") }
                device = name.isEmpty ? nil : name
            default:
                throw JSONFieldError(.unknownField, path: key, "unknown field; accepted: \(Self.fields.sorted().joined(separator: ", "))")
            }
        }
        guard let sport else { throw JSONFieldError(.missing, path: "sport", "this field is required") }
        guard let startTime else { throw JSONFieldError(.missing, path: "startTime", "this field is required") }
        guard let heartRate else { throw JSONFieldError(.missing, path: "heartRate", "this field is required") }
        return NewWorkout(
            sport: sport, startTime: startTime, indoor: indoor ?? false, heartRate: heartRate, rrIntervalsMilliseconds: rr,
            track: track, distanceMeters: distance, kilocalories: kilocalories, device: device)
    }

    /// The document `read` takes (what `GET /api/workouts/{id}/export?format=json` answers):
    /// reading it back gives the same workout.
    public static func write(_ workout: NewWorkout) -> [UInt8] {
        var json = JSONWriter(capacity: 64 + workout.heartRate.count * 4 + workout.track.count * 64 + workout.rrIntervalsMilliseconds.count * 6)
        json.beginObject()
        json.key("sport")
        json.string(workout.sport.rawValue)
        json.key("startTime")
        json.string(ActivityXMLWriter.timestamp(workout.startTime))
        json.key("indoor")
        json.bool(workout.indoor)
        json.key("heartRate")
        json.beginArray()
        for value in workout.heartRate {
            if let value { json.integer(value) } else { json.null() }
        }
        json.endArray()
        if !workout.rrIntervalsMilliseconds.isEmpty {
            json.key("rrIntervals")
            json.beginArray()
            for value in workout.rrIntervalsMilliseconds { json.number(value) }
            json.endArray()
        }
        if !workout.track.isEmpty {
            json.key("track")
            json.beginArray()
            for point in workout.track {
                json.beginObject()
                json.key("lat")
                json.number(point.latitudeDegrees)
                json.key("lon")
                json.number(point.longitudeDegrees)
                if let ele = point.elevationMeters {
                    json.key("ele")
                    json.number(ele)
                }
                json.key("t")
                json.number(point.timeSeconds)
                json.endObject()
            }
            json.endArray()
        }
        if let distance = workout.distanceMeters {
            json.key("distanceMeters")
            json.number(distance)
        }
        if let kilocalories = workout.kilocalories {
            json.key("kilocalories")
            json.number(kilocalories)
        }
        if let device = workout.device {
            json.key("device")
            json.string(device)
        }
        json.endObject()
        return json.bytes
    }

    private static func readHeartRate(_ reader: inout JSONStreamReader) throws -> [Int?] {
        var values = [Int?]()
        if try reader.readNull() { throw JSONFieldError(.wrongType, path: "heartRate", "this field is required and cannot be null") }
        try reader.readArray(path: "heartRate") { reader, index in
            guard index < WorkoutLimits.seconds else {
                throw JSONFieldError(.invalidValue, path: "heartRate", "at most 24 hours (86,400 seconds) per workout")
            }
            if try reader.readNull() {
                values.append(nil)
                return
            }
            let number = try reader.readNumber(path: "heartRate[\(index)]", expected: "a number or null")
            guard number == number.rounded(), abs(number) < 1e9 else {
                throw JSONFieldError(.wrongType, path: "heartRate[\(index)]", "expected a whole number of beats per minute")
            }
            values.append(Int(number))
        }
        return values
    }

    private static func readNumbers(_ reader: inout JSONStreamReader, path: String, limit: Int, limitText: String) throws -> [Double] {
        var values = [Double]()
        if try reader.readNull() { throw JSONFieldError(.wrongType, path: path, "may be left out, but not null") }
        try reader.readArray(path: path) { reader, index in
            guard index < limit else { throw JSONFieldError(.invalidValue, path: path, limitText) }
            values.append(try reader.readNumber(path: "\(path)[\(index)]"))
        }
        return values
    }

    private static func readTrack(_ reader: inout JSONStreamReader) throws -> [NewWorkout.TrackPoint] {
        var points = [NewWorkout.TrackPoint]()
        if try reader.readNull() { throw JSONFieldError(.wrongType, path: "track", "may be left out, but not null") }
        try reader.readArray(path: "track") { reader, index in
            guard index < WorkoutLimits.trackPoints else { throw JSONFieldError(.invalidValue, path: "track", "at most 172,800 track points") }
            let path = "track[\(index)]"
            var lat: Double?
            var lon: Double?
            var ele: Double?
            var t: Double?
            try reader.readObject(path: path) { reader, key in
                let memberPath = "\(path).\(key)"
                guard Self.trackPointFields.contains(key) else {
                    throw JSONFieldError(.unknownField, path: memberPath, "unknown field; accepted: \(Self.trackPointFields.sorted().joined(separator: ", "))")
                }
                if try reader.readNull() {
                    guard key == "ele" else { throw JSONFieldError(.wrongType, path: memberPath, "may be left out, but not null") }
                    return
                }
                let value = try reader.readNumber(path: memberPath)
                switch key {
                case "lat": lat = value
                case "lon": lon = value
                case "ele": ele = value
                default: t = value
                }
            }
            guard let lat else { throw JSONFieldError(.missing, path: "\(path).lat", "this field is required") }
            guard let lon else { throw JSONFieldError(.missing, path: "\(path).lon", "this field is required") }
            guard let t else { throw JSONFieldError(.missing, path: "\(path).t", "this field is required") }
            points.append(NewWorkout.TrackPoint(latitudeDegrees: lat, longitudeDegrees: lon, elevationMeters: ele, timeSeconds: t))
        }
        return points
    }
}
