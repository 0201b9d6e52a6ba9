/// profile.mustache: the profile, its form (as saved, or as typed when it comes back with
/// mistakes), the zones and the weight and resting heart-rate histories.
struct ProfilePage: Sendable {
    /// The form's text fields. `weight` and `bpm` are empty until a form comes back.
    struct Form: Sendable {
        var fullName: String
        var email: String
        var status: String
        var dateOfBirth: String
        var height: String
        var measuredMaxHeartRate: String
        var weight: String?
        var bpm: String?
    }

    struct Entry: Sendable {
        let day: String
        let value: String
    }

    struct TimeZoneOption: Sendable {
        let name: String
        let selected: Bool
    }

    struct Method: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    struct Zone: Sendable {
        let name: String
        let from: String
        let to: String
        let `class`: String
    }

    let id: String
    let username: String
    let status: String
    let hasStatus: Bool
    let initial: String
    let displayName: String
    var form: Form
    var isMale: Bool
    var isFemale: Bool
    var noSex: Bool
    var metric: Bool
    var imperial: Bool
    let weightUnit: String
    let heightUnit: String
    let heightText: String
    let ageYears: String
    let maxHeartRate: String
    let restingHeartRate: String
    let hasPhoto: Bool
    let photoURL: String
    let weightChart: String
    let weights: [Entry]
    let hasWeights: Bool
    let restings: [Entry]
    let hasRestings: Bool
    let lastWeight: String
    let lastResting: String
    var timeZones: [TimeZoneOption]
    var noTimeZone: Bool
    var methods: [Method]
    /// With a date of birth and a resting heart rate.
    var zones: [Zone]?
    var hasZones: Bool?
    /// The workouts the user shares with friends (workout-table.mustache), newest first.
    var workouts: [WorkoutRow] = []
    var hasWorkouts = false
    var sharedCount = ""
    var ghostRace = false
}
