import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import Hummingbird

/// Upload, list, detail, delete, share and unshare.
struct WorkoutRoutes {
    let services: HeartworkServices
    let maximumBodyBytes: Int
    let metrics: ServerMetrics
    let uploads: WorkGate
    let senders: PerUserUploads

    func register(on api: RouterGroup<AuthenticatedContext>) {
        // The answer is the summary (with the Location of the full workout): echoing 7,200
        // samples back would only cost time on both ends.
        // JSON (Heartwork's document), FIT, TCX or GPX by content type; application/octet-stream
        // is sniffed. The same activity twice (same start and device) answers 409 with the
        // Location of the one stored — unless the one stored is at least 5 s shorter (a cut
        // copy uploaded first): then this one takes its place, 200 with `replaced`.
        api.post("workouts", use: postWorkouts)
        // The owner's workout as a file: ?format=fit|tcx|gpx|json (json when left out).
        api.get("workouts/:workoutID/export", use: getWorkoutsWorkoutIDExport)
        api.get("workouts", use: getWorkouts)
        api.get("workouts/:workoutID", use: getWorkoutsWorkoutID)
        api.delete("workouts/:workoutID", use: deleteWorkoutsWorkoutID)
        api.put("workouts/:workoutID/share", use: putWorkoutsWorkoutIDShare)
        api.delete("workouts/:workoutID/share", use: deleteWorkoutsWorkoutIDShare)
    }

    /// POST /api/workouts
    func postWorkouts(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let format = try Self.uploadFormat(request)
        // The body arrives first (a slow sender holds only their own places), then takes one of
        // the server's places to be decoded and stored.
        let uploaded = try await senders.run(context.user.id) {
            let bytes = try await RequestBody.bytes(request, limit: maximumBodyBytes)
            return try await uploads.run { try await services.workouts.upload(bytes, format: format, for: context.user) }
        }
        metrics.workoutsUploaded.increment()
        // A longer copy put in place of a cut one stored before: 200, with `replaced`.
        var response = try APIJSON.response(WorkoutCreatedResponse(uploaded), status: uploaded.replaced == nil ? .created : .ok)
        response.headers[.location] = "/api/workouts/\(uploaded.workout.id)"
        return response
    }

    /// GET /api/workouts/:workoutID/export
    func getWorkoutsWorkoutIDExport(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let name = request.uri.queryParameters.get("format") ?? "json"
        guard let format = ActivityFileFormat(rawValue: name.lowercased()) else {
            throw Problem(AppError.invalid("format is one of fit, tcx, gpx, json", field: "format"))
        }
        let file = try await services.workouts.export(try context.parameters.require("workoutID"), owner: context.user, format: format)
        var headers = HTTPFields()
        headers[.contentType] = format.mediaType
        headers[.contentDisposition] = "attachment; filename=\"\(file.fileName)\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    /// GET /api/workouts
    func getWorkouts(_ request: Request, context: AuthenticatedContext) async throws -> WorkoutListResponse {
        let page = try QueryParameters.page(request)
        let parameters = request.uri.queryParameters
        let from = try QueryParameters.date(parameters.get("from"), name: "from")
        let to = try QueryParameters.date(parameters.get("to"), name: "to")
        let workouts = try await services.workouts.list(for: context.user, from: from, to: to, page: page)
        return WorkoutListResponse(workouts: workouts.map { WorkoutSummaryResponse($0, viewerIsOwner: true) }, limit: page.limit, offset: page.offset)
    }

    /// GET /api/workouts/:workoutID
    func getWorkoutsWorkoutID(_ request: Request, context: AuthenticatedContext) async throws -> WorkoutDetailResponse {
        let workout = try await services.workouts.workout(try context.parameters.require("workoutID"), viewer: context.user)
        return WorkoutDetailResponse(workout, streams: try await services.workouts.streams(of: workout))
    }

    /// DELETE /api/workouts/:workoutID
    func deleteWorkoutsWorkoutID(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await services.workouts.delete(try context.parameters.require("workoutID"), owner: context.user)
        return .noContent
    }

    /// PUT /api/workouts/:workoutID/share
    func putWorkoutsWorkoutIDShare(_ request: Request, context: AuthenticatedContext) async throws -> WorkoutSummaryResponse {
        try await share(context, shared: true)
    }

    /// DELETE /api/workouts/:workoutID/share
    func deleteWorkoutsWorkoutIDShare(_ request: Request, context: AuthenticatedContext) async throws -> WorkoutSummaryResponse {
        try await share(context, shared: false)
    }

    static let formatMessage = "Heartwork cannot tell what kind of file this is. Upload a .fit, .tcx or .gpx file from your watch or app (or Heartwork's own .json)."

    /// The upload's format from its Content-Type; nil for application/octet-stream (sniffed).
    static func uploadFormat(_ request: Request) throws -> ActivityFileFormat? {
        guard let contentType = request.headers[.contentType] else {
            throw Problem(
                .unsupportedMediaType, "Unsupported media type",
                detail:
                    "name the format in the Content-Type: application/json, application/vnd.ant.fit, application/vnd.garmin.tcx+xml, application/gpx+xml or application/octet-stream (the header is missing)"
            )
            .withMessage(Self.formatMessage)
        }
        if let format = ActivityFileFormat(mediaType: contentType) { return format }
        if RequestBody.bareMediaType(contentType) == "application/octet-stream" { return nil }
        throw Problem(
            .unsupportedMediaType, "Unsupported media type",
            detail: "send application/json, application/vnd.ant.fit, application/vnd.garmin.tcx+xml, application/gpx+xml or application/octet-stream, not \(contentType)"
        )
        .withMessage(Self.formatMessage)
    }

    private func share(_ context: AuthenticatedContext, shared: Bool) async throws -> WorkoutSummaryResponse {
        let workout = try await services.workouts.setShared(try context.parameters.require("workoutID"), shared, owner: context.user)
        return WorkoutSummaryResponse(workout, viewerIsOwner: true)
    }
}
