import Foundation
import HeartworkApp
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// Search shows who someone is, nothing more: no status, no photo until you are friends.
struct UserSearchResult: Encodable {
    struct Person: Encodable {
        let id: String
        let username: String
        let fullName: String
    }

    let user: Person
    let relation: String

    init(_ hit: UserSearchHit) {
        user = Person(id: hit.user.id, username: hit.user.username, fullName: hit.user.fullName)
        relation = hit.relation.rawValue
    }
}

struct UserSearchResponse: ResponseEncodable {
    let users: [UserSearchResult]
    let limit: Int
    let offset: Int
}
