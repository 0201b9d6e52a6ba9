import Foundation
import HeartworkCore
import HeartworkStore
import Hummingbird

/// Workouts: the list, upload, the detail page with charts, and owner actions.
struct WebWorkoutPages {
    let services: AppServices
    static let perPage = 20

    func register(on router: Router<AppRequestContext>) {
        let pages = services.pages
        router.get("workouts") { request, context -> Response in
            let identity = try context.requireIdentity()
            let page = max(1, Int(request.uri.queryParameters.get("page") ?? "1") ?? 1)
            let workouts = try await services.store.workouts.list(
                userID: identity.user.id, from: nil, to: nil, sharedOnly: false,
                page: Page(limit: Self.perPage + 1, offset: (page - 1) * Self.perPage))
            let imperial = identity.user.units == "imperial"
            return pages.page("workouts", title: "Your workouts", values: [
                "workouts": workouts.prefix(Self.perPage).map { Self.row($0, imperial: imperial) },
                "empty": workouts.isEmpty && page == 1,
                "previous": page > 1 ? "/workouts?page=\(page - 1)" : "", "next": workouts.count > Self.perPage ? "/workouts?page=\(page + 1)" : "",
                "page": page,
            ], identity: identity)
        }
        router.get("workouts/upload") { _, context -> Response in
            let identity = try context.requireIdentity()
            let profile = try await services.profile(of: identity.user)
            return pages.page("upload", title: "Upload a workout", values: [
                "needsProfile": profile.restingHeartRate == nil || profile.maxHeartRate.bpm == nil,
            ], identity: identity)
        }
        router.get("workouts/:workoutID") { _, context -> Response in
            let identity = try context.requireIdentity()
            let workout = try await services.visibleWorkout(try context.parameters.require("workoutID"), to: identity)
            guard let streams = try await services.store.workouts.streams(workoutID: workout.id) else { throw APIError.notFound("workout") }
            let owner = workout.userID == identity.user.id ? identity.user : try await services.store.users.find(id: workout.userID)
            var values = Self.row(workout, imperial: identity.user.units == "imperial")
            values["mine"] = workout.userID == identity.user.id
            values["ownerName"] = owner?.fullName ?? ""
            values["ownerID"] = workout.userID
            values["heartRateChart"] = WorkoutCharts.heartRate(workout, streams: streams)
            values["zoneChart"] = workout.secondsInZones.map(WorkoutCharts.timeInZones) ?? ""
            values["routeChart"] = workout.indoor || streams.track.count < 2 ? "" : WorkoutCharts.route(streams.track)
            values["noZones"] = workout.secondsInZones == nil
            values["rrCount"] = workout.rrCount
            values["profileAge"] = workout.profile.ageYears.map(String.init) ?? "–"
            values["profileResting"] = Formatting.number(workout.profile.restingHeartRate, unit: "bpm")
            values["profileMax"] = Formatting.number(workout.profile.maximumHeartRate, unit: "bpm")
            return pages.page("workout", title: "\(workout.sport.rawValue.capitalized) on \(Formatting.day(workout.startedAt))", values: values, identity: identity)
        }
        router.post("workouts/:workoutID/:action") { _, context -> Response in
            let identity = try context.requireIdentity()
            let id = try context.parameters.require("workoutID")
            switch try context.parameters.require("action") {
            case "delete":
                guard try await services.store.workouts.delete(id: id, userID: identity.user.id) else { throw APIError.notFound("workout") }
                return PageRenderer.redirect(to: "/workouts")
            case "share", "unshare":
                let shared = try context.parameters.require("action") == "share"
                guard try await services.store.workouts.setShared(
                    id: id, userID: identity.user.id, shared: shared, maxShared: identity.user.maxSharedWorkouts, at: Date()) != nil else {
                    throw APIError.notFound("workout")
                }
                return PageRenderer.redirect(to: "/workouts/\(id)")
            default:
                throw APIError.notFound("action")
            }
        }
    }

    /// A workout's summary as template values.
    static func row(_ workout: WorkoutRecord, imperial: Bool) -> [String: Any] {
        [
            "id": workout.id, "sport": workout.sport.rawValue.capitalized, "day": Formatting.day(workout.startedAt),
            "startTime": Formatting.dateTime(workout.startedAt), "duration": Formatting.duration(workout.durationSeconds),
            "averageHR": Formatting.number(workout.averageHeartRate, unit: "bpm"), "maximumHR": Formatting.number(workout.maximumHeartRate, unit: "bpm"),
            "minimumHR": Formatting.number(workout.minimumHeartRate, unit: "bpm"),
            "calories": Formatting.number(workout.kilocalories, unit: "kcal"), "distance": Formatting.distance(workout.distanceMeters, imperial: imperial),
            "place": workout.indoor ? "Indoor" : "Outdoor", "indoor": workout.indoor, "shared": workout.shared,
        ]
    }
}
