import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// Live recordings from `/record` (issue 23): create, chunks, finish, the unfinished list and
/// discard. Every write is idempotent on resend, so the browser retries until it is answered.
struct RecordingRoutes {
    let services: HeartworkServices

    func register(on api: RouterGroup<AuthenticatedContext>) {
        // 201 created, 200 when that id is the caller's already with the same settings.
        api.put("recordings/:recordingID", use: putRecordingsRecordingID)
        // 201 stored, 200 the same chunk again, 409 another chunk under that number.
        api.put("recordings/:recordingID/chunks/:n", use: putRecordingsRecordingIDChunksN)
        // 201 with the workout made, 200 with the same workout on every later call.
        api.post("recordings/:recordingID/finish", use: postRecordingsRecordingIDFinish)
        api.get("recordings", use: getRecordings)
        api.get("recordings/:recordingID", use: getRecordingsRecordingID)
        api.delete("recordings/:recordingID", use: deleteRecordingsRecordingID)
    }

    var recordings: RecordingService { services.recordings }

    /// PUT /api/recordings/:recordingID
    func putRecordingsRecordingID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await recordings.checkNotOthers(try context.parameters.require("recordingID"), for: context.user)
        let body = try await RequestBody.jsonObject(request, allowed: ["sport", "indoor", "startedAt"], limit: 4 * 1024)
        let sport = try InputParsing.oneOf(try body.string("sport"), Sport.self, field: "sport", what: "sport")
        let indoor = try body.optionalBool("indoor") ?? false
        let startedAt = try InputParsing.dateTime(try body.string("startedAt"), field: "startedAt")
        let (recording, created) = try await recordings.start(
            id: try context.parameters.require("recordingID"), sport: sport, indoor: indoor, startedAt: startedAt, for: context.user)
        var response = try APIJSON.response(RecordingResponse(recording), status: created ? .created : .ok)
        response.headers[.location] = "/api/recordings/\(recording.id)"
        return response
    }

    /// PUT /api/recordings/:recordingID/chunks/:n
    func putRecordingsRecordingIDChunksN(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.parameters.require("recordingID")
        _ = try await recordings.recording(id, for: context.user)
        guard let number = Int(try context.parameters.require("n")) else {
            throw Problem(AppError.invalid("a chunk number is a whole number from 0", field: "n"))
        }
        let body = try await RequestBody.jsonObject(request, allowed: ["samples"], limit: RecordingService.Limits.chunkBytes)
        let samples = try RecordingService.chunkSamples(body)
        let stored = try await recordings.storeChunk(id, number: number, samples: samples, for: context.user)
        return try APIJSON.response(RecordingChunkResponse(n: number, samples: samples.count, stored: stored), status: stored ? .created : .ok)
    }

    /// POST /api/recordings/:recordingID/finish
    func postRecordingsRecordingIDFinish(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await recordings.recording(try context.parameters.require("recordingID"), for: context.user)
        let body = try await RequestBody.jsonObject(request, allowed: ["endedAt", "pausedSeconds"], limit: 4 * 1024)
        let endedAt = try body.optionalString("endedAt").map { text throws in try InputParsing.dateTime(text, field: "endedAt") }
        let paused = try body.optionalInteger("pausedSeconds") ?? 0
        let finished = try await recordings.finish(try context.parameters.require("recordingID"), endedAt: endedAt, pausedSeconds: paused, for: context.user)
        var response = try APIJSON.response(WorkoutCreatedResponse(finished.workout), status: finished.created ? .created : .ok)
        response.headers[.location] = "/api/workouts/\(finished.workout.id)"
        return response
    }

    /// GET /api/recordings
    func getRecordings(_ request: Request, context: AuthenticatedContext) async throws -> RecordingListResponse {
        RecordingListResponse(recordings: try await recordings.unfinished(for: context.user).map(RecordingResponse.init))
    }

    /// GET /api/recordings/:recordingID
    func getRecordingsRecordingID(_ request: Request, context: AuthenticatedContext) async throws -> RecordingResponse {
        RecordingResponse(try await recordings.recording(try context.parameters.require("recordingID"), for: context.user))
    }

    /// DELETE /api/recordings/:recordingID
    func deleteRecordingsRecordingID(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await recordings.discard(try context.parameters.require("recordingID"), for: context.user)
        return .noContent
    }
}

struct RecordingResponse: ResponseEncodable {
    let id: String
    let sport: String
    let indoor: Bool
    let startedAt: Date
    let updatedAt: Date
    /// Chunks stored so far and their samples.
    let chunks: Int
    let samples: Int
    /// Set once finished.
    let workoutID: String?

    init(_ recording: RecordingRecord) {
        id = recording.id
        sport = recording.sport.rawValue
        indoor = recording.indoor
        startedAt = recording.startedAt
        updatedAt = recording.updatedAt
        chunks = recording.chunkCount
        samples = recording.sampleCount
        workoutID = recording.workoutID
    }
}

struct RecordingListResponse: ResponseEncodable {
    let recordings: [RecordingResponse]
}

struct RecordingChunkResponse: ResponseEncodable {
    let n: Int
    let samples: Int
    /// False when this chunk was stored before (a resend).
    let stored: Bool
}
