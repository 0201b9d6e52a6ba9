import Foundation
import HeartworkCore
import HeartworkFormats
import Hummingbird

/// `GET /api/heart-rate`: a range's minimum, maximum and time-weighted average with its series
/// (`HeartRateRange`), written by `JSONWriter` (a day per second is 86,400 buckets).
struct HeartRateResponse: ResponseGenerator {
    let range: HeartRateRange
    let resolution: HeartRateRange.Resolution

    func response(from request: Request, context: some RequestContext) throws -> Response {
        APIJSON.response(jsonBytes())
    }

    func jsonBytes() -> [UInt8] {
        var json = JSONWriter(capacity: 512 + range.buckets.count * 90)
        json.beginObject()
        json.field("average", range.average)
        json.field("bucketSeconds", range.bucketSeconds)
        json.field("coveredSeconds", range.coveredSeconds.rounded())
        json.field("from", range.from)
        json.field("maximum", range.maximum)
        json.field("minimum", range.minimum)
        json.field("resolution", resolution.rawValue)
        json.field("samples", range.samples)
        json.key("series")
        json.beginArray()
        for bucket in range.buckets {
            json.beginObject()
            json.field("average", bucket.average)
            json.field("maximum", bucket.maximum)
            json.field("minimum", bucket.minimum)
            json.field("seconds", bucket.coveredSeconds.rounded())
            json.field("start", bucket.start)
            json.endObject()
        }
        json.endArray()
        json.field("to", range.to)
        json.endObject()
        return json.bytes
    }
}
