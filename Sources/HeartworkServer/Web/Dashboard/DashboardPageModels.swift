/// dashboard.mustache: the signed-in start page.
struct DashboardPage: Sendable {
    struct Week: Sendable {
        let count: Int
        let duration: String
        let distance: String
        let calories: String
        let caloriesUnknown: Bool
        let from: String
        let to: String
    }

    struct Zone: Sendable {
        let name: String
        let `class`: String
        let time: String
        let percent: Int
    }

    struct CalendarRow: Sendable {
        let days: [Day]
    }

    struct Day: Sendable {
        let day: Int
        let label: String
        let today: Bool
        let hasWorkouts: Bool
        let workouts: [Dot]
    }

    /// A workout on the calendar.
    struct Dot: Sendable {
        let id: String
        let sport: String
        let initial: String
    }

    struct Step: Sendable {
        let text: String
        let href: String
        let done: Bool
    }

    struct Team: Sendable {
        let id: String
        let name: String
        let players: String
    }

    let firstName: String
    var week: Week
    var weekEmpty: Bool
    var zones: [Zone]
    var hasZoneTime: Bool
    var zoneBar: String
    var calendar: [CalendarRow] = []
    var feed: [WorkoutRow] = []
    var hasFeed = false
    var hasFriends = false
    var steps: [Step] = []
    var teams: [Team] = []
    var hasTeams = false
    var showSteps = false
    var hasZones = false
}
