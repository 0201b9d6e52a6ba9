import Foundation
import HeartworkApp
import Hummingbird

/// Search, requests, the friend list and friends' read-only pages.
struct FriendRoutes {
    let services: HeartworkServices

    func register(on api: RouterGroup<AuthenticatedContext>) {
        api.get("users", use: getUsers)
        api.get("friends", use: getFriends)
        api.get("friends/:userID", use: getFriendsUserID)
        api.get("friends/:userID/workouts", use: getFriendsUserIDWorkouts)
        api.delete("friends/:userID", use: deleteFriendsUserID)
        api.get("friend-requests/incoming", use: getFriendRequestsIncoming)
        api.get("friend-requests/outgoing", use: getFriendRequestsOutgoing)
        api.post("friend-requests", use: postFriendRequests)
        api.post("friend-requests/:requestID/accept", use: postFriendRequestsRequestIDAccept)
        api.post("friend-requests/:requestID/deny", use: postFriendRequestsRequestIDDeny)
    }

    /// GET /api/users
    func getUsers(_ request: Request, context: AuthenticatedContext) async throws -> UserSearchResponse {
        let found = try await services.friends.search(
            request.uri.queryParameters.get("query") ?? "", for: context.user, page: try QueryParameters.page(request))
        return UserSearchResponse(users: found.hits.map(UserSearchResult.init), limit: found.page.limit, offset: found.page.offset)
    }

    /// GET /api/friends
    func getFriends(_ request: Request, context: AuthenticatedContext) async throws -> FriendListResponse {
        FriendListResponse(friends: try await services.friends.friends(of: context.user).map(PublicProfileResponse.init))
    }

    /// GET /api/friends/:userID
    func getFriendsUserID(_ request: Request, context: AuthenticatedContext) async throws -> FriendProfileResponse {
        let friend = try await services.friends.friend(try context.parameters.require("userID"), of: context.user)
        let shared = try await services.workouts.shared(by: friend.id, to: context.user, page: try QueryParameters.page(request))
        return FriendProfileResponse(profile: PublicProfileResponse(friend), sharedWorkouts: shared.map { WorkoutSummaryResponse($0, viewerIsOwner: false) })
    }

    /// GET /api/friends/:userID/workouts
    func getFriendsUserIDWorkouts(_ request: Request, context: AuthenticatedContext) async throws -> WorkoutListResponse {
        let page = try QueryParameters.page(request)
        let shared = try await services.workouts.shared(by: try context.parameters.require("userID"), to: context.user, page: page)
        return WorkoutListResponse(workouts: shared.map { WorkoutSummaryResponse($0, viewerIsOwner: false) }, limit: page.limit, offset: page.offset)
    }

    /// DELETE /api/friends/:userID
    func deleteFriendsUserID(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await services.friends.remove(try context.parameters.require("userID"), of: context.user)
        return .noContent
    }

    /// GET /api/friend-requests/incoming
    func getFriendRequestsIncoming(_ request: Request, context: AuthenticatedContext) async throws -> FriendRequestListResponse {
        FriendRequestListResponse(requests: try await services.friends.incoming(to: context.user).map(FriendRequestResponse.init))
    }

    /// GET /api/friend-requests/outgoing
    func getFriendRequestsOutgoing(_ request: Request, context: AuthenticatedContext) async throws -> FriendRequestListResponse {
        FriendRequestListResponse(requests: try await services.friends.outgoing(from: context.user).map(FriendRequestResponse.init))
    }

    /// POST /api/friend-requests
    func postFriendRequests(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try FriendRequestCreate(try await RequestBody.jsonObject(request, allowed: FriendRequestCreate.fields, limit: 16 * 1024))
        switch try await services.friends.request(from: context.user, to: body.userID) {
        case .requested(let view):
            return try APIJSON.response(FriendRequestResponse(view), status: .created)
        case .becameFriends(let friend):
            return try APIJSON.response(FriendListResponse(friends: [PublicProfileResponse(friend)]))
        }
    }

    /// POST /api/friend-requests/:requestID/accept
    func postFriendRequestsRequestIDAccept(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await services.friends.answer(try context.parameters.require("requestID"), by: context.user, accept: true)
        return .noContent
    }

    /// POST /api/friend-requests/:requestID/deny
    func postFriendRequestsRequestIDDeny(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await services.friends.answer(try context.parameters.require("requestID"), by: context.user, accept: false)
        return .noContent
    }
}
