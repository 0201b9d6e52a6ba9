/// A person in the friends lists; in search results also whether a request can be sent and
/// how the two are related.
struct PersonRow: Sendable {
    let id: String
    let username: String
    let fullName: String
    let hasPhoto: Bool
    let photoURL: String
    let initial: String
    var canRequest: Bool?
    var relation: String?
}

/// friends.mustache.
struct FriendsPage: Sendable {
    struct Incoming: Sendable {
        let id: String
        let username: String
        let fullName: String
    }

    struct Outgoing: Sendable {
        let username: String
        let fullName: String
    }

    let friends: [PersonRow]
    let hasFriends: Bool
    let incoming: [Incoming]
    let hasIncoming: Bool
    let outgoing: [Outgoing]
    let hasOutgoing: Bool
    let query: String
    /// Only after a search.
    var searchError: String?
    var results: [PersonRow]?
    var hasResults: Bool?
    var searched: Bool?
}

/// friend.mustache (with workout-table.mustache): the friend (`base`) and their shared workouts.
struct FriendPage: ExtendingPageModel {
    let base: PersonRow
    let status: String
    let hasStatus: Bool
    let workouts: [WorkoutRow]
    let hasWorkouts: Bool
    /// One list: each row has its own "Race as a ghost".
    let ghostRace: Bool
}
