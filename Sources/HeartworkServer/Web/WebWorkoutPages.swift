import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkStore
import Hummingbird

/// Workouts: the list, upload, the detail page with charts, and owner actions.
struct WebWorkoutPages {
    let services: HeartworkServices
    let pages: PageRenderer
    static let perPage = 20

    func register(on router: RouterGroup<AuthenticatedContext>) {
        let pages = pages
        router.get("workouts") { request, context -> Response in
            let page = try QueryParameters.integer(request.uri.queryParameters.get("page"), name: "page", range: 1...100_000) ?? 1
            let workouts = try await services.workouts.list(for: context.user, page: Page(limit: Self.perPage + 1, offset: (page - 1) * Self.perPage))
            return pages.page("workouts", title: "Your workouts", values: [
                "workouts": workouts.prefix(Self.perPage).map { Self.row($0, units: context.user.units) },
                "empty": workouts.isEmpty && page == 1,
                "previous": page > 1 ? "/workouts?page=\(page - 1)" : "", "next": workouts.count > Self.perPage ? "/workouts?page=\(page + 1)" : "",
                "page": page,
            ], identity: context.identity)
        }
        router.get("workouts/upload") { _, context -> Response in
            let profile = try await services.profiles.profile(of: context.user)
            return pages.page("upload", title: "Upload a workout", values: [
                "needsProfile": profile.restingHeartRate == nil || profile.maximumHeartRate == nil,
            ], identity: context.identity)
        }
        router.get("workouts/:workoutID") { _, context -> Response in
            let visible = try await services.workouts.workout(try context.parameters.require("workoutID"), viewer: context.user)
            let workout = visible.record
            let streams = try await services.workouts.streams(of: visible)
            let ownerName = visible.viewerIsOwner ? context.user.fullName : try await services.friends.friend(workout.userID, of: context.user).fullName
            var values = Self.row(workout, units: context.user.units)
            values["mine"] = visible.viewerIsOwner
            values["ownerName"] = ownerName
            values["ownerID"] = workout.userID
            values["heartRateChart"] = WorkoutCharts.heartRate(workout, streams: streams)
            values["zoneChart"] = workout.metrics.secondsInZones.map(WorkoutCharts.timeInZones) ?? ""
            values["routeChart"] = workout.indoor || streams.track.count < 2 ? "" : WorkoutCharts.route(streams.track)
            values["noZones"] = workout.metrics.secondsInZones == nil
            values["rrCount"] = workout.rrCount
            values["profileAge"] = workout.profile.ageYears.map(String.init) ?? "–"
            values["profileResting"] = Formatting.number(workout.profile.restingHeartRate, unit: "bpm")
            values["profileMax"] = Formatting.number(workout.profile.maximumHeartRate, unit: "bpm")
            return pages.page("workout", title: "\(workout.sport.rawValue.capitalized) on \(Formatting.day(workout.startedAt))", values: values, identity: context.identity)
        }
        router.post("workouts/:workoutID/:action") { _, context -> Response in
            let id = try context.parameters.require("workoutID")
            switch try context.parameters.require("action") {
            case "delete":
                try await services.workouts.delete(id, owner: context.user)
                return PageRenderer.redirect(to: "/workouts")
            case "share", "unshare":
                _ = try await services.workouts.setShared(id, try context.parameters.require("action") == "share", owner: context.user)
                return PageRenderer.redirect(to: "/workouts/\(id)")
            default:
                throw AppError.notFound("action")
            }
        }
    }

    /// A workout's summary as template values.
    static func row(_ workout: WorkoutRecord, units: UnitSystem) -> [String: Any] {
        let metrics = workout.metrics
        return [
            "id": workout.id, "sport": workout.sport.rawValue.capitalized, "day": Formatting.day(workout.startedAt),
            "startTime": Formatting.dateTime(workout.startedAt), "duration": Formatting.duration(metrics.durationSeconds),
            "averageHR": Formatting.number(metrics.averageHeartRate, unit: "bpm"), "maximumHR": Formatting.number(metrics.maximumHeartRate, unit: "bpm"),
            "minimumHR": Formatting.number(metrics.minimumHeartRate, unit: "bpm"),
            "calories": Formatting.number(metrics.kilocalories, unit: "kcal"), "distance": Formatting.distance(metrics.distanceMeters, imperial: units == .imperial),
            "place": workout.indoor ? "Indoor" : "Outdoor", "indoor": workout.indoor, "shared": workout.shared,
        ]
    }
}
