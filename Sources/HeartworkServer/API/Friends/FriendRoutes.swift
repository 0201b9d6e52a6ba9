import Foundation
import HeartworkApp
import Hummingbird

/// Search, requests, the friend list and friends' read-only pages.
struct FriendRoutes {
    let services: HeartworkServices

    func register(on api: RouterGroup<AuthenticatedContext>) {
        api.get("users") { request, context -> UserSearchResponse in
            let found = try await services.friends.search(
                request.uri.queryParameters.get("query") ?? "", for: context.user, page: try QueryParameters.page(request))
            return UserSearchResponse(users: found.hits.map(UserSearchResult.init), limit: found.page.limit, offset: found.page.offset)
        }
        api.get("friends") { _, context -> FriendListResponse in
            FriendListResponse(friends: try await services.friends.friends(of: context.user).map(PublicProfileResponse.init))
        }
        api.get("friends/:userID") { request, context -> FriendProfileResponse in
            let friend = try await services.friends.friend(try context.parameters.require("userID"), of: context.user)
            let shared = try await services.workouts.shared(by: friend.id, to: context.user, page: try QueryParameters.page(request))
            return FriendProfileResponse(profile: PublicProfileResponse(friend), sharedWorkouts: shared.map { WorkoutSummaryResponse($0, viewerIsOwner: false) })
        }
        api.get("friends/:userID/workouts") { request, context -> WorkoutListResponse in
            let page = try QueryParameters.page(request)
            let shared = try await services.workouts.shared(by: try context.parameters.require("userID"), to: context.user, page: page)
            return WorkoutListResponse(workouts: shared.map { WorkoutSummaryResponse($0, viewerIsOwner: false) }, limit: page.limit, offset: page.offset)
        }
        api.delete("friends/:userID") { _, context -> HTTPResponse.Status in
            try await services.friends.remove(try context.parameters.require("userID"), of: context.user)
            return .noContent
        }
        api.get("friend-requests/incoming") { _, context -> FriendRequestListResponse in
            FriendRequestListResponse(requests: try await services.friends.incoming(to: context.user).map(FriendRequestResponse.init))
        }
        api.get("friend-requests/outgoing") { _, context -> FriendRequestListResponse in
            FriendRequestListResponse(requests: try await services.friends.outgoing(from: context.user).map(FriendRequestResponse.init))
        }
        api.post("friend-requests") { request, context -> Response in
            let body = try FriendRequestCreate(try await RequestBody.jsonObject(request, allowed: FriendRequestCreate.fields, limit: 16 * 1024))
            switch try await services.friends.request(from: context.user, to: body.userID) {
            case .requested(let view):
                return try APIJSON.response(FriendRequestResponse(view), status: .created)
            case .becameFriends(let friend):
                return try APIJSON.response(FriendListResponse(friends: [PublicProfileResponse(friend)]))
            }
        }
        api.post("friend-requests/:requestID/accept") { _, context -> HTTPResponse.Status in
            try await services.friends.answer(try context.parameters.require("requestID"), by: context.user, accept: true)
            return .noContent
        }
        api.post("friend-requests/:requestID/deny") { _, context -> HTTPResponse.Status in
            try await services.friends.answer(try context.parameters.require("requestID"), by: context.user, accept: false)
            return .noContent
        }
    }
}
