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
    let uploads: UploadGate

    func register(on api: RouterGroup<AuthenticatedContext>) {
        // The answer is the summary (with the Location of the full workout): echoing 7,200
        // samples back would only cost time on both ends.
        // JSON (Heartwork's document) or a FIT activity (application/vnd.ant.fit), by content type.
        api.post("workouts") { request, context -> Response in
            let mediaType = request.headers[.contentType]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let fit = mediaType == "application/vnd.ant.fit"
            if !fit { try RequestBody.checkJSONMediaType(request) }
            let record = try await uploads.run {
                let bytes = try await RequestBody.bytes(request, limit: maximumBodyBytes)
                let workout: NewWorkout
                if fit {
                    do throws(ActivityWorkoutError) {
                        workout = try ActivityWorkout.newWorkout(from: FITActivityReader.read(bytes))
                    } catch {
                        throw Problem(AppError.invalid(error.description, field: "file"))
                    }
                } else {
                    workout = try WorkoutJSON.read(bytes)
                }
                return try await services.workouts.record(workout, for: context.user)
            }
            metrics.workoutsUploaded.increment()
            var response = try APIJSON.response(WorkoutCreatedResponse(summary: WorkoutSummaryResponse(record, viewerIsOwner: true)), status: .created)
            response.headers[.location] = "/api/workouts/\(record.id)"
            return response
        }
        api.get("workouts") { request, context -> WorkoutListResponse in
            let page = try QueryParameters.page(request)
            let parameters = request.uri.queryParameters
            let from = try QueryParameters.date(parameters.get("from"), name: "from")
            let to = try QueryParameters.date(parameters.get("to"), name: "to")
            let workouts = try await services.workouts.list(for: context.user, from: from, to: to, page: page)
            return WorkoutListResponse(workouts: workouts.map { WorkoutSummaryResponse($0, viewerIsOwner: true) }, limit: page.limit, offset: page.offset)
        }
        api.get("workouts/:workoutID") { _, context -> WorkoutDetailResponse in
            let workout = try await services.workouts.workout(try context.parameters.require("workoutID"), viewer: context.user)
            return WorkoutDetailResponse(workout, streams: try await services.workouts.streams(of: workout))
        }
        api.delete("workouts/:workoutID") { _, context -> HTTPResponse.Status in
            try await services.workouts.delete(try context.parameters.require("workoutID"), owner: context.user)
            return .noContent
        }
        api.put("workouts/:workoutID/share") { _, context -> WorkoutSummaryResponse in
            try await share(context, shared: true)
        }
        api.delete("workouts/:workoutID/share") { _, context -> WorkoutSummaryResponse in
            try await share(context, shared: false)
        }
    }

    private func share(_ context: AuthenticatedContext, shared: Bool) async throws -> WorkoutSummaryResponse {
        let workout = try await services.workouts.setShared(try context.parameters.require("workoutID"), shared, owner: context.user)
        return WorkoutSummaryResponse(workout, viewerIsOwner: true)
    }
}
