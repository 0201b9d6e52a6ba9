/// A workout's summary (a row of workout-table.mustache, the dashboard's feed, and the base
/// of the workout page), in the viewer's units and time zone.
struct WorkoutRow: Sendable {
    let id: String
    let sport: String
    let day: String
    let startTime: String
    let duration: String
    let averageHR: String
    let maximumHR: String
    let minimumHR: String
    let calories: String
    let distance: String
    let hasDistance: Bool
    let hasCalories: Bool
    let place: String
    let indoor: Bool
    let shared: Bool
    /// A friend's workout in the dashboard's feed: whose it is.
    var ownerName: String?
    var ownerID: String?
}

/// workouts.mustache (with workout-table.mustache).
struct WorkoutsPage: Sendable {
    let workouts: [WorkoutRow]
    let none: Bool
    let pastTheEnd: Bool
    let previous: String
    let next: String
    let page: Int
    let pages: Int
    let paged: Bool
}

/// upload.mustache.
struct UploadPage: Sendable {
    let needsProfile: Bool
}

/// workout.mustache: the summary (`base`) and everything the detail page adds.
struct WorkoutPage: ExtendingPageModel {
    struct Tile: Sendable {
        let label: String
        let value: String
    }

    struct ZoneBound: Sendable {
        let name: String
        let `class`: String
        let from: String
        let to: String
    }

    struct Note: Sendable {
        let text: String
    }

    /// A minute of the table; `distance` and `speed` only with a track.
    struct Minute: Sendable {
        let minute: String
        let average: String
        let maximum: String
        var distance: String?
        var speed: String?
    }

    struct HRVRow: Sendable {
        let name: String
        let value: String
    }

    struct FromMatch: Sendable {
        let id: String
        let title: String
        let summary: String
    }

    let base: WorkoutRow
    var mine: Bool
    var hasTrack: Bool
    var ownerName: String
    var ownerID: String
    var tiles: [Tile]
    var zoneBounds: [ZoneBound]?
    var hasZones: Bool?
    var zoneBasis: String?
    var heartRateChart: String
    var zoneChart: String
    var speedChart: String?
    var elevationChart: String?
    var routeChart: String?
    var ownTitle: String?
    var device: String?
    var notes: [Note]
    var hasNotes: Bool
    var minutes: [Minute]
    var hasTrackColumns: Bool
    var rrCount: Int
    var hasRR: Bool
    var hasHRV: Bool?
    var hrvRows: [HRVRow]?
    var hrvCorrected: String?
    var hrvReliable: Bool?
    var poincareChart: String?
    var fromMatch: FromMatch?
    /// False for a workout recorded without heart rate: the page says so instead of the
    /// heart-rate chart, zones and minute table, and offers no ghost race.
    var hasHeartRate = true
}
