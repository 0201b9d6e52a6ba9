import Crypto
import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// Strength coaching (issue 12, Pocket PT): the catalogue with each user's statistics,
/// routines (built-in and the user's own), sessions prescribed by the seed's generator and
/// logged set by set, the end-of-session 1RM update, the review's motivation message and its
/// webhook, heart rate per set, imports of Strong and Hevy logs. docs/STRENGTH.md.
public struct StrengthService: Sendable {
    let store: HeartworkStore
    public let library: StrengthLibrary
    let webhookPolicy: WebhookPolicy
    /// Where a finished session's motivation webhook is queued.
    let webhooks: WebhookDeliverer

    /// How long a finished session's sets may still be corrected.
    public static let editWindow: TimeInterval = 24 * 3600
    public static let maximumWeightKilograms = 1000.0
    public static let maximumReps = 1000
    public static let maximumReviewLength = 5000
    public static let maximumRoutineExercises = 30
    public static let maximumRoutines = 200

    public var catalogue: StrengthCatalogue { library.catalogue }

    /// Shown, and accepted, before the first strength session (the seed required one and
    /// shipped none, seed-002 §2.10).
    public static let disclaimer = """
        Heartwork suggests sets, repetitions and weights from what you log; it cannot see you lift. Strength training \
        carries a risk of injury. Check with a doctor before you start if you have a medical condition, an injury, are \
        pregnant or have not trained for a long time. Warm up, learn each movement with a light load, use a spotter or \
        safety bars for heavy lifts, and stop at once if you feel pain, dizziness or chest discomfort. The weights shown \
        are estimates: lower any you cannot lift with good form, and use Reset on an exercise after a long break. When \
        unsure, ask a qualified coach or a member of staff at your gym.
        """

    // MARK: settings

    /// The user's settings; the defaults (muscle maintenance, low active) are stored on first
    /// use, so the webhook secret stays the same from then on.
    public func settings(for user: UserRecord, now: Date = Date()) async throws -> StrengthSettingsRecord {
        if let stored = try await store.strength.settings(userID: user.id) { return stored }
        let fresh = StrengthSettingsRecord(userID: user.id, webhookSecret: Self.newSecret(), updatedAt: now)
        try await store.strength.saveSettings(fresh)
        return fresh
    }

    static func newSecret() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.map { String(format: "%02x", $0) }.joined()
    }

    public struct SettingsChanges: Sendable {
        public var goal: StrengthGoal?
        public var lifestyle: Lifestyle?
        public var plateStepKilograms: FieldUpdate<Double>?
        /// The empty bar, 5–30 kg; `.clear` puts back the Olympic 20 kg.
        public var barKilograms: FieldUpdate<Double>?
        public var webhookURL: FieldUpdate<String>?
        public var acceptDisclaimer: Bool?
        public var newWebhookSecret: Bool?

        public init(
            goal: StrengthGoal? = nil, lifestyle: Lifestyle? = nil, plateStepKilograms: FieldUpdate<Double>? = nil,
            barKilograms: FieldUpdate<Double>? = nil, webhookURL: FieldUpdate<String>? = nil, acceptDisclaimer: Bool? = nil,
            newWebhookSecret: Bool? = nil
        ) {
            self.goal = goal
            self.lifestyle = lifestyle
            self.plateStepKilograms = plateStepKilograms
            self.barKilograms = barKilograms
            self.webhookURL = webhookURL
            self.acceptDisclaimer = acceptDisclaimer
            self.newWebhookSecret = newWebhookSecret
        }
    }

    /// Checks a webhook URL as `updateSettings` does, for a form that saves it only once
    /// everything else is right (sign-up).
    public func checkedWebhookURL(_ text: String, field: String = "webhookUrl") throws(AppError) -> String {
        try webhookPolicy.check(text, field: field)
    }

    public func updateSettings(_ changes: SettingsChanges, for user: UserRecord, now: Date = Date()) async throws -> StrengthSettingsRecord {
        var settings = try await settings(for: user, now: now)
        if let goal = changes.goal { settings.goal = goal }
        if let lifestyle = changes.lifestyle {
            settings.lifestyle = lifestyle
            settings.lifestyleChosen = true
        }
        if let step = changes.plateStepKilograms {
            if let value = step.value {
                guard value.isFinite, (0.25...25).contains(value) else {
                    throw AppError.invalid("the plate step is from 0.25 to 25 kg (e.g. 1.25 for the smallest plates you own, times two)", field: "plateStepKg")
                }
                settings.plateStepKilograms = value
            } else {
                settings.plateStepKilograms = nil
            }
        }
        if let bar = changes.barKilograms {
            let value = bar.value ?? WorkoutGenerator.defaultBarKilograms
            let range = WorkoutGenerator.barKilogramsRange
            guard value.isFinite, range.contains(value) else {
                let detail = "enter a bar weight from \(Int(range.lowerBound)) to \(Int(range.upperBound)) kg; an empty Olympic bar weighs 20 kg"
                throw AppError.invalid(detail, field: "barKg").withMessage(AppError.sentence(detail))
            }
            settings.barKilograms = (value * 1000).rounded() / 1000
        }
        if let url = changes.webhookURL {
            settings.webhookURL = try url.value.map { try webhookPolicy.check($0, field: "webhookUrl") }
        }
        if changes.acceptDisclaimer == true, settings.disclaimerAcceptedAt == nil { settings.disclaimerAcceptedAt = now }
        if changes.acceptDisclaimer == false {
            throw AppError.invalid("the disclaimer can be accepted (true); it is not withdrawn this way", field: "acceptDisclaimer")
        }
        if changes.newWebhookSecret == true { settings.webhookSecret = Self.newSecret() }
        settings.updatedAt = now
        try await store.strength.saveSettings(settings)
        return settings
    }

    // MARK: exercises

    public struct ExerciseView: Sendable {
        public let exercise: Exercise
        public let stats: ExerciseStats
        public let resetAt: Date?
        /// Whether the next session starts it with a baseline set — the generator's own rule
        /// (`WorkoutGenerator.needsBaseline`): never done (or reset), or a loaded exercise still
        /// without a 1RM (every counted set had 37 reps or more). Pages and the API show this.
        public var needsBaseline: Bool { WorkoutGenerator.needsBaseline(GeneratorExercise(exercise, stats: stats)) }
    }

    /// The catalogue's exercises and the user's own (`Exercise.isCustom`), alphabetical.
    public func exercises(for user: UserRecord, group: MuscleGroup? = nil) async throws -> [ExerciseView] {
        let stats = try await store.strength.stats(userID: user.id)
        let own = try await customExercises(for: user).map(\.exercise)
        return (catalogue.exercises + own).filter { group == nil || $0.group == group }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }.map {
            ExerciseView(exercise: $0, stats: stats[$0.id]?.stats ?? .coldStart, resetAt: stats[$0.id]?.resetAt)
        }
    }

    public struct ProgressPoint: Sendable, Hashable {
        public let sessionID: String
        public let date: Date
        /// The best Brzycki estimate of the session's counted sets (nil: none counts).
        public let estimatedOneRepMax: Double?
        public let bestSet: PerformedSet?
    }

    public func exercise(_ id: String, for user: UserRecord) async throws -> (view: ExerciseView, progress: [ProgressPoint]) {
        let exercise = try await visibleExercise(id, for: user)
        let stats = try await store.strength.stats(userID: user.id)[id]
        let history = try await store.strength.exerciseHistory(userID: user.id, exerciseID: id, limit: 400)
        let progress = history.map { entry in
            let performed = entry.sets.map(\.performed)
            return ProgressPoint(
                sessionID: entry.session.id, date: entry.session.startedAt,
                estimatedOneRepMax: StrengthProgression.bestEstimate(performed, timed: exercise.timed),
                bestSet: performed.filter(\.counts).max { ($0.weightKilograms, $0.reps ?? 0) < ($1.weightKilograms, $1.reps ?? 0) })
        }
        return (ExerciseView(exercise: exercise, stats: stats?.stats ?? .coldStart, resetAt: stats?.resetAt), progress)
    }

    /// Sends the exercise back to the cold start: a baseline set next time (5 kg, or the
    /// empty bar when that is heavier; a "Maximum" hold for a timed exercise).
    public func reset(_ id: String, for user: UserRecord, now: Date = Date()) async throws -> ExerciseView {
        let exercise = try await visibleExercise(id, for: user)
        try await store.strength.resetStats(userID: user.id, exerciseID: id, at: now)
        return ExerciseView(exercise: exercise, stats: .coldStart, resetAt: now)
    }

    // MARK: routines

    public struct RoutineView: Sendable, Hashable {
        /// One exercise of the routine, in order: `exercise` is nil when the id names nothing
        /// the user can see any more (one of their own exercises that is gone); the routine
        /// then says so, and a session leaves it out.
        public struct Item: Sendable, Hashable {
            public let id: String
            public let exercise: Exercise?
        }

        public let template: RoutineTemplate
        public let builtIn: Bool
        public let bodyweight: Bool
        public let groups: [MuscleGroup]
        public let position: Int
        public let exercises: [Item]
        /// The ids the user can no longer see (see `Item`).
        public var missing: [String] { exercises.filter { $0.exercise == nil }.map(\.id) }
    }

    func view(_ template: RoutineTemplate, builtIn: Bool, position: Int, lookup: ExerciseLookup) -> RoutineView {
        let groups = lookup.groups(of: template)
        return RoutineView(
            template: template, builtIn: builtIn, bodyweight: lookup.isBodyweight(template),
            groups: MuscleGroup.displayOrder.filter(groups.contains), position: position,
            exercises: template.exerciseIDs.map { RoutineView.Item(id: $0, exercise: lookup.exercise($0)) })
    }

    /// The exercises the user can name: the catalogue's and their own. Every rule that asks
    /// what an exercise is (a hold? loaded? which group?) asks this.
    /// With `ids`, the user's own exercises are read only when one of them is the user's own
    /// (a set logged in a session of catalogue exercises reads no more than before).
    public func exerciseLookup(for user: UserRecord, needing ids: [String]? = nil) async throws -> ExerciseLookup {
        if let ids, !ids.contains(where: { $0.hasPrefix(StrengthCatalogue.customPrefix) }) { return ExerciseLookup(catalogue: catalogue) }
        return ExerciseLookup(catalogue: catalogue, own: try await customExercises(for: user).map(\.exercise))
    }

    /// The user's own routines in their order, then the built-in ones alphabetically.
    /// `lookup`: the caller's, when it has one (the user's own exercises are read once).
    public func routines(for user: UserRecord, lookup known: ExerciseLookup? = nil) async throws -> [RoutineView] {
        let lookup = if let known { known } else { try await exerciseLookup(for: user) }
        let own = try await store.strength.routines(userID: user.id).enumerated().map { view($1.template, builtIn: false, position: $0, lookup: lookup) }
        let builtIn = catalogue.routines.sorted { $0.name < $1.name }.map { view($0, builtIn: true, position: 0, lookup: lookup) }
        return own + builtIn
    }

    public func routine(_ id: String, for user: UserRecord, lookup known: ExerciseLookup? = nil) async throws -> RoutineView {
        let lookup = if let known { known } else { try await exerciseLookup(for: user) }
        if let builtIn = catalogue.routines.first(where: { $0.id == id }) { return view(builtIn, builtIn: true, position: 0, lookup: lookup) }
        let own = try await store.strength.routines(userID: user.id)
        guard let index = own.firstIndex(where: { $0.id == id }) else { throw AppError.notFound("routine") }
        return view(own[index].template, builtIn: false, position: index, lookup: lookup)
    }

    public struct RoutineInput: Sendable {
        public var name: String
        public var goal: StrengthGoal
        public var description: String
        public var exerciseIDs: [String]

        public init(name: String, goal: StrengthGoal, description: String = "", exerciseIDs: [String]) {
            self.name = name
            self.goal = goal
            self.description = description
            self.exerciseIDs = exerciseIDs
        }
    }

    /// The exercises may be the catalogue's or the user's own (`lookup`); anyone else's own
    /// exercise is refused like an unknown id, naming it, and never said to exist.
    func checked(_ input: RoutineInput, lookup: ExerciseLookup) throws -> RoutineInput {
        var errors = [AppError.FieldError]()
        let name = input.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty || name.count > 80 || name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            errors.append(.init(field: "name", detail: "a name of 1 to 80 characters, without control characters"))
        }
        let description = input.description.trimmingCharacters(in: .whitespacesAndNewlines)
        if description.count > 500 { errors.append(.init(field: "description", detail: "at most 500 characters")) }
        if input.exerciseIDs.isEmpty || input.exerciseIDs.count > Self.maximumRoutineExercises {
            errors.append(.init(field: "exercises", detail: "1 to \(Self.maximumRoutineExercises) exercises, in the order they are done"))
        }
        for (i, id) in input.exerciseIDs.enumerated() where lookup.exercise(id) == nil {
            errors.append(
                .init(
                    field: "exercises[\(i)]",
                    detail: "no exercise \(id.prefix(80)) in the catalogue or among your own (GET /api/exercises lists them)"))
        }
        guard errors.isEmpty else { throw AppError.invalid(errors) }
        return RoutineInput(name: name, goal: input.goal, description: description, exerciseIDs: input.exerciseIDs)
    }

    public func createRoutine(_ input: RoutineInput, for user: UserRecord, now: Date = Date()) async throws -> RoutineView {
        let lookup = try await exerciseLookup(for: user)
        let input = try checked(input, lookup: lookup)
        let existing = try await store.strength.routines(userID: user.id)
        if catalogue.routines.contains(where: { $0.name.lowercased() == input.name.lowercased() }) {
            throw AppError.conflict("a built-in routine is called \(input.name); choose another name", field: "name")
        }
        let record = UserRoutineRecord(
            userID: user.id, name: input.name, goal: input.goal, description: input.description, exerciseIDs: input.exerciseIDs,
            position: (existing.map(\.position).max() ?? -1) + 1, createdAt: now, updatedAt: now)
        do {
            try await store.strength.addRoutine(record, limit: Self.maximumRoutines)
        } catch StoreError.conflict(let message) {
            throw AppError.conflict(message, field: "name")
        } catch StoreError.limitReached {
            throw AppError.conflict("at most \(Self.maximumRoutines) routines of your own")
        } catch StoreError.notFound {
            throw AppError.notSignedIn
        }
        return view(record.template, builtIn: false, position: existing.count, lookup: lookup)
    }

    public func updateRoutine(_ id: String, _ input: RoutineInput, for user: UserRecord, now: Date = Date()) async throws -> RoutineView {
        if catalogue.routines.contains(where: { $0.id == id }) {
            throw AppError(.forbidden, "built-in routines cannot be changed; create your own from it")
        }
        let input = try checked(input, lookup: try await exerciseLookup(for: user))
        let own = try await store.strength.routines(userID: user.id)
        guard var record = own.first(where: { $0.id == id }) else { throw AppError.notFound("routine") }
        record.name = input.name
        record.goal = input.goal
        record.description = input.description
        record.exerciseIDs = input.exerciseIDs
        record.updatedAt = now
        do {
            guard try await store.strength.updateRoutine(record) else { throw AppError.notFound("routine") }
        } catch StoreError.conflict(let message) {
            throw AppError.conflict(message, field: "name")
        }
        return try await routine(id, for: user)
    }

    public func deleteRoutine(_ id: String, for user: UserRecord) async throws {
        if catalogue.routines.contains(where: { $0.id == id }) { throw AppError(.forbidden, "built-in routines cannot be deleted") }
        guard try await store.strength.deleteRoutine(id: id, userID: user.id) else { throw AppError.notFound("routine") }
    }

    /// Orders the user's routines: `ids` must be exactly their routines, each once.
    public func reorderRoutines(_ ids: [String], for user: UserRecord, now: Date = Date()) async throws -> [RoutineView] {
        let own = try await store.strength.routines(userID: user.id)
        guard ids.count == own.count, Set(ids) == Set(own.map(\.id)) else {
            throw AppError.invalid("give every one of your routines' ids once, in the order you want", field: "order")
        }
        try await store.strength.reorderRoutines(userID: user.id, ids: ids, at: now)
        return try await routines(for: user)
    }

    // MARK: suggestion

    public struct SuggestionView: Sendable {
        public let routine: RoutineView
        /// The warning (when there is one) and why this routine, in one sentence.
        public let reason: String
        /// Why this routine, without the warning.
        public let why: String
        /// "you have done … 3 times in a row …" when `overused`.
        public let warning: String?
        public let overlapping: [MuscleGroup]
        /// The routine just done `RoutineSuggestion.overuseThreshold` or more times in a row
        /// (seed F16), and how many times; the suggestion is then another one.
        public let overused: (routine: RoutineView, times: Int)?
    }

    /// Today's routine (`RoutineSuggestion`): not the one just done 3 times in a row, resting
    /// what was trained yesterday and today, the one not done for longest.
    public func suggestion(for user: UserRecord, now: Date = Date()) async throws -> SuggestionView? {
        let settings = try await settings(for: user, now: now)
        let zone = TimeZones.zone(user.timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let todayStart = calendar.startOfDay(for: now)
        let yesterdayStart = calendar.date(byAdding: .day, value: -1, to: todayStart) ?? todayStart.addingTimeInterval(-86_400)
        let recent = try await store.strength.exercisesTrained(userID: user.id, since: yesterdayStart)
        let lookup = try await exerciseLookup(for: user)
        let trained = Set(recent.compactMap { lookup.exercise($0.exerciseID)?.group })
        let last = try await store.strength.lastStarted(userID: user.id)
        // A routine none of whose exercises is left cannot be started (409): never suggested.
        let all = try await routines(for: user, lookup: lookup).filter { $0.exercises.contains { $0.exercise != nil } }
        let candidates = all.map {
            RoutineSuggestion.Candidate(
                id: $0.template.id, name: $0.template.name, goal: $0.template.goal, groups: Set($0.groups),
                lastDoneDay: last[$0.template.id].map { Int($0.timeIntervalSince1970 / 86_400) })
        }
        let latest = try await store.strength.sessions(userID: user.id, from: nil, to: nil, limit: 2 * RoutineSuggestion.overuseThreshold + 10, offset: 0)
        let overuse = RoutineSuggestion.overuse(recent: latest.filter { $0.finishedAt != nil }.map(\.routineID))
        guard let pick = RoutineSuggestion.suggest(candidates, goal: settings.goal, recentlyTrained: trained, overused: overuse),
            let routine = all.first(where: { $0.template.id == pick.routineID })
        else { return nil }
        let overused = overuse.flatMap { o in all.first(where: { $0.template.id == o.routineID }).map { (routine: $0, times: o.times) } }
        return SuggestionView(
            routine: routine, reason: pick.fullReason, why: pick.reason, warning: pick.warning,
            overlapping: MuscleGroup.displayOrder.filter(pick.overlapping.contains),
            overused: pick.warning == nil ? nil : overused)
    }

    // MARK: sessions

    public struct SessionView: Sendable {
        public let session: StrengthSessionRecord
        public let sets: [StrengthSetRecord]
        /// Per set, when the session has heart rate (a linked strap or an uploaded workout).
        public let heartRate: [SetHeartRate.Result]?
        /// "sensor" or "workout:{id}" when heart rate was found.
        public let heartRateSource: String?
        /// The user's exercises as they are now: what each set's exercise is (a hold? loaded?).
        public let exercises: ExerciseLookup
        public var editableUntil: Date? { session.finishedAt.map { $0.addingTimeInterval(StrengthService.editWindow) } }
    }

    /// Starts a session from a routine: the generator's prescription from the user's
    /// statistics. Needs the safety disclaimer accepted. `sensorID` links one of the user's
    /// straps for heart rate per set. The user's own exercises are prescribed like the
    /// catalogue's (their history and 1RM, their `loaded` and `measure`); an exercise the
    /// routine names that is no longer there is left out (the routine's page says so).
    public func start(routineID: String, sensorID: String? = nil, for user: UserRecord, now: Date = Date()) async throws -> SessionView {
        let settings = try await settings(for: user, now: now)
        guard settings.disclaimerAcceptedAt != nil else {
            throw AppError(.forbidden, "accept the safety disclaimer first (PUT /api/strength/settings {\"acceptDisclaimer\": true}, or the page that shows it)")
        }
        let lookup = try await exerciseLookup(for: user)
        let routineView = try await routine(routineID, for: user, lookup: lookup)
        let routine = routineView.template
        if let sensorID, try await store.sensors.find(id: sensorID, userID: user.id) == nil {
            throw AppError(.notFound, "no sensor \(sensorID.prefix(80)) among yours", field: "sensor")
        }
        let stats = try await store.strength.stats(userID: user.id)
        let exercises = routineView.exercises.compactMap(\.exercise)
        guard !exercises.isEmpty else {
            throw AppError.conflict(
                "none of this routine's exercises exists any more (\(routineView.missing.map { String($0.prefix(80)) }.joined(separator: ", "))); edit the routine")
        }
        // The reps follow the user's goal, as the seed's generator does (`switch user.goal`,
        // seed line 3030; digest §3.3.2), not the routine's: a routine's goal only files it.
        let generator = WorkoutGenerator(
            goal: settings.goal, plateStepKilograms: settings.plateStepKilograms,
            kilogramsPerUnit: user.units == .imperial ? BodyMass.kilogramsPerPound : 1)
        let prescription = generator.prescribe(
            exercises.map {
                GeneratorExercise($0, stats: stats[$0.id]?.stats ?? .coldStart, barKilograms: settings.barKilograms)
            })
        var sets = [StrengthSetRecord]()
        for (index, (exercise, block)) in zip(exercises, prescription).enumerated() {
            for set in block.sets {
                sets.append(
                    StrengthSetRecord(
                        position: sets.count + 1, exerciseID: exercise.id, exerciseName: exercise.name, exerciseIndex: index,
                        prescribedReps: set.reps, prescribedWeightKilograms: set.weightKilograms, reps: set.reps, weightKilograms: set.weightKilograms,
                        done: false, doneAt: nil))
            }
        }
        let session = StrengthSessionRecord(
            userID: user.id, routineID: routine.id, name: routine.name, goal: settings.goal, sensorID: sensorID, startedAt: now)
        try await store.strength.createSession(session, sets: sets)
        return SessionView(session: session, sets: sets, heartRate: nil, heartRateSource: nil, exercises: lookup)
    }

    func stored(_ id: String, for user: UserRecord) async throws -> (session: StrengthSessionRecord, sets: [StrengthSetRecord]) {
        guard let found = try await store.strength.session(id: id, userID: user.id) else { throw AppError.notFound("strength session") }
        return found
    }

    public func session(_ id: String, for user: UserRecord) async throws -> SessionView {
        let (session, sets) = try await stored(id, for: user)
        let (heartRate, source) = try await heartRate(session, sets: sets, user: user)
        return SessionView(
            session: session, sets: sets, heartRate: heartRate, heartRateSource: source,
            exercises: try await exerciseLookup(for: user, needing: sets.map(\.exerciseID)))
    }

    /// Deletes one of the user's sessions with its sets: a started one they will not finish
    /// (the point of it), or a finished or imported one. Only the owner's: anyone else's is
    /// "not found". Exercise statistics a finished session raised stay as they are (a 1RM only
    /// rises; Reset on the exercise starts it again).
    public func discardSession(userID: String, sessionID: String) async throws {
        guard try await store.strength.deleteSession(id: sessionID, userID: userID) else { throw AppError.notFound("strength session") }
    }

    public func sessions(for user: UserRecord, from: Date? = nil, to: Date? = nil, page: Page) async throws -> [StrengthSessionRecord] {
        try await store.strength.sessions(userID: user.id, from: from, to: to, limit: min(page.limit, 500), offset: page.offset)
    }

    public struct SetChange: Sendable {
        /// `.clear` puts back the "Maximum" placeholder (only where it was prescribed).
        public var reps: FieldUpdate<Int>?
        public var weightKilograms: Double?
        public var done: Bool?

        public init(reps: FieldUpdate<Int>? = nil, weightKilograms: Double? = nil, done: Bool? = nil) {
            self.reps = reps
            self.weightKilograms = weightKilograms
            self.done = done
        }
    }

    /// Logs set `number` (1… across the session): reps, weight, done. A finished session's
    /// sets may still be corrected for 24 hours (its totals follow; the 1RM only rises).
    public func logSet(_ sessionID: String, number: Int, _ change: SetChange, for user: UserRecord, now: Date = Date()) async throws -> SessionView {
        var (session, sets) = try await stored(sessionID, for: user)
        guard sets.contains(where: { $0.position == number }) else {
            throw AppError(.notFound, "this session has sets 1 to \(sets.count); there is no set \(number)", field: "set")
        }
        if let finished = session.finishedAt, now > finished.addingTimeInterval(Self.editWindow) {
            throw AppError.conflict("this session was finished more than 24 hours ago; its log is closed")
        }
        var errors = [AppError.FieldError]()
        if case .set(let reps)? = change.reps, !(0...Self.maximumReps).contains(reps) {
            errors.append(.init(field: "reps", detail: "reps are a whole number from 0 to \(Self.maximumReps)"))
        }
        if let weight = change.weightKilograms, !(weight.isFinite && (0...Self.maximumWeightKilograms).contains(weight)) {
            errors.append(.init(field: "weight", detail: "a weight from 0 to \(Int(Self.maximumWeightKilograms)) kg"))
        }
        guard errors.isEmpty else { throw AppError.invalid(errors) }
        // Applied to the row as stored, under its lock: a value typed and a tap on ✓ sent at
        // the same moment both land.
        let updated = try await store.strength.modifySet(sessionID: session.id, position: number) { set in
            switch change.reps {
            case .set(let reps)?: set.reps = reps
            case .clear?:
                guard set.prescribedReps == nil else {
                    throw AppError.invalid("only a \"Maximum\" set can go back to the placeholder; give the reps done", field: "reps")
                }
                set.reps = nil
            case nil: break
            }
            if let weight = change.weightKilograms { set.weightKilograms = (weight * 1000).rounded() / 1000 }
            if let done = change.done {
                if done, !set.done { set.doneAt = now }
                if !done { set.doneAt = nil }
                set.done = done
            }
        }
        guard let set = updated, let index = sets.firstIndex(where: { $0.position == number }) else { throw AppError.notFound("set") }
        sets[index] = set
        let lookup = try await exerciseLookup(for: user, needing: sets.map(\.exerciseID))
        if let finished = session.finishedAt {
            total(&session, sets: sets, lookup: lookup)
            try await store.strength.updateTotals(session)
            try await recompute(set.exerciseID, of: session, finished: finished, sets: sets, lookup: lookup, user: user, now: now)
        }
        return SessionView(session: session, sets: sets, heartRate: nil, heartRateSource: nil, exercises: lookup)
    }

    /// After a correction to a finished session: when nothing else has changed the exercise's
    /// statistics since (no reset, no later session with it), they are computed again from
    /// what they were before this session and its sets as they are now — so a typo (36 reps
    /// for 6) that raised a 1RM can be taken back. Otherwise the correction can only raise
    /// them, as every session does.
    func recompute(
        _ exerciseID: String, of session: StrengthSessionRecord, finished: Date, sets: [StrengthSetRecord], lookup: ExerciseLookup, user: UserRecord, now: Date
    ) async throws {
        guard let exercise = lookup.exercise(exerciseID) else { return }
        let stats = try await store.strength.stats(userID: user.id)
        let current = stats[exerciseID]?.stats ?? .coldStart
        let performed = sets.filter { $0.exerciseID == exerciseID }.map(\.performed)
        let timed = exercise.timed
        let after: ExerciseStats
        if session.source == "heartwork", let baseline = try await store.strength.baselines(sessionID: session.id)[exerciseID],
            try await !store.strength.changedSince(userID: user.id, exerciseID: exerciseID, date: finished, excluding: session.id)
        {
            after = StrengthProgression.update(baseline, with: performed, timed: timed)
        } else {
            after = StrengthProgression.update(current, with: performed, timed: timed)
        }
        if after != current { try await store.strength.saveStats(userID: user.id, [exerciseID: after], at: now) }
    }

    /// Totals of the counted sets (done, reps above zero): volume Σ reps × weight, reps, sets.
    /// Holds count as sets but add nothing to the reps or the volume (their reps are seconds).
    func total(_ session: inout StrengthSessionRecord, sets: [StrengthSetRecord], lookup: ExerciseLookup) {
        let counted = sets.filter { $0.performed.counts }
        let repeated = counted.filter { !lookup.isTimed($0.exerciseID) }
        session.volumeKilograms = repeated.reduce(0) { $0 + Double($1.reps ?? 0) * $1.weightKilograms }
        session.totalReps = repeated.reduce(0) { $0 + ($1.reps ?? 0) }
        session.totalSets = counted.count
    }

    public struct OneRepMaxChange: Sendable, Hashable {
        public let exerciseID: String
        public let exerciseName: String
        public let before: Double
        public let after: Double
    }

    public struct Finished: Sendable {
        public let view: SessionView
        public let changes: [OneRepMaxChange]
        public let sentiment: SentimentScorer.Scored
        public let message: String
        public let webhookQueued: Bool
    }

    public func finish(_ sessionID: String, review: String, enjoyment: Int, difficulty: Int, for user: UserRecord, now: Date = Date()) async throws -> Finished {
        var errors = [AppError.FieldError]()
        let text = review.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count > Self.maximumReviewLength { errors.append(.init(field: "review", detail: "at most \(Self.maximumReviewLength) characters")) }
        if !(0...5).contains(enjoyment) { errors.append(.init(field: "enjoyment", detail: "0 to 5 stars")) }
        if !(0...5).contains(difficulty) { errors.append(.init(field: "difficulty", detail: "0 to 5 stars")) }
        guard errors.isEmpty else { throw AppError.invalid(errors) }
        var (session, sets) = try await stored(sessionID, for: user)
        guard session.finishedAt == nil else { throw AppError.conflict("this session is already finished") }
        let stats = try await store.strength.stats(userID: user.id)
        let lookup = try await exerciseLookup(for: user, needing: sets.map(\.exerciseID))
        var updated = [String: ExerciseStats]()
        var baselines = [String: ExerciseStats]()
        var changes = [OneRepMaxChange]()
        var seen = Set<String>()
        for set in sets where !set.exerciseID.hasPrefix("other:") && seen.insert(set.exerciseID).inserted {
            let before = stats[set.exerciseID]?.stats ?? .coldStart
            baselines[set.exerciseID] = before
            let after = StrengthProgression.update(before, with: sets.filter { $0.exerciseID == set.exerciseID }.map(\.performed), timed: lookup.isTimed(set.exerciseID))
            guard after != before else { continue }
            updated[set.exerciseID] = after
            if after.oneRepMaxKilograms != before.oneRepMaxKilograms {
                changes.append(
                    OneRepMaxChange(
                        exerciseID: set.exerciseID, exerciseName: set.exerciseName,
                        before: before.oneRepMaxKilograms, after: after.oneRepMaxKilograms))
            }
        }
        let scored = library.scorer.score(text)
        let rotation = Int(session.id.unicodeScalars.reduce(UInt32(0)) { $0 &* 31 &+ $1.value } % 997)
        let message = library.messages.message(for: scored.score, rotation: rotation) ?? "Session saved."
        total(&session, sets: sets, lookup: lookup)
        session.finishedAt = now
        session.review = text
        session.enjoyment = enjoyment
        session.difficulty = difficulty
        session.sentiment = scored.score
        session.message = message
        session.durationSeconds = max(0, now.timeIntervalSince(session.startedAt))
        guard try await store.strength.finish(session, stats: updated, baselines: baselines, at: now) else {
            throw AppError.conflict("this session is already finished")
        }
        let settings = try await settings(for: user, now: now)
        var queued = false
        if let url = settings.webhookURL {
            let body = WebhookPayload.body(user: user, session: session, score: scored.score, message: message)
            try await webhooks.enqueue(WebhookDeliveryRecord(userID: user.id, url: url, body: body, nextAttemptAt: now, createdAt: now), now: now)
            queued = true
        }
        let (heartRate, source) = try await heartRate(session, sets: sets, user: user)
        return Finished(
            view: SessionView(session: session, sets: sets, heartRate: heartRate, heartRateSource: source, exercises: lookup),
            changes: changes, sentiment: scored, message: message, webhookQueued: queued)
    }

    /// The 1RMs a finished session raised: from what they were when it was finished to what
    /// its sets make of them now.
    public func oneRepMaxChanges(of view: SessionView) async throws -> [OneRepMaxChange] {
        guard view.session.finishedAt != nil else { return [] }
        let baselines = try await store.strength.baselines(sessionID: view.session.id)
        var seen = Set<String>()
        return view.sets.compactMap { set in
            guard seen.insert(set.exerciseID).inserted, let before = baselines[set.exerciseID] else { return nil }
            let after = StrengthProgression.update(
                before, with: view.sets.filter { $0.exerciseID == set.exerciseID }.map(\.performed), timed: view.exercises.isTimed(set.exerciseID))
            guard after.oneRepMaxKilograms > before.oneRepMaxKilograms else { return nil }
            return OneRepMaxChange(exerciseID: set.exerciseID, exerciseName: set.exerciseName, before: before.oneRepMaxKilograms, after: after.oneRepMaxKilograms)
        }
    }

    // MARK: heart rate

    /// The session's heart rate: the linked strap's readings, or else an uploaded workout of
    /// the user's that covers the session's time.
    func heartRate(_ session: StrengthSessionRecord, sets: [StrengthSetRecord], user: UserRecord) async throws -> ([SetHeartRate.Result]?, String?) {
        let ends = sets.map { $0.doneAt?.timeIntervalSince1970 }
        guard let lastEnd = ends.compactMap({ $0 }).max() else { return (nil, nil) }
        let start = session.startedAt.timeIntervalSince1970
        let until = Date(timeIntervalSince1970: lastEnd + SetHeartRate.recoverySeconds + SetHeartRate.tolerance)
        var samples = [TimedHeartRate]()
        var source: String?
        if let sensorID = session.sensorID {
            let readings = try await store.sensors.readings(sensorID: sensorID, from: session.startedAt, to: until)
            samples = readings.filter { $0.beatsPerMinute > 0 }.map {
                TimedHeartRate(timeSeconds: Double($0.atMilliseconds) / 1000, beatsPerMinute: Double($0.beatsPerMinute))
            }
            source = "sensor"
        }
        if samples.isEmpty {
            let candidates = try await store.workouts.list(
                userID: user.id, from: session.startedAt.addingTimeInterval(-6 * 3600), to: until, sharedOnly: false, page: Page(limit: 20, offset: 0))
            for workout in candidates {
                guard let streams = try await store.workouts.streams(workoutID: workout.id) else { continue }
                let origin = workout.startedAt.timeIntervalSince1970
                guard origin <= lastEnd, origin + Double(streams.heartRate.count) >= start else { continue }
                samples = streams.heartRate.enumerated().compactMap { second, bpm in
                    bpm.map { TimedHeartRate(timeSeconds: origin + Double(second), beatsPerMinute: Double($0)) }
                }
                source = "workout:\(workout.id)"
                break
            }
        }
        guard !samples.isEmpty else { return (nil, nil) }
        return (SetHeartRate.analyse(samples: samples.sorted { $0.timeSeconds < $1.timeSeconds }, sessionStart: start, ends: ends), source)
    }
}
