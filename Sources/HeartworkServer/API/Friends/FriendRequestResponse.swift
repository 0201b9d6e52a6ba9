import Foundation
import HeartworkApp
import HeartworkFormats
import HeartworkModel
import Hummingbird

struct FriendRequestResponse: ResponseEncodable {
    let id: String
    let from: PublicProfileResponse
    let to: PublicProfileResponse
    let status: String
    let createdAt: Date

    init(_ view: FriendRequestView) {
        id = view.request.id
        from = PublicProfileResponse(view.from)
        to = PublicProfileResponse(view.to)
        status = view.request.status.rawValue
        createdAt = view.request.createdAt
    }
}

struct FriendRequestListResponse: ResponseEncodable {
    let requests: [FriendRequestResponse]
}

/// POST /api/friend-requests.
struct FriendRequestCreate {
    static let fields = ["userID"]
    let userID: String

    init(_ body: JSONObjectReader) throws(JSONFieldError) {
        userID = try body.string("userID")
    }
}
