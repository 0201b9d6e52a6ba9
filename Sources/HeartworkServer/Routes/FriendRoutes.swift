import Foundation
import HeartworkStore
import Hummingbird

/// Search, requests, the friend list and friends' read-only pages.
struct FriendRoutes {
    let services: AppServices

    func register(on api: RouterGroup<AppRequestContext>) {
        api.get("users") { request, context -> UserSearchResponse in
            let user = try context.requireIdentity().user
            let query = request.uri.queryParameters.get("query") ?? ""
            guard query.count <= 100 else { throw APIError.badRequest("the query has at most 100 characters", field: "query") }
            let page = try QueryParameters.page(request)
            let users = try await services.store.users.search(query, excluding: user.id, page: page)
            var results = [UserSearchResult]()
            for found in users {
                results.append(UserSearchResult(
                    user: .init(id: found.id, username: found.username, fullName: found.fullName),
                    relation: try await services.friends.relation(of: user, to: found.id)))
            }
            return UserSearchResponse(users: results, limit: page.limit, offset: page.offset)
        }
        api.get("friends") { _, context -> FriendListResponse in
            let user = try context.requireIdentity().user
            return FriendListResponse(friends: try await services.store.friends.friends(of: user.id).map(PublicProfileResponse.init))
        }
        api.get("friends/:userID") { request, context -> FriendProfileResponse in
            let user = try context.requireIdentity().user
            let friend = try await services.friends.friend(try context.parameters.require("userID"), of: user)
            let page = try QueryParameters.page(request)
            let shared = try await services.store.workouts.list(userID: friend.id, from: nil, to: nil, sharedOnly: true, page: page)
            return FriendProfileResponse(profile: PublicProfileResponse(friend), sharedWorkouts: shared.map(WorkoutSummaryResponse.init))
        }
        api.get("friends/:userID/workouts") { request, context -> WorkoutListResponse in
            let user = try context.requireIdentity().user
            let friend = try await services.friends.friend(try context.parameters.require("userID"), of: user)
            let page = try QueryParameters.page(request)
            let shared = try await services.store.workouts.list(userID: friend.id, from: nil, to: nil, sharedOnly: true, page: page)
            return WorkoutListResponse(workouts: shared.map(WorkoutSummaryResponse.init), limit: page.limit, offset: page.offset)
        }
        api.delete("friends/:userID") { _, context -> HTTPResponse.Status in
            let user = try context.requireIdentity().user
            let friend = try await services.friends.friend(try context.parameters.require("userID"), of: user)
            try await services.store.friends.remove(user.id, friend.id)
            return .noContent
        }
        api.get("friend-requests/incoming") { _, context -> FriendRequestListResponse in
            let user = try context.requireIdentity().user
            return FriendRequestListResponse(requests: try await services.friends.describe(try await services.store.friends.incoming(userID: user.id)))
        }
        api.get("friend-requests/outgoing") { _, context -> FriendRequestListResponse in
            let user = try context.requireIdentity().user
            return FriendRequestListResponse(requests: try await services.friends.describe(try await services.store.friends.outgoing(userID: user.id)))
        }
        api.post("friend-requests") { request, context -> Response in
            let user = try context.requireIdentity().user
            let body = try await JSONBody.decode(FriendRequestCreate.self, from: request, limit: 16 * 1024)
            switch try await services.friends.request(from: user, to: body.userID) {
            case .requested(let record):
                let described = try await services.friends.describe([record])
                return try EditedResponse(status: .created, response: FriendRequestListResponse(requests: described).requests[0])
                    .response(from: request, context: context)
            case .becameFriends:
                let friend = try await services.friends.friend(body.userID, of: user)
                return try EditedResponse(status: .ok, response: FriendListResponse(friends: [PublicProfileResponse(friend)]))
                    .response(from: request, context: context)
            }
        }
        api.post("friend-requests/:requestID/accept") { _, context -> HTTPResponse.Status in
            let user = try context.requireIdentity().user
            try await services.friends.answer(try context.parameters.require("requestID"), by: user, accept: true)
            return .noContent
        }
        api.post("friend-requests/:requestID/deny") { _, context -> HTTPResponse.Status in
            let user = try context.requireIdentity().user
            try await services.friends.answer(try context.parameters.require("requestID"), by: user, accept: false)
            return .noContent
        }
    }
}

/// Query parameters shared by list routes.
enum QueryParameters {
    static func page(_ request: Request) throws -> Page {
        let parameters = request.uri.queryParameters
        let limit = try integer(parameters.get("limit"), name: "limit", range: 1...100) ?? 20
        let offset = try integer(parameters.get("offset"), name: "offset", range: 0...1_000_000) ?? 0
        return Page(limit: limit, offset: offset)
    }

    static func integer(_ text: String?, name: String, range: ClosedRange<Int>) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw APIError.badRequest("\(name) is a whole number from \(range.lowerBound) to \(range.upperBound)", field: name)
        }
        return value
    }

    static func date(_ text: String?, name: String) throws -> Date? {
        guard let text else { return nil }
        if let date = JSONCoding.parseISO8601(text) ?? ISODay.parse(text) { return date }
        throw APIError.badRequest("\(name) is an ISO 8601 date or date-time, such as 2026-11-01 or 2026-11-01T06:00:00Z", field: name)
    }
}
