import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// What a friend may see of someone: no e-mail, no birth date, no body measurements.
struct PublicProfileResponse: ResponseEncodable {
    let id: String
    let username: String
    let fullName: String
    let status: String
    let photoURL: String?

    init(_ user: UserRecord) {
        id = user.id
        username = user.username
        fullName = user.fullName
        status = user.status
        photoURL = user.hasPhoto ? "/api/users/\(user.id)/photo" : nil
    }
}
