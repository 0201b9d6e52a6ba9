import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkModel
import Hummingbird

/// Weights as a user wants them, in the API and on pages: kilograms (metric) or pounds
/// (imperial); stored in kg.
struct WeightUnit: Sendable {
    let pounds: Bool
    init(_ user: UserRecord) { pounds = user.units == .imperial }
    var name: String { pounds ? "lb" : "kg" }
    func value(_ kilograms: Double) -> Double { pounds ? BodyMass.pounds(fromKilograms: kilograms) : kilograms }
    /// In the user's unit, to the hundredth.
    func show(_ kilograms: Double) -> Double { (value(kilograms) * 100).rounded() / 100 }
    func kilograms(_ value: Double) -> Double { pounds ? BodyMass.kilograms(fromPounds: value) : value }
    /// "7.5", "80", "11.02": for fields and text.
    func number(_ kilograms: Double) -> String {
        let shown = show(kilograms)
        return shown == shown.rounded() ? String(Int(shown)) : String(format: "%.2f", shown).replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression)
    }
    func text(_ kilograms: Double) -> String { "\(number(kilograms)) \(name)" }
}

struct ExerciseResponse: ResponseEncodable {
    struct Stats: Encodable {
        let mostReps: Int
        let mostWeight: Double
        let oneRepMax: Double
        /// Never done, or not since its reset: nothing counted yet.
        let coldStart: Bool
        /// The next session starts it with a baseline set ("Maximum" reps) — the generator's
        /// rule (`WorkoutGenerator.needsBaseline`): in the cold start, or a loaded exercise
        /// still without a 1RM (every counted set had 37 reps or more, or no weight).
        let needsBaseline: Bool
        let resetAt: Date?
    }

    let id: String
    let name: String
    let group: String
    let primaryMuscle: String
    let secondaryMuscles: [String]
    let equipment: String
    let bodyweight: Bool
    /// "reps", or "seconds" for a hold (its sets' `reps` are seconds).
    let measure: String
    /// The least load the generator prescribes (the empty bar), in `unit`; 0 for none.
    let minimumWeight: Double
    let instructions: String
    let licence: String
    let attribution: String
    /// Its picture, a line drawing of the movement ("/static/exercises/squat.svg"); nil for
    /// a user's own exercise.
    let image: String?
    /// One of the user's own exercises (made by them or by an import), not the catalogue's.
    let custom: Bool
    let unit: String
    let stats: Stats

    init(_ view: StrengthService.ExerciseView, unit: WeightUnit, barKilograms: Double = WorkoutGenerator.defaultBarKilograms) {
        let e = view.exercise
        id = e.id
        name = e.name
        group = e.group.rawValue
        primaryMuscle = e.primaryMuscle
        secondaryMuscles = e.secondaryMuscles
        equipment = e.equipment
        bodyweight = !e.loaded
        measure = e.measure.rawValue
        minimumWeight = unit.show(e.minimumKilograms(barKilograms: barKilograms))
        instructions = e.instructions
        licence = e.licence
        attribution = e.attribution
        image = e.image.map { "/static/exercises/\($0)" }
        custom = e.isCustom
        self.unit = unit.name
        stats = Stats(
            mostReps: view.stats.mostReps, mostWeight: unit.show(view.stats.mostWeightKilograms),
            oneRepMax: unit.show(view.stats.oneRepMaxKilograms), coldStart: view.stats.isColdStart,
            needsBaseline: view.needsBaseline, resetAt: view.resetAt)
    }
}

struct ExerciseListResponse: ResponseEncodable {
    let exercises: [ExerciseResponse]
    let groups: [String]
}

struct ExerciseDetailResponse: ResponseEncodable {
    struct Point: Encodable {
        let sessionID: String
        let date: Date
        let estimatedOneRepMax: Double?
    }

    let exercise: ExerciseResponse
    let progress: [Point]
}

struct RoutineResponse: ResponseEncodable {
    struct Item: Encodable {
        let id: String
        let name: String
        let group: String
        let bodyweight: Bool
        /// One of the user's own exercises (`custom-…`), not the catalogue's.
        let custom: Bool
        /// Present (true) only when the exercise is no longer there (one of the user's own
        /// that is gone): `name` is then its id, and a session leaves it out.
        let missing: Bool?
    }

    let id: String
    let name: String
    let goal: String
    let description: String
    let builtIn: Bool
    let bodyweight: Bool
    let groups: [String]
    let exercises: [Item]

    init(_ view: StrengthService.RoutineView) {
        id = view.template.id
        name = view.template.name
        goal = view.template.goal.rawValue
        description = view.template.description
        builtIn = view.builtIn
        bodyweight = view.bodyweight
        groups = view.groups.map(\.rawValue)
        exercises = view.exercises.map { item in
            guard let e = item.exercise else {
                return Item(id: item.id, name: item.id, group: "", bodyweight: false, custom: item.id.hasPrefix(StrengthCatalogue.customPrefix), missing: true)
            }
            return Item(id: e.id, name: e.name, group: e.group.rawValue, bodyweight: !e.loaded, custom: e.isCustom, missing: nil)
        }
    }
}

struct RoutineListResponse: ResponseEncodable {
    let routines: [RoutineResponse]
}

struct SuggestionResponse: ResponseEncodable {
    let routine: RoutineResponse?
    let reason: String?
    let overlapping: [String]
}

struct StrengthSessionResponse: ResponseEncodable {
    struct Target: Encodable {
        let reps: Int?
        let maximum: Bool
        let weight: Double
    }

    struct HeartRate: Encodable {
        let peak: Int?
        let recovery: Int?
    }

    struct SetEntry: Encodable {
        let n: Int
        let exerciseID: String
        let exerciseName: String
        let exerciseIndex: Int
        let kind: String
        /// "reps", or "seconds" for a hold: then `reps` and `target.reps` are seconds.
        let measure: String
        let target: Target
        let reps: Int?
        let weight: Double
        let done: Bool
        let doneAt: Date?
        let heartRate: HeartRate?
    }

    struct Totals: Encodable {
        let volume: Double
        let reps: Int
        let sets: Int
        let durationSeconds: Int?
    }

    let id: String
    let routineID: String?
    let name: String
    let goal: String
    let source: String
    let unit: String
    let sensorID: String?
    let startedAt: Date
    let finishedAt: Date?
    let editableUntil: Date?
    let review: String?
    let enjoyment: Int?
    let difficulty: Int?
    let sentiment: Int?
    let message: String?
    let totals: Totals?
    let heartRateSource: String?
    let sets: [SetEntry]

    init(_ view: StrengthService.SessionView, unit: WeightUnit) {
        let s = view.session
        id = s.id
        routineID = s.routineID
        name = s.name
        goal = s.goal.rawValue
        source = s.source
        self.unit = unit.name
        sensorID = s.sensorID
        startedAt = s.startedAt
        finishedAt = s.finishedAt
        editableUntil = view.editableUntil
        review = s.review
        enjoyment = s.enjoyment
        difficulty = s.difficulty
        sentiment = s.sentiment
        message = s.message
        totals =
            s.finishedAt == nil
            ? nil
            : Totals(
                volume: unit.show(s.volumeKilograms ?? 0), reps: s.totalReps ?? 0, sets: s.totalSets ?? 0, durationSeconds: s.durationSeconds.map { Int($0.rounded()) })
        heartRateSource = view.heartRateSource
        sets = view.sets.enumerated().map { index, set in
            let hr = view.heartRate.flatMap { index < $0.count ? $0[index] : nil }
            return SetEntry(
                n: set.position, exerciseID: set.exerciseID, exerciseName: set.exerciseName, exerciseIndex: set.exerciseIndex, kind: set.kind,
                measure: (view.exercises.exercise(set.exerciseID)?.measure ?? .reps).rawValue,
                target: Target(reps: set.prescribedReps, maximum: set.prescribedReps == nil, weight: unit.show(set.prescribedWeightKilograms)),
                reps: set.reps, weight: unit.show(set.weightKilograms), done: set.done, doneAt: set.doneAt,
                heartRate: hr.flatMap { $0.peak == nil ? nil : HeartRate(peak: $0.peak, recovery: $0.recovery) })
        }
    }
}

struct StrengthSessionSummary: Encodable {
    let id: String
    let name: String
    let goal: String
    let source: String
    let startedAt: Date
    let finishedAt: Date?
    let enjoyment: Int?
    let volume: Double?
    let sets: Int?
    let unit: String

    init(_ s: StrengthSessionRecord, unit: WeightUnit) {
        id = s.id
        name = s.name
        goal = s.goal.rawValue
        source = s.source
        startedAt = s.startedAt
        finishedAt = s.finishedAt
        enjoyment = s.enjoyment
        volume = s.volumeKilograms.map(unit.show)
        sets = s.totalSets
        self.unit = unit.name
    }
}

struct StrengthSessionListResponse: ResponseEncodable {
    let sessions: [StrengthSessionSummary]
}

struct FinishResponse: ResponseEncodable {
    struct Change: Encodable {
        let exerciseID: String
        let exerciseName: String
        let before: Double
        let after: Double
    }

    struct Word: Encodable {
        let word: String
        let value: Int
    }

    struct Motivation: Encodable {
        let score: Int
        let positive: Bool
        let message: String
        let words: [Word]
    }

    let session: StrengthSessionResponse
    let oneRepMaxes: [Change]
    let motivation: Motivation
    let webhookQueued: Bool

    init(_ finished: StrengthService.Finished, unit: WeightUnit) {
        session = StrengthSessionResponse(finished.view, unit: unit)
        oneRepMaxes = finished.changes.map { Change(exerciseID: $0.exerciseID, exerciseName: $0.exerciseName, before: unit.show($0.before), after: unit.show($0.after)) }
        motivation = Motivation(
            score: finished.sentiment.score, positive: finished.sentiment.isPositive, message: finished.message,
            words: finished.sentiment.contributions.map { Word(word: $0.word, value: $0.value) })
        webhookQueued = finished.webhookQueued
    }
}

struct StrengthSettingsResponse: ResponseEncodable {
    struct Delivery: Encodable {
        let id: String
        let createdAt: Date
        let attempts: Int
        let state: String
        let lastError: String?
    }

    let goal: String
    let lifestyle: String
    let plateStepKg: Double?
    /// The empty bar, the least load of a barbell exercise (always kg, like `plateStepKg`).
    let barKg: Double
    let unit: String
    let disclaimer: String
    let disclaimerAcceptedAt: Date?
    let webhookUrl: String?
    let webhookSecret: String
    let webhookDeliveries: [Delivery]

    init(_ s: StrengthSettingsRecord, unit: WeightUnit, deliveries: [WebhookDeliveryRecord]) {
        goal = s.goal.rawValue
        lifestyle = s.lifestyle.rawValue
        plateStepKg = s.plateStepKilograms
        barKg = s.barKilograms
        self.unit = unit.name
        disclaimer = StrengthService.disclaimer
        disclaimerAcceptedAt = s.disclaimerAcceptedAt
        webhookUrl = s.webhookURL
        webhookSecret = s.webhookSecret
        webhookDeliveries = deliveries.map {
            Delivery(
                id: $0.id, createdAt: $0.createdAt, attempts: $0.attempts,
                state: $0.deliveredAt != nil ? "delivered" : ($0.givenUpAt != nil ? "given-up" : "pending"), lastError: $0.lastError)
        }
    }
}

struct NutritionResponse: ResponseEncodable {
    struct Inputs: Encodable {
        let sex: String?
        let ageYears: Int?
        let heightMeters: Double?
        let weightKg: Double?
    }

    let goal: String
    let lifestyle: String
    /// True while the user has not picked a lifestyle: `lifestyle` is the default (low
    /// active), assumed, as the nutrition page says (issue 25).
    let lifestyleAssumed: Bool
    let inputs: Inputs
    let missing: [String]
    let totalEnergyExpenditure: Double?
    let calories: Double?
    let proteinGrams: Int?
    let fatGrams: Int?
    let carbohydrateGrams: Int?
    let warnings: [String]

    init(_ view: StrengthService.NutritionView) {
        goal = view.goal.rawValue
        lifestyle = view.lifestyle.rawValue
        lifestyleAssumed = view.lifestyleAssumed
        inputs = Inputs(sex: view.sex?.rawValue, ageYears: view.ageYears, heightMeters: view.heightMeters, weightKg: view.weightKilograms)
        missing = view.missing
        totalEnergyExpenditure = view.targets.map { ($0.totalEnergyExpenditure * 10000).rounded() / 10000 }
        calories = view.targets.map { ($0.calories * 10000).rounded() / 10000 }
        proteinGrams = view.targets?.proteinGrams
        fatGrams = view.targets?.fatGrams
        carbohydrateGrams = view.targets?.carbohydrateGrams
        warnings = view.targets?.warnings ?? []
    }
}

struct ImportResponse: ResponseEncodable {
    let source: String
    let imported: Int
    let duplicates: Int
    let mapped: [String: String]
    let unmapped: [String: Int]
    let customExercises: [String: String]
    let skippedRows: [String]
    let seededOneRepMaxes: [String: Double]
    let unit: String
    /// The import (`GET /api/strength/imports/{id}`).
    let importID: String?

    init(_ summary: StrengthService.ImportSummary, unit: WeightUnit, importID: String? = nil) {
        self.importID = importID
        source = summary.source
        imported = summary.imported
        duplicates = summary.duplicates
        mapped = summary.mapped
        unmapped = summary.unmapped
        customExercises = summary.customExercises
        skippedRows = summary.skippedRows
        seededOneRepMaxes = summary.seeded.mapValues(unit.show)
        self.unit = unit.name
    }
}

/// A Strong or Hevy import as it goes: queued, running (with the bytes and workouts done so
/// far) or finished with its summary (`result`) or its reason (`error`).
struct StrengthImportStatusResponse: ResponseEncodable {
    let id: String
    let state: String
    let bytesTotal: Int64
    let bytesDone: Int64
    /// 0…1 of the file read.
    let progress: Double
    let workoutsImported: Int
    let workoutsDuplicate: Int
    let error: String?
    let result: ImportResponse?
    let createdAt: Date
    let finishedAt: Date?

    init(_ status: StrengthImportService.Status, unit: WeightUnit) {
        let record = status.record
        id = record.id
        state = record.state.rawValue
        bytesTotal = record.bytesTotal
        bytesDone = min(record.bytesDone, record.bytesTotal)
        progress = record.bytesTotal > 0 ? min(1, Double(record.bytesDone) / Double(record.bytesTotal)) : 0
        workoutsImported = record.workoutsAdded
        workoutsDuplicate = record.workoutsDuplicate
        error = record.error
        result = record.state == .done ? status.summary.map { ImportResponse($0, unit: unit, importID: record.id) } : nil
        createdAt = record.createdAt
        finishedAt = record.finishedAt
    }
}
