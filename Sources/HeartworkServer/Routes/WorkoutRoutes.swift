import Foundation
import HeartworkStore
import HTTPTypes
import Hummingbird

/// Upload, list, detail, delete, share and unshare.
struct WorkoutRoutes {
    let services: AppServices

    func register(on api: RouterGroup<AppRequestContext>) {
        // The answer is the summary (with the Location of the full workout): echoing 7,200
        // samples back would only cost time on both ends.
        api.post("workouts") { request, context -> EditedResponse<WorkoutCreatedResponse> in
            let user = try context.requireIdentity().user
            let body = try WorkoutUploadRequest(json: try JSONFields.parse(try await JSONBody.bytes(request, limit: services.configuration.maximumBodyBytes)))
            let (record, _) = try await services.workoutService.store(body, for: user)
            services.metrics.workoutsUploaded.increment()
            var headers = HTTPFields()
            headers[.location] = "/api/workouts/\(record.id)"
            return EditedResponse(status: .created, headers: headers, response: WorkoutCreatedResponse(summary: WorkoutSummaryResponse(record)))
        }
        api.get("workouts") { request, context -> WorkoutListResponse in
            let user = try context.requireIdentity().user
            let page = try QueryParameters.page(request)
            let parameters = request.uri.queryParameters
            let from = try QueryParameters.date(parameters.get("from"), name: "from")
            let to = try QueryParameters.date(parameters.get("to"), name: "to")
            let workouts = try await services.store.workouts.list(userID: user.id, from: from, to: to, sharedOnly: false, page: page)
            return WorkoutListResponse(workouts: workouts.map(WorkoutSummaryResponse.init), limit: page.limit, offset: page.offset)
        }
        api.get("workouts/:workoutID") { _, context -> WorkoutDetailResponse in
            let identity = try context.requireIdentity()
            let workout = try await services.visibleWorkout(try context.parameters.require("workoutID"), to: identity)
            guard let streams = try await services.store.workouts.streams(workoutID: workout.id) else { throw APIError.notFound("workout") }
            return WorkoutDetailResponse(workout, streams: streams)
        }
        api.delete("workouts/:workoutID") { _, context -> HTTPResponse.Status in
            let user = try context.requireIdentity().user
            guard try await services.store.workouts.delete(id: try context.parameters.require("workoutID"), userID: user.id) else {
                throw APIError.notFound("workout")
            }
            return .noContent
        }
        api.put("workouts/:workoutID/share") { _, context -> WorkoutSummaryResponse in
            try await share(context, shared: true)
        }
        api.delete("workouts/:workoutID/share") { _, context -> WorkoutSummaryResponse in
            try await share(context, shared: false)
        }
    }

    private func share(_ context: AppRequestContext, shared: Bool) async throws -> WorkoutSummaryResponse {
        let user = try context.requireIdentity().user
        guard let workout = try await services.store.workouts.setShared(
            id: try context.parameters.require("workoutID"), userID: user.id, shared: shared,
            maxShared: user.maxSharedWorkouts, at: Date()) else { throw APIError.notFound("workout") }
        return WorkoutSummaryResponse(workout)
    }
}
