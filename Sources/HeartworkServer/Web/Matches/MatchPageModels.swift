/// What the match pages show of a match, from the viewer's side (a row of matches.mustache,
/// and the base of match.mustache).
struct MatchSummary: Sendable {
    struct Result: Sendable {
        struct Zone: Sendable {
            let name: String
            let id: String
            let mine: String
            let theirs: String
        }

        let outcome: String
        let reason: String
        let myScore: Int
        let theirScore: Int
        let margin: Int
        let played: String
        let zones: [Zone]
    }

    let id: String
    let title: String
    let opponentName: String
    let kind: String
    let isGhost: Bool
    /// Practice (ghost races, and matches created as practice): the slider may play, and the
    /// page, list and result say so.
    let isPractice: Bool
    let state: String
    let stateLabel: String
    let duration: String
    let durationSeconds: Int
    let created: String
    let isPlayer: Bool
    let side: String
    let canAnswer: Bool
    let isWaiting: Bool
    let isOpen: Bool
    let canPlay: Bool
    let isOver: Bool
    var summary: String
    /// A match that ended with a result.
    var result: Result?
    var savedWorkout: String?
    var canSave: Bool?
}

/// matches.mustache: challenges to answer, open matches, the history and the challenge form.
struct MatchesPage: Sendable {
    struct Friend: Sendable {
        let id: String
        let fullName: String
        let username: String
    }

    let toAnswer: [MatchSummary]
    let hasToAnswer: Bool
    let open: [MatchSummary]
    let hasOpen: Bool
    let past: [MatchSummary]
    let hasPast: Bool
    let friends: [Friend]
    let hasFriends: Bool
}

/// match.mustache: the match (`base`) and what its room needs.
struct MatchPage: ExtendingPageModel {
    struct Sensor: Sendable {
        let id: String
        let name: String
    }

    /// One side of a finished match: its heart-rate graph and zone bars, and where its heart
    /// rate came from (seed-000 Fig. 5.26b: both players see both).
    struct SideCharts: Sendable {
        let name: String
        let source: String
        /// False for a side that ended the match with End: its heart rate was discarded.
        let hasHeartRate: Bool
        /// "Implausible data: 60 s…" when the side's live heart rate could not be a heart's.
        let implausible: String?
        let heartRateChart: String
        let zoneChart: String
    }

    let base: MatchSummary
    let secondMilliseconds: Int
    let sensors: [Sensor]
    let hasSensors: Bool
    var sides: [SideCharts] = []
    /// The viewer's anchors, when their profile has them.
    var restingHeartRate: Int?
    var maximumHeartRate: Int?
}

/// notifications.mustache.
struct NotificationsPage: Sendable {
    struct Notification: Sendable {
        let id: String
        let text: String
        let link: String
        let hasLink: Bool
        let unread: Bool
        let when: String
        let kind: String
    }

    let unread: Int
    let hasUnread: Bool
    let hasNotifications: Bool
    let notifications: [Notification]
}
