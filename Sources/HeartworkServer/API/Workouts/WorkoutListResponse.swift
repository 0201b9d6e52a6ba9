import HeartworkFormats
import Hummingbird

struct WorkoutListResponse: Encodable {
    let workouts: [WorkoutSummaryResponse]
    let limit: Int
    let offset: Int
}

extension WorkoutListResponse: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        APIJSON.response(jsonBytes())
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
