import HeartworkApp
import HeartworkCore
import HeartworkFormats
import Hummingbird

/// A workout with its streams.
struct WorkoutDetailResponse: Encodable {
    struct Point: Encodable {
        let lat: Double, lon: Double, ele: Double?, t: Double
    }

    let summary: WorkoutSummaryResponse
    let heartRate: [Int?]
    let rrIntervals: [Double]
    let track: [Point]

    init(_ workout: VisibleWorkout, streams: WorkoutStreams) {
        summary = WorkoutSummaryResponse(workout.record, viewerIsOwner: workout.viewerIsOwner)
        heartRate = streams.heartRate
        rrIntervals = streams.rrIntervalsMilliseconds
        track = streams.track.map { Point(lat: $0.latitudeDegrees, lon: $0.longitudeDegrees, ele: $0.elevationMeters, t: $0.timeSeconds ?? 0) }
    }
}

extension WorkoutDetailResponse: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        APIJSON.response(jsonBytes())
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
