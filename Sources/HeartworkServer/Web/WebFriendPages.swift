import Foundation
import HeartworkStore
import Hummingbird

/// Friends: the list, requests, search and a friend's page.
struct WebFriendPages {
    let services: AppServices

    func register(on router: Router<AppRequestContext>) {
        let pages = services.pages
        router.get("friends") { request, context -> Response in
            let identity = try context.requireIdentity()
            let user = identity.user
            let query = (request.uri.queryParameters.get("q") ?? "").trimmingCharacters(in: .whitespaces)
            let friends = try await services.store.friends.friends(of: user.id).map(person)
            let incoming = try await services.friends.describe(try await services.store.friends.incoming(userID: user.id)).map { request in
                ["id": request.id, "username": request.from.username, "fullName": request.from.fullName]
            }
            let outgoing = try await services.friends.describe(try await services.store.friends.outgoing(userID: user.id)).map { request in
                ["username": request.to.username, "fullName": request.to.fullName]
            }
            var values: [String: Any] = [
                "friends": friends, "hasFriends": !friends.isEmpty,
                "incoming": incoming, "hasIncoming": !incoming.isEmpty,
                "outgoing": outgoing, "hasOutgoing": !outgoing.isEmpty,
                "query": query,
            ]
            if !query.isEmpty {
                var results = [[String: Any]]()
                for found in try await services.store.users.search(String(query.prefix(100)), excluding: user.id, page: Page(limit: 25)) {
                    var entry = person(found)
                    let relation = try await services.friends.relation(of: user, to: found.id)
                    entry["canRequest"] = relation == .none || relation == .requestedYou
                    entry["relation"] = switch relation {
                    case .friend: "✓ Friend"
                    case .requested: "Pending"
                    case .requestedYou: "Wants to be your friend"
                    case .none: ""
                    }
                    results.append(entry)
                }
                values["results"] = results
                values["hasResults"] = !results.isEmpty
                values["searched"] = true
            }
            if let message = request.uri.queryParameters.get("message") { values["message"] = message }
            return pages.page("friends", title: "Friends", values: values, identity: identity)
        }
        router.post("friends/requests") { request, context -> Response in
            let identity = try context.requireIdentity()
            let form = try await FormData.read(request)
            let message = switch try await services.friends.request(from: identity.user, to: form["userID"] ?? "") {
            case .requested: "Request sent"
            case .becameFriends: "You are now friends"
            }
            return PageRenderer.redirect(to: "/friends?message=\(message.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
        }
        router.post("friends/requests/:requestID/:answer") { _, context -> Response in
            let identity = try context.requireIdentity()
            let answer = try context.parameters.require("answer")
            guard answer == "accept" || answer == "deny" else { throw APIError.notFound("action") }
            try await services.friends.answer(try context.parameters.require("requestID"), by: identity.user, accept: answer == "accept")
            return PageRenderer.redirect(to: "/friends")
        }
        router.post("friends/:userID/remove") { _, context -> Response in
            let identity = try context.requireIdentity()
            let friend = try await services.friends.friend(try context.parameters.require("userID"), of: identity.user)
            try await services.store.friends.remove(identity.user.id, friend.id)
            return PageRenderer.redirect(to: "/friends")
        }
        router.get("friends/:userID") { _, context -> Response in
            let identity = try context.requireIdentity()
            let friend = try await services.friends.friend(try context.parameters.require("userID"), of: identity.user)
            let shared = try await services.store.workouts.list(userID: friend.id, from: nil, to: nil, sharedOnly: true, page: Page(limit: 50))
            var values = person(friend)
            values["status"] = friend.status
            values["hasStatus"] = !friend.status.isEmpty
            values["workouts"] = shared.map { WebWorkoutPages.row($0, imperial: identity.user.units == "imperial") }
            values["hasWorkouts"] = !shared.isEmpty
            return pages.page("friend", title: friend.fullName, values: values, identity: identity)
        }
    }

    private func person(_ user: UserRecord) -> [String: Any] {
        ["id": user.id, "username": user.username, "fullName": user.fullName, "hasPhoto": user.hasPhoto,
         "photoURL": "/api/users/\(user.id)/photo", "initial": String(user.fullName.prefix(1)).uppercased()]
    }
}
