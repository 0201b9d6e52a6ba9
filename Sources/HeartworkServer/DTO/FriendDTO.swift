import Foundation
import HeartworkStore
import Hummingbird

/// How the caller relates to another user, for search results.
enum Relation: String, Encodable {
    case friend, requested, requestedYou = "requested-you", none
}

/// Search shows who someone is, nothing more: no status, no photo until you are friends.
struct UserSearchResult: Encodable {
    struct Person: Encodable {
        let id: String
        let username: String
        let fullName: String
    }

    let user: Person
    let relation: Relation
}

struct UserSearchResponse: ResponseEncodable {
    let users: [UserSearchResult]
    let limit: Int
    let offset: Int
}

struct FriendListResponse: ResponseEncodable {
    let friends: [PublicProfileResponse]
}

struct FriendRequestResponse: ResponseEncodable {
    let id: String
    let from: PublicProfileResponse
    let to: PublicProfileResponse
    let status: String
    let createdAt: Date
}

struct FriendRequestListResponse: ResponseEncodable {
    let requests: [FriendRequestResponse]
}

struct FriendRequestCreate: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case userID }
    let userID: String

    init(userID: String) { self.userID = userID }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        userID = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .userID)
    }
}

/// A friend's read-only page: their public profile and what they share.
struct FriendProfileResponse: ResponseEncodable {
    let profile: PublicProfileResponse
    let sharedWorkouts: [WorkoutSummaryResponse]
}
