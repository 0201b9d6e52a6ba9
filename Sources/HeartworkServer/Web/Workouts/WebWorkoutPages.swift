import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore
import HeartworkModel
import Hummingbird

/// Workouts: the list, upload, the detail page with charts, and owner actions.
struct WebWorkoutPages {
    let services: HeartworkServices
    let pages: PageRenderer
    let mapTiles: MapTiles?
    static let perPage = 20

    func register(on router: RouterGroup<AuthenticatedContext>) {
        router.get("workouts", use: getWorkouts)
        router.get("workouts/upload", use: getWorkoutsUpload)
        router.get("workouts/:workoutID", use: getWorkoutsWorkoutID)
        router.post("workouts/:workoutID/:action", use: postWorkoutsWorkoutIDAction)
    }

    /// GET /workouts
    func getWorkouts(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let page = try QueryParameters.integer(request.uri.queryParameters.get("page"), name: "page", range: 1...100_000) ?? 1
        let workouts = try await services.workouts.list(for: context.user, page: Page(limit: Self.perPage + 1, offset: (page - 1) * Self.perPage))
        let total = try await services.workouts.count(for: context.user)
        let lastPage = max(1, (total + Self.perPage - 1) / Self.perPage)
        return pages.page(
            "workouts", title: "Your workouts",
            model: WorkoutsPage(
                workouts: workouts.prefix(Self.perPage).map { Self.row($0, user: context.user) },
                none: total == 0, pastTheEnd: total > 0 && workouts.isEmpty,
                previous: page > 1 ? "/workouts?page=\(min(page - 1, lastPage))" : "",
                next: workouts.count > Self.perPage ? "/workouts?page=\(page + 1)" : "",
                page: page, pages: lastPage, paged: lastPage > 1
            ), request: request, identity: context.identity)
    }

    /// GET /workouts/upload
    func getWorkoutsUpload(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let profile = try await services.profiles.profile(of: context.user)
        return pages.page(
            "upload", title: "Upload a workout",
            model: UploadPage(
                needsProfile: profile.zoneProfile == nil
            ), request: request, identity: context.identity)
    }

    /// GET /workouts/:workoutID
    func getWorkoutsWorkoutID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let visible = try await services.workouts.workout(try context.parameters.require("workoutID"), viewer: context.user)
        let streams = try await services.workouts.streams(of: visible)
        let ownerName = visible.viewerIsOwner ? context.user.fullName : try await services.friends.friend(visible.record.userID, of: context.user).fullName
        let detail = WorkoutDetail(workout: visible, streams: streams, viewer: context.user, ownerName: ownerName, mapTiles: mapTiles)
        var model = detail.model()
        // Saved from a match: the match, as the viewer sees it.
        if let match = try await services.matches.match(savedAs: visible.record.id, for: context.user) {
            let matchPages = WebMatchPages(services: services, pages: pages)
            let described = matchPages.describe(match, viewer: context.user, people: try await matchPages.people(of: [match]))
            model.fromMatch = .init(id: match.id, title: described.title, summary: described.summary)
        }
        return pages.page("workout", title: detail.title, model: model, request: request, identity: context.identity)
    }

    /// POST /workouts/:workoutID/:action
    func postWorkoutsWorkoutIDAction(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.parameters.require("workoutID")
        switch try context.parameters.require("action") {
        case "delete":
            try await services.workouts.delete(id, owner: context.user)
            return pages.redirect(to: "/workouts", notice: .workoutDeleted)
        case "share":
            _ = try await services.workouts.setShared(id, true, owner: context.user)
            return pages.redirect(to: "/workouts/\(id)", notice: .workoutShared)
        case "unshare":
            _ = try await services.workouts.setShared(id, false, owner: context.user)
            return pages.redirect(to: "/workouts/\(id)", notice: .workoutUnshared)
        default:
            throw AppError.notFound("action")
        }
    }

    /// A workout's summary as the pages show it, in the viewer's units and time zone.
    static func row(_ workout: WorkoutRecord, user: UserRecord) -> WorkoutRow {
        let metrics = workout.metrics
        let zone = TimeZones.zone(user.timeZone)
        return WorkoutRow(
            id: workout.id, sport: workout.sport.rawValue.capitalized, day: Formatting.day(workout.startedAt, zone: zone),
            startTime: Formatting.dateTime(workout.startedAt, zone: zone), duration: Formatting.duration(metrics.durationSeconds),
            averageHR: Formatting.number(metrics.averageHeartRate, unit: "bpm"), maximumHR: Formatting.number(metrics.maximumHeartRate, unit: "bpm"),
            minimumHR: Formatting.number(metrics.minimumHeartRate, unit: "bpm"),
            calories: Formatting.number(metrics.kilocalories, unit: "kcal"), distance: Formatting.distance(metrics.distanceMeters, units: user.units),
            hasDistance: metrics.distanceMeters != nil, hasCalories: metrics.kilocalories != nil,
            place: workout.indoor ? "Indoor" : "Outdoor", indoor: workout.indoor, shared: workout.shared
        )
    }
}
