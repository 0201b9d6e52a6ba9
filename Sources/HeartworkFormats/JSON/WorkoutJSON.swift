import HeartworkCore

/// Heartwork's own workout document (the JSON of `POST /api/workouts` and of exports):
///
///     { "sport": "running", "startTime": "2026-11-20T07:00:00Z", "indoor": false,
///       "heartRate": [121, 122, null], "rrIntervals": [812.5],
///       "track": [{"lat": 48.2, "lon": 16.37, "ele": 180.5, "t": 0}],
///       "distanceMeters": 5012, "kilocalories": 412 }
///
/// Reading checks shapes and types only; the workout service checks the values.
public enum WorkoutJSON {
    public static let fields = ["sport", "startTime", "indoor", "heartRate", "rrIntervals", "track", "distanceMeters", "kilocalories"]
    public static let trackPointFields = ["lat", "lon", "ele", "t"]

    public static func read(_ bytes: [UInt8]) throws(JSONFieldError) -> NewWorkout {
        try read(JSONObjectReader(parsing: bytes, allowed: fields))
    }

    public static func read(_ body: JSONObjectReader) throws(JSONFieldError) -> NewWorkout {
        let sportName = try body.string("sport")
        guard let sport = Sport(rawValue: sportName) else {
            throw JSONFieldError(.invalidValue, path: "sport", "sport is one of \(Sport.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let start = try body.string("startTime")
        guard let startTime = RFC3339.parse(start) else {
            throw JSONFieldError(.invalidValue, path: "startTime", "'\(start)' is not a date-time such as 2026-11-21T07:30:00Z")
        }
        var heartRate = [Int?]()
        let samples = try body.array("heartRate")
        heartRate.reserveCapacity(samples.count)
        for (index, value) in samples.enumerated() {
            switch value {
            case .null: heartRate.append(nil)
            case .number(let number) where number == number.rounded() && abs(number) < 1e9: heartRate.append(Int(number))
            case .number: throw JSONFieldError(.wrongType, path: "heartRate[\(index)]", "expected a whole number of beats per minute")
            default: throw JSONFieldError(.wrongType, path: "heartRate[\(index)]", "expected a number or null")
            }
        }
        var rr = [Double]()
        for (index, value) in (try body.optionalArray("rrIntervals") ?? []).enumerated() {
            rr.append(try JSONObjectReader.double(value, "rrIntervals[\(index)]"))
        }
        var track = [NewWorkout.TrackPoint]()
        for (index, value) in (try body.optionalArray("track") ?? []).enumerated() {
            let point = try JSONObjectReader(value, path: "track[\(index)]", allowed: trackPointFields)
            track.append(NewWorkout.TrackPoint(
                latitudeDegrees: try point.double("lat"), longitudeDegrees: try point.double("lon"),
                elevationMeters: try point.optionalDouble("ele"), timeSeconds: try point.double("t")))
        }
        return NewWorkout(
            sport: sport, startTime: startTime, indoor: try body.optionalBool("indoor") ?? false, heartRate: heartRate,
            rrIntervalsMilliseconds: rr, track: track,
            distanceMeters: try body.optionalDouble("distanceMeters"), kilocalories: try body.optionalDouble("kilocalories"))
    }
}
