import HeartworkApp
import HeartworkCore

/// A choice in a menu (a goal, a lifestyle).
struct StrengthOption: Sendable {
    let value: String
    let label: String
    let selected: Bool
}

extension StrengthOption {
    /// The lifestyles for a menu; while the user has not picked one, a first "Not set" entry
    /// is selected and names the one assumed (sending it changes nothing).
    static func lifestyles(_ lifestyle: Lifestyle, assumed: Bool) -> [StrengthOption] {
        let unset = StrengthOption(value: "", label: "Not set (assumed: \(lifestyle.displayName.lowercased()))", selected: true)
        return (assumed ? [unset] : []) + Lifestyle.allCases.map { .init(value: $0.rawValue, label: $0.displayName, selected: !assumed && $0 == lifestyle) }
    }
}

/// A goal or a lifestyle as a selectable box, with a sentence on what it means (sign-up).
struct StrengthChoice: Sendable {
    let value: String
    let label: String
    let help: String
    let selected: Bool

    static func goals(selected: StrengthGoal?) -> [StrengthChoice] {
        StrengthGoal.allCases.map { .init(value: $0.rawValue, label: $0.displayName, help: StrengthTexts.goalSummary($0), selected: $0 == selected) }
    }

    static func lifestyles(selected: Lifestyle?) -> [StrengthChoice] {
        Lifestyle.allCases.map { .init(value: $0.rawValue, label: $0.displayName, help: StrengthTexts.lifestyleSummary($0), selected: $0 == selected) }
    }
}

/// What the goals and lifestyles mean, in words (our own; the seed gives no texts, digest
/// §2.3 item 10). Lifestyles after Gerrior et al. (2006), whose categories the energy uses.
enum StrengthTexts {
    /// A share as the pages write it: 0.15 → "15", 0.125 → "12.5" (one decimal at most).
    static func percent(_ share: Double) -> String { String(format: "%g", (share * 1000).rounded() / 10) }

    /// The numbers come from the rules (the goal's reps, `NutritionTargets.massGainFactor`).
    static func goalSummary(_ goal: StrengthGoal) -> String {
        switch goal {
        case .weightLoss: "\(goal.targetReps) reps a set with lighter weights; eat a little less than you use."
        case .muscleMaintenance: "\(goal.targetReps) reps a set; eat what you use, to keep the muscle you have."
        case .massGain:
            "\(goal.targetReps) reps a set with heavier weights; eat \(percent(NutritionTargets.massGainFactor - 1)) % more than you use."
        }
    }

    static func lifestyleSummary(_ lifestyle: Lifestyle) -> String {
        switch lifestyle {
        case .sedentary: "Daily life only: mostly sitting, a little walking."
        case .lowActive: "Daily life plus 30 to 60 minutes of brisk walking or similar a day."
        case .active: "Daily life plus at least an hour of brisk walking or similar a day."
        case .highActive: "Daily life plus an hour of brisk and an hour of hard activity a day, or a physical job."
        }
    }
}

/// strength-goals.mustache: the three goals explained, a page of their own (the seed's
/// shared "Goal Description" screen, digest §2.3 item 10).
struct StrengthGoalsPage: Sendable {
    struct Goal: Sendable {
        let id: String
        let name: String
        let summary: String
        let paragraphs: [String]
        let reps: Int
        let example: String
        let current: Bool
    }

    let goals: [Goal]
    let signedIn: Bool
}

/// A sensor to record a session's heart rate with.
struct StrengthSensor: Sendable {
    let id: String
    let name: String
}

/// strength.mustache: the hub.
struct StrengthHubPage: Sendable {
    struct Suggestion: Sendable {
        let id: String
        let name: String
        let reason: String
        let groups: String
        /// "You have done … 3 times in a row …" (seed F16), when so.
        let warning: String?
    }

    struct OpenSession: Sendable {
        let id: String
        let name: String
        let started: String
    }

    /// A routine's card; the user's own also say whether they are first or last (to move them).
    struct Card: Sendable {
        let id: String
        let name: String
        let groups: String
        let goal: String
        let count: String
        let bodyweight: Bool
        let description: String
        var first: Bool?
        var last: Bool?
    }

    struct Section: Sendable {
        let title: String
        let routines: [Card]
    }

    struct Recent: Sendable {
        let id: String
        let name: String
        let date: String
        let stars: String
        let source: String
    }

    let accepted: Bool
    let goal: String
    let suggestion: Suggestion?
    let hasSuggestion: Bool
    let open: [OpenSession]
    let hasOpen: Bool
    let own: [Card]
    let hasOwn: Bool
    let sections: [Section]
    let recent: [Recent]
}

/// strength-disclaimer.mustache.
struct StrengthDisclaimerPage: Sendable {
    let disclaimer: String
    let accepted: Bool
    let next: String
}

/// strength-exercises.mustache: the library.
struct StrengthExercisesPage: Sendable {
    struct Group: Sendable {
        let name: String
        let href: String
        let current: Bool
    }

    struct Exercise: Sendable {
        let id: String
        let name: String
        let group: String
        let equipment: String
        let bodyweight: Bool
        let timed: Bool
        /// The next session starts it with a baseline set (`WorkoutGenerator.needsBaseline`).
        let cold: Bool
        /// Done before (not in the cold start): with `cold`, a baseline set again (no 1RM yet).
        let started: Bool
        let oneRepMax: String
        let mostReps: Int
        /// The user's own (made by them or by an import).
        let custom: Bool
        var picture: ExercisePicture? = nil
    }

    struct Option: Sendable {
        let value: String
        let selected: Bool
    }

    let groups: [Group]
    let groupName: String
    let count: Int
    let ownCount: Int
    let hasOwn: Bool
    let exercises: [Exercise]
    // The form for an exercise of the user's own, as last sent.
    let formName: String
    let groupOptions: [Option]
    let equipmentOptions: [Option]
    let formTimed: Bool
    let formOpen: Bool
}

/// strength-exercise.mustache: an exercise and the user's progress in it.
struct StrengthExercisePage: Sendable {
    struct HistoryEntry: Sendable {
        let date: String
        let session: String
        let best: String
        let estimate: String
    }

    let id: String
    let name: String
    let group: String
    let primary: String
    let secondary: String
    let hasSecondary: Bool
    let equipment: String
    let bodyweight: Bool
    let instructions: String
    let timed: Bool
    let baseline: String
    let equipmentIsBodyweight: Bool
    let licence: String
    let attribution: String
    /// One of the user's own exercises: no instructions, and only they see it.
    let custom: Bool
    /// The next session starts it with a baseline set (`WorkoutGenerator.needsBaseline`):
    /// never done, or (with `started`) done without a 1RM yet — every set had 37 reps or more.
    let cold: Bool
    let started: Bool
    /// What the next session starts it with (from the exercise's own statistics).
    let nextBaseline: String
    let oneRepMax: String
    let mostWeight: String
    let mostReps: Int
    let resetAt: String
    let wasReset: Bool
    let chart: String
    let hasChart: Bool
    let history: [HistoryEntry]
    let hasHistory: Bool
    var picture: ExercisePicture? = nil
}

/// strength-routine.mustache.
struct StrengthRoutinePage: Sendable {
    struct Exercise: Sendable {
        let n: Int
        let id: String
        let name: String
        let group: String
        let custom: Bool
        /// One of the user's own exercises that is no longer there.
        let missing: Bool
    }

    let id: String
    let name: String
    let goal: String
    let description: String
    let builtIn: Bool
    let bodyweight: Bool
    let groups: String
    let exercises: [Exercise]
    let hasMissing: Bool
    let accepted: Bool
    let sensors: [StrengthSensor]
    let hasSensors: Bool
}

/// strength-routine-form.mustache: a new routine, or one being edited.
struct StrengthRoutineFormPage: Sendable {
    struct Group: Sendable {
        struct Exercise: Sendable {
            let id: String
            let name: String
            let equipment: String
            let checked: Bool
            let position: Int
            /// One of the user's own exercises.
            let custom: Bool
        }

        let name: String
        let exercises: [Exercise]
    }

    struct Chosen: Sendable {
        let n: Int
        let name: String
    }

    let editing: Bool
    let id: String
    let name: String
    let description: String
    let order: String
    let goals: [StrengthOption]
    let groups: [Group]
    let chosen: [Chosen]
}

/// strength-session.mustache: a session's exercises and sets, and its result once finished.
struct StrengthSessionPage: Sendable {
    struct Block: Sendable {
        let name: String
        let exerciseID: String
        let known: Bool
        let group: String
        let bodyweight: Bool
        let timed: Bool
        var sets: [SetEntry]
        /// A finished session's estimate from the sets.
        var estimate: String?
        var picture: ExercisePicture? = nil
    }

    struct SetEntry: Sendable {
        let n: Int
        let sessionID: String
        let reps: String
        let maximum: Bool
        let timed: Bool
        let weight: String
        let done: Bool
        let kind: String
        let warmup: Bool
        let target: String
        let hasHeartRate: Bool
        let peak: Int
        let recovery: String
        let setLabel: String
        let index: Int
    }

    struct Result: Sendable {
        let duration: String
        let volume: String
        let reps: Int
        let sets: Int
        let message: String
        let hasMessage: Bool
        let review: String
        let hasReview: Bool
        let enjoyment: String
        let difficulty: String
        let score: Int
    }

    struct Change: Sendable {
        let name: String
        let before: String
        let after: String
    }

    struct Rating: Sendable {
        let value: Int
        let label: String
    }

    let id: String
    let name: String
    let goal: String
    let unit: String
    let started: String
    let startedAt: Int
    let finished: Bool
    let editable: Bool
    let blocks: [Block]
    let source: String
    let imported: Bool
    let hasHeartRate: Bool
    let heartRateSource: String
    let editableUntil: String
    /// Once finished.
    var result: Result?
    var changes: [Change]?
    var hasChanges: Bool?
    var ratings: [Rating] = []
}

/// strength-history.mustache: a month's calendar and the sessions.
struct StrengthHistoryPage: Sendable {
    /// A day of the month, or a blank before the first.
    struct Cell: Sendable {
        var blank: Bool?
        var day: Int?
        var has: Bool?
        var count: Int?
        var sessionsLabel: String?
        var today: Bool?
        var selected: Bool?
        var href: String?
    }

    struct Row: Sendable {
        let id: String
        let name: String
        let date: String
        let stars: String
        let open: Bool
        let source: String
    }

    let month: String
    let cells: [Cell]
    let previous: String
    let next: String
    let hasSelected: Bool
    let selectedDay: Int
    let selectedSessions: [Row]
    let selectedEmpty: Bool
    let sessions: [Row]
    let hasSessions: Bool
}

/// strength-settings.mustache.
struct StrengthSettingsPage: Sendable {
    struct Delivery: Sendable {
        let when: String
        let attempts: Int
        let state: String
        let error: String
    }

    let goals: [StrengthOption]
    let lifestyles: [StrengthOption]
    let plateStep: String
    let barKg: String
    let webhookUrl: String
    let secret: String
    let accepted: String
    let hasAccepted: Bool
    let deliveries: [Delivery]
    let hasDeliveries: Bool
}

/// strength-import.mustache: the form, what an import did, or the CSV back with its mistake.
struct StrengthImportPage: Sendable {
    struct Mapped: Sendable {
        let from: String
        let to: String
    }

    /// A name the catalogue lacks, now the user's own exercise `id`.
    struct Unmapped: Sendable {
        let id: String
        let name: String
        let sets: String
    }

    var done: Bool?
    var source: String?
    var imported: String?
    var duplicates: Int?
    var mapped: [Mapped]?
    var hasMapped: Bool?
    var unmapped: [Unmapped]?
    var hasUnmapped: Bool?
    var skipped: [String]?
    var hasSkipped: Bool?
    var csv: String?
    /// An import still queued or running: its page (`/strength/imports/{id}`) reloads itself.
    var pending: Pending?

    struct Pending: Sendable {
        let id: String
        let state: String
        let progress: String
    }
}

/// nutrition.mustache.
struct NutritionPage: Sendable {
    struct Targets: Sendable {
        let calories: Int
        let tee: Int
        let protein: Int
        let fat: Int
        let carbs: Int
        let proteinShare: Int
        let fatShare: Int
        let carbShare: Int
        let adjustment: String
        let warnings: [String]
        let hasWarnings: Bool
        let inputs: String
    }

    let goals: [StrengthOption]
    let lifestyles: [StrengthOption]
    let goal: String
    let lifestyle: String
    /// "Low active", when the user has not picked a lifestyle and it is assumed.
    let assumedLifestyle: String?
    let missing: String
    let hasMissing: Bool
    /// With sex, age, height and weight.
    var targets: Targets?
}

/// An exercise's picture on a page (docs/STRENGTH.md): the URL of its line drawing and the
/// movement it shows, for `alt`. None for a user's own exercise.
struct ExercisePicture: Sendable {
    let src: String
    let alt: String
    /// "CC0-1.0" (the catalogue's `imageLicence` up to its first comma).
    let licence: String

    init?(_ exercise: HeartworkCore.Exercise?) {
        guard let image = exercise?.image, let exercise else { return nil }
        src = "/static/exercises/\(image)"
        alt = StrengthPictures.movements[image] ?? exercise.name
        licence = String((exercise.imageLicence ?? "CC0-1.0").prefix { $0 != "," })
    }
}
