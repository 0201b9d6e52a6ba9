import Foundation
import HeartworkApp
import HeartworkModel
import Hummingbird

/// Matches and notifications (issue 10): docs/PROTOCOL.md §10 and the OpenAPI document.
struct MatchRoutes {
    let services: HeartworkServices

    func response(_ match: MatchRecord, _ user: UserRecord) async throws -> MatchResponse {
        MatchResponse(match, viewer: user, people: try await services.matches.people(in: [match]))
    }

    func register(on api: RouterGroup<AuthenticatedContext>) {
        api.post("matches", use: postMatches)
        api.get("matches", use: getMatches)
        api.get("matches/:matchID", use: getMatchesMatchID)
        api.post("matches/:matchID/accept", use: postMatchesMatchIDAccept)
        api.post("matches/:matchID/decline", use: postMatchesMatchIDDecline)

        api.post("matches/:matchID/workout", use: postMatchesMatchIDWorkout)

        api.get("notifications", use: getNotifications)
        api.post("notifications/read", use: postNotificationsRead)
        api.post("notifications/:notificationID/read", use: postNotificationsNotificationIDRead)
    }

    /// POST /api/matches
    func postMatches(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await RequestBody.jsonObject(request, allowed: ["opponent", "minutes", "ghost", "practice"], limit: 4 * 1024)
        let match: MatchRecord
        if body.contains("ghost") {
            guard !body.contains("opponent"), !body.contains("minutes") else {
                throw Problem(AppError.invalid("a ghost race takes only \"ghost\": its length is the recording's", field: "ghost"))
            }
            match = try await services.matches.ghost(try body.string("ghost"), by: context.user)
        } else {
            match = try await services.matches.invite(
                try body.string("opponent"), minutes: try body.integer("minutes"), practice: try body.optionalBool("practice") ?? false, by: context.user)
        }
        var answer = try APIJSON.response(try await response(match, context.user), status: .created)
        answer.headers[.location] = "/api/matches/\(match.id)"
        return answer
    }

    /// GET /api/matches
    func getMatches(_ request: Request, context: AuthenticatedContext) async throws -> MatchListResponse {
        let matches = try await services.matches.list(for: context.user, page: try QueryParameters.page(request))
        let people = try await services.matches.people(in: matches)
        return MatchListResponse(matches: matches.map { MatchResponse($0, viewer: context.user, people: people) })
    }

    /// GET /api/matches/:matchID
    func getMatchesMatchID(_ request: Request, context: AuthenticatedContext) async throws -> MatchResponse {
        try await response(try await services.matches.match(try context.parameters.require("matchID"), for: context.user), context.user)
    }

    /// POST /api/matches/:matchID/accept
    func postMatchesMatchIDAccept(_ request: Request, context: AuthenticatedContext) async throws -> MatchResponse {
        try await response(try await services.matches.accept(try context.parameters.require("matchID"), by: context.user), context.user)
    }

    /// POST /api/matches/:matchID/decline
    func postMatchesMatchIDDecline(_ request: Request, context: AuthenticatedContext) async throws -> MatchResponse {
        try await response(try await services.matches.decline(try context.parameters.require("matchID"), by: context.user), context.user)
    }

    /// POST /api/matches/:matchID/workout
    func postMatchesMatchIDWorkout(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let workout = try await services.matches.saveWorkout(try context.parameters.require("matchID"), by: context.user)
        var answer = try APIJSON.response(WorkoutCreatedResponse(workout), status: .created)
        answer.headers[.location] = "/api/workouts/\(workout.id)"
        return answer
    }

    /// GET /api/notifications
    func getNotifications(_ request: Request, context: AuthenticatedContext) async throws -> NotificationListResponse {
        let (notices, unread) = try await services.inbox.list(for: context.user, page: try QueryParameters.page(request))
        return NotificationListResponse(notifications: notices.map(NotificationResponse.init), unread: unread)
    }

    /// POST /api/notifications/read
    func postNotificationsRead(_ request: Request, context: AuthenticatedContext) async throws -> UnreadResponse {
        UnreadResponse(unread: try await services.inbox.markRead(nil, for: context.user))
    }

    /// POST /api/notifications/:notificationID/read
    func postNotificationsNotificationIDRead(_ request: Request, context: AuthenticatedContext) async throws -> UnreadResponse {
        UnreadResponse(unread: try await services.inbox.markRead(try context.parameters.require("notificationID"), for: context.user))
    }
}
