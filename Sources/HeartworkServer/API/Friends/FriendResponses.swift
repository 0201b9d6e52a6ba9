import Foundation
import HeartworkApp
import HeartworkFormats
import HeartworkModel
import Hummingbird

struct FriendListResponse: ResponseEncodable {
    let friends: [PublicProfileResponse]
}

/// A friend's read-only page: their public profile and what they share.
struct FriendProfileResponse: ResponseEncodable {
    let profile: PublicProfileResponse
    let sharedWorkouts: [WorkoutSummaryResponse]
}
