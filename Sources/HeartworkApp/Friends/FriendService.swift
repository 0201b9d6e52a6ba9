import Foundation
import HeartworkStore

/// The friend graph's rules: no requests to yourself, twice, or to a friend; a request to
/// someone who already asked you is an acceptance; only the recipient answers. Also who may
/// see whom: yourself and your friends.
public struct FriendService: Sendable {
    let store: HeartworkStore
    let inbox: InboxService

    /// A search needs a few characters and returns a short page, so nobody can list every
    /// account (and then throttle each one) with an empty query.
    public static let searchQueryLength = 3...100
    public static let searchPageLimit = 20

    public func search(_ query: String, for user: UserRecord, page: Page) async throws -> (hits: [UserSearchHit], page: Page) {
        let query = query.trimmingCharacters(in: .whitespaces)
        guard Self.searchQueryLength.contains(query.count) else {
            throw AppError.invalid("type 3–100 characters of a username or name", field: "query")
        }
        try TextRules.refuseControlCharacters(query, field: "query", what: "the query")
        let page = Page(limit: min(page.limit, Self.searchPageLimit), offset: page.offset)
        var hits = [UserSearchHit]()
        for found in try await store.users.search(query, excluding: user.id, page: page) {
            hits.append(UserSearchHit(user: found, relation: try await relation(of: user, to: found.id)))
        }
        return (hits, page)
    }

    public func friends(of user: UserRecord) async throws -> [UserRecord] {
        try await store.friends.friends(of: user.id)
    }

    /// The friend, or "not found" when they are not one.
    public func friend(_ userID: String, of user: UserRecord) async throws -> UserRecord {
        guard try await store.friends.areFriends(user.id, userID), let friend = try await store.users.find(id: userID) else {
            throw AppError.notFound("friend")
        }
        return friend
    }

    /// Yourself or a friend.
    public func canSee(_ userID: String, from user: UserRecord) async throws -> Bool {
        if userID == user.id { return true }
        return try await store.friends.areFriends(user.id, userID)
    }

    public func request(from user: UserRecord, to userID: String, now: Date = Date()) async throws -> FriendRequestOutcome {
        guard userID != user.id else { throw AppError.invalid("you cannot befriend yourself", field: "userID") }
        guard let other = try await store.users.find(id: userID) else { throw AppError.notFound("user") }
        if try await store.friends.areFriends(user.id, userID) {
            throw AppError.conflict("you are friends already", field: "userID")
        }
        if try await store.friends.pendingRequest(from: user.id, to: userID) != nil {
            throw AppError.conflict("you have asked already; the request is pending", field: "userID")
        }
        if let reverse = try await store.friends.pendingRequest(from: userID, to: user.id) {
            try await store.friends.answer(requestID: reverse.id, accept: true, at: now)
            await inbox.tell(
                userID, kind: "friend-accepted", text: "\(user.fullName) (@\(user.username)) accepted your friend request",
                link: "/friends/\(user.id)", actorID: user.id, now: now)
            return .becameFriends(other)
        }
        let request = try await store.friends.createRequest(from: user.id, to: userID, at: now)
        await inbox.tell(
            userID, kind: "friend-request", text: "\(user.fullName) (@\(user.username)) wants to be your friend",
            link: "/friends", actorID: user.id, now: now)
        return .requested(FriendRequestView(request: request, from: user, to: other))
    }

    /// Accepts or denies a request addressed to `user`; anyone else's is "not found".
    public func answer(_ requestID: String, by user: UserRecord, accept: Bool, now: Date = Date()) async throws {
        guard let request = try await store.friends.request(id: requestID), request.toUserID == user.id else {
            throw AppError.notFound("friend request")
        }
        guard request.status == .pending else { throw AppError.conflict("the request was already answered") }
        do {
            try await store.friends.answer(requestID: requestID, accept: accept, at: now)
        } catch StoreError.conflict {
            throw AppError.conflict("the request was already answered")
        }
        if accept {
            await inbox.tell(
                request.fromUserID, kind: "friend-accepted", text: "\(user.fullName) (@\(user.username)) accepted your friend request",
                link: "/friends/\(user.id)", actorID: user.id, now: now)
        }
    }

    public func remove(_ friendID: String, of user: UserRecord) async throws {
        let friend = try await friend(friendID, of: user)
        try await store.friends.remove(user.id, friend.id)
    }

    public func incoming(to user: UserRecord) async throws -> [FriendRequestView] {
        try await describe(try await store.friends.incoming(userID: user.id))
    }

    public func outgoing(from user: UserRecord) async throws -> [FriendRequestView] {
        try await describe(try await store.friends.outgoing(userID: user.id))
    }

    public func relation(of user: UserRecord, to other: String) async throws -> Relation {
        if try await store.friends.areFriends(user.id, other) { return .friend }
        if try await store.friends.pendingRequest(from: user.id, to: other) != nil { return .requested }
        if try await store.friends.pendingRequest(from: other, to: user.id) != nil { return .requestedYou }
        return .none
    }

    private func describe(_ requests: [FriendRequestRecord]) async throws -> [FriendRequestView] {
        var views = [FriendRequestView]()
        for request in requests {
            guard let from = try await store.users.find(id: request.fromUserID), let to = try await store.users.find(id: request.toUserID) else { continue }
            views.append(FriendRequestView(request: request, from: from, to: to))
        }
        return views
    }
}
