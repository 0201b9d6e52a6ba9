/// An Apple Health import as the pages list it.
struct HealthImportRow: Sendable {
    let state: String
    let done: Bool
    let failed: Bool
    let created: String
    let outcome: String
    let error: String
    let days: String
    let firstDay: String
}

/// A choice in a menu.
struct HealthOption: Sendable {
    let value: String
    let label: String
    let selected: Bool
}

/// today.mustache: a day's recovery, strain, readiness, load and marks.
struct TodayPage: Sendable {
    struct Input: Sendable {
        let name: String
        let value: String
        let band: String
        let hasBand: Bool
        let status: String
        let statusClass: String
        let reason: String
    }

    struct Sleep: Sendable {
        let recovery: String
        let recoveryBar: String
        let inBed: String
        let asleep: String
        let hasAsleep: Bool
        let quality: Int
        let estimated: Bool
        /// "23:10–07:05", the night's bed and wake time (nil when not known).
        let span: String?
        /// The user set the bed and wake time (seed 004's "Time Slept").
        let timeSet: Bool
        /// With a time set: what was recorded ("7.5 h recorded"), if anything.
        let recorded: String?
        /// Above 100 % (more than 8 h at a high quality: the seed does not cap it).
        let overHundred: Bool
    }

    /// The "Time slept" form: the night's bed and wake time, until the day is over.
    struct SleepTime: Sendable {
        let bed: String
        let wake: String
        let canClear: Bool
    }

    /// RISE's Intensity view (seed 004 F3): resting, current and the day's highest heart rate,
    /// the zones in bpm, and up to 10 workouts shaded darker blue the harder they were.
    struct Intensity: Sendable {
        struct Workout: Sendable {
            let name: String
            let href: String
            let intensity: String
            let points: String
            let minutes: String
            /// `shade-0` … `shade-10`, and `on-dark` from 5 on (white text).
            let shadeClass: String
        }

        struct Zone: Sendable {
            let name: String
            let range: String
            let points: Int
            let one: Bool
        }

        let resting: String
        let current: String
        let currentLabel: String
        let highest: String
        let workouts: [Workout]
        let hasWorkouts: Bool
        /// Workouts beyond the 10 shown ("and 2 more").
        let more: String?
        let zones: [Zone]
        let maximum: String
    }

    struct Rise: Sendable {
        let strain: String
        let maximumStrain: String
        let strainBar: String
        let elevatedIntensity: String
        let elevatedHours: String
        let inactiveHours: String
        let workouts: Int
    }

    struct Load: Sendable {
        let trimp: String
        let acute: String
        let chronic: String
        let ratio: String
        let advice: String
    }

    struct Heart: Sendable {
        let minimum: String
        let maximum: String
        let average: String
    }

    struct Rating: Sendable {
        let value: Int
        let selected: Bool
    }

    struct Settings: Sendable {
        let stepThreshold: Int
        let inactivityTime: String
        let inactivityAlerts: Bool
        let anomalyAlerts: Bool
    }

    let date: String
    let dateLabel: String
    let isToday: Bool
    let previous: String
    let next: String
    let hasNext: Bool
    let hasData: Bool
    let readiness: String
    let readinessClass: String
    let readinessReason: String
    let inputs: [Input]
    let marks: [HealthOption]
    let steps: String
    let resting: String
    let hrv: String
    let maximumHeartRate: String
    /// Only what the day has.
    var marked: String?
    var sleep: Sleep?
    var rise: Rise?
    var load: Load
    var heart: Heart?
    var canRate = false
    var ratings: [Rating] = []
    var sleepTime: SleepTime?
    var intensity: Intensity?
    /// The recovery card: a night, or a night that can still be set.
    var showRecovery = false
    var imports: [HealthImportRow] = []
    var settings: Settings?
    /// When data last arrived by phone sync, and from where ("Last sync 10:42 from Health Auto Export …").
    var lastArrival: String?
    var neverImported = false
}

/// health-week.mustache.
struct HealthWeekPage: Sendable {
    struct Average: Sendable {
        let name: String
        let value: String
    }

    struct Day: Sendable {
        let date: String
        let href: String
        let hasData: Bool
        let recovery: String
        let strain: String
        let workouts: Int
        let readiness: String
        let readinessClass: String
        let acute: String
        let chronic: String
        let ratio: String
    }

    struct Load: Sendable {
        let acute: String
        let chronic: String
        let balance: String
        let ratio: String
        let advice: String
    }

    let from: String
    let to: String
    let previous: String
    let next: String
    let hasNext: Bool
    let recoveryChart: String
    let strainChart: String
    /// Workout intensity as a line (seed 004 F5), without a weekly average.
    let intensityChart: String
    let averages: [Average]
    let days: [Day]
    /// The last day's training load.
    let load: Load?
}

/// health-history.mustache.
struct HealthHistoryPage: Sendable {
    struct Range: Sendable {
        let href: String
        let label: String
        let current: Bool
    }

    let ranges: [Range]
    /// (The layout's `title` is the one the page shows.)
    let title: String
    /// "Heart rate, the last 24 hours" (the section's heading; `title` is the layout's).
    let heading: String
    /// The window's first and last instant, in the user's time zone.
    let window: String
    let hasData: Bool
    let chart: String
    let minimum: String
    let maximum: String
    let average: String
    let stepsChart: String
    /// The last 24 hours against the anomaly detector's forecast (issue 25).
    let forecast: Forecast

    struct Forecast: Sendable {
        struct Stretch: Sendable {
            /// "14:05–14:35"
            let time: String
            let reason: String
        }

        let available: Bool
        let chart: String
        let stretches: [Stretch]
        let hasStretches: Bool
        /// How the band is made, in words with this user's numbers.
        let help: String
        /// Why there is no forecast, when there is none.
        let missing: String
    }
}

/// food.mustache: the label's text, and what it says or why it could not be read.
struct FoodPage: Sendable {
    struct Label: Sendable {
        struct Row: Sendable {
            let name: String
            let value: String
        }

        let servingSize: String
        let unhealthy: Bool
        let heading: String
        let reasons: String
        let rows: [Row]
    }

    let canReadPhotos: Bool
    let text: String
    var label: Label?
    var error: String?
    var hasError: Bool?
}

/// health-import.mustache.
struct HealthImportPage: Sendable {
    let imports: [HealthImportRow]
    let hasImports: Bool
}
