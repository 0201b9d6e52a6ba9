import Foundation
import HeartworkStore

/// The friend graph's rules: no requests to yourself, twice, or to a friend; a request to
/// someone who already asked you is an acceptance; only the recipient answers.
struct FriendService: Sendable {
    let store: HeartworkStore

    enum Outcome {
        case requested(FriendRequestRecord)
        case becameFriends
    }

    func request(from user: UserRecord, to userID: String, now: Date = Date()) async throws -> Outcome {
        guard userID != user.id else { throw APIError.invalid("you cannot befriend yourself", field: "userID") }
        guard try await store.users.find(id: userID) != nil else { throw APIError.notFound("user") }
        if try await store.friends.areFriends(user.id, userID) {
            throw APIError.conflict("you are friends already", field: "userID")
        }
        if try await store.friends.pendingRequest(from: user.id, to: userID) != nil {
            throw APIError.conflict("you have asked already; the request is pending", field: "userID")
        }
        if let reverse = try await store.friends.pendingRequest(from: userID, to: user.id) {
            try await store.friends.answer(requestID: reverse.id, accept: true, at: now)
            return .becameFriends
        }
        return .requested(try await store.friends.createRequest(from: user.id, to: userID, at: now))
    }

    /// Accepts or denies a request addressed to `user`; anyone else gets 404.
    func answer(_ requestID: String, by user: UserRecord, accept: Bool, now: Date = Date()) async throws {
        guard let request = try await store.friends.request(id: requestID), request.toUserID == user.id else {
            throw APIError.notFound("friend request")
        }
        guard request.status == .pending else { throw APIError.conflict("the request was already answered") }
        try await store.friends.answer(requestID: requestID, accept: accept, at: now)
    }

    func relation(of user: UserRecord, to other: String) async throws -> Relation {
        if try await store.friends.areFriends(user.id, other) { return .friend }
        if try await store.friends.pendingRequest(from: user.id, to: other) != nil { return .requested }
        if try await store.friends.pendingRequest(from: other, to: user.id) != nil { return .requestedYou }
        return .none
    }

    /// The friend, or 404 when they are not one.
    func friend(_ userID: String, of user: UserRecord) async throws -> UserRecord {
        guard try await store.friends.areFriends(user.id, userID), let friend = try await store.users.find(id: userID) else {
            throw APIError.notFound("friend")
        }
        return friend
    }

    func describe(_ requests: [FriendRequestRecord]) async throws -> [FriendRequestResponse] {
        var responses = [FriendRequestResponse]()
        for request in requests {
            guard let from = try await store.users.find(id: request.fromUserID), let to = try await store.users.find(id: request.toUserID) else { continue }
            responses.append(FriendRequestResponse(
                id: request.id, from: PublicProfileResponse(from), to: PublicProfileResponse(to),
                status: request.status.rawValue, createdAt: request.createdAt))
        }
        return responses
    }
}
