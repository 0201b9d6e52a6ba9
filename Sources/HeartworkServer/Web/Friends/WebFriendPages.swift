import Foundation
import HeartworkApp
import HeartworkModel
import Hummingbird

/// Friends: the list, requests, search and a friend's page.
struct WebFriendPages {
    let services: HeartworkServices
    let pages: PageRenderer

    struct RequestForm: Decodable {
        let userID: String?
    }

    func register(on router: RouterGroup<AuthenticatedContext>) {
        router.get("friends", use: getFriends)
        router.post("friends/requests", use: postFriendsRequests)
        router.post("friends/requests/:requestID/:answer", use: postFriendsRequestsRequestIDAnswer)
        router.post("friends/:userID/remove", use: postFriendsUserIDRemove)
        router.get("friends/:userID", use: getFriendsUserID)
    }

    /// GET /friends
    func getFriends(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let user = context.user
        let query = (request.uri.queryParameters.get("q") ?? "").trimmingCharacters(in: .whitespaces)
        let friends = try await services.friends.friends(of: user).map(person)
        let incoming = try await services.friends.incoming(to: user).map { view in
            FriendsPage.Incoming(id: view.request.id, username: view.from.username, fullName: view.from.fullName)
        }
        let outgoing = try await services.friends.outgoing(from: user).map { view in
            FriendsPage.Outgoing(username: view.to.username, fullName: view.to.fullName)
        }
        var model = FriendsPage(
            friends: friends, hasFriends: !friends.isEmpty,
            incoming: incoming, hasIncoming: !incoming.isEmpty,
            outgoing: outgoing, hasOutgoing: !outgoing.isEmpty,
            query: query)
        if !query.isEmpty {
            var found = [UserSearchHit]()
            do {
                found = try await services.friends.search(query, for: user, page: Page(limit: 20)).hits
            } catch let error as AppError where error.kind == .invalid {
                model.searchError = error.sentence
            }
            let results = found.map { hit in
                var entry = person(hit.user)
                entry.canRequest = hit.relation == .none || hit.relation == .requestedYou
                entry.relation =
                    switch hit.relation {
                    case .friend: "✓ Friend"
                    case .requested: "Request sent"
                    case .requestedYou: "Wants to be your friend"
                    case .none: ""
                    }
                return entry
            }
            model.results = results
            model.hasResults = !results.isEmpty
            model.searched = true
        }
        return pages.page("friends", title: "Friends", model: model, request: request, identity: context.identity)
    }

    /// POST /friends/requests
    func postFriendsRequests(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(RequestForm.self, from: request)
        let notice: Notice =
            switch try await services.friends.request(from: context.user, to: form.userID ?? "") {
            case .requested: .requestSent
            case .becameFriends: .friendsNow
            }
        return pages.redirect(to: "/friends", notice: notice)
    }

    /// POST /friends/requests/:requestID/:answer
    func postFriendsRequestsRequestIDAnswer(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let answer = try context.parameters.require("answer")
        guard answer == "accept" || answer == "deny" else { throw AppError.notFound("action") }
        try await services.friends.answer(try context.parameters.require("requestID"), by: context.user, accept: answer == "accept")
        return pages.redirect(to: "/friends", notice: answer == "accept" ? .requestAccepted : .requestDenied)
    }

    /// POST /friends/:userID/remove
    func postFriendsUserIDRemove(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await services.friends.remove(try context.parameters.require("userID"), of: context.user)
        return pages.redirect(to: "/friends", notice: .friendRemoved)
    }

    /// GET /friends/:userID
    func getFriendsUserID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let friend = try await services.friends.friend(try context.parameters.require("userID"), of: context.user)
        let shared = try await services.workouts.shared(by: friend.id, to: context.user, page: Page(limit: 50))
        let model = FriendPage(
            base: person(friend), status: friend.status, hasStatus: !friend.status.isEmpty,
            workouts: shared.map { WebWorkoutPages.row($0, user: context.user) }, hasWorkouts: !shared.isEmpty,
            ghostRace: true)  // one list: each row has its own "Race as a ghost"
        return pages.page("friend", title: friend.fullName, model: model, request: request, identity: context.identity)
    }

    private func person(_ user: UserRecord) -> PersonRow {
        PersonRow(
            id: user.id, username: user.username, fullName: user.fullName, hasPhoto: user.hasPhoto,
            photoURL: "/api/users/\(user.id)/photo", initial: String(user.fullName.prefix(1)).uppercased())
    }
}
