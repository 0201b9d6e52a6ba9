import Crypto
import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// Imports of Strong and Hevy logs, and the user's own exercises (issue 25): a name the
/// catalogue lacks becomes a custom exercise of the user, with its whole history and 1RM.
extension StrengthService {
    public static let maximumCustomExercises = 500
    /// Equipment a custom exercise may name: the catalogue's, and "other".
    public static let customEquipment = [
        "barbell", "dumbbell", "kettlebell", "cable", "machine", "bodyweight", "band", "ez-bar", "smith-machine", "trap-bar", "plate", "landmine",
        "medicine-ball", "bench", "pull-up-bar", "other",
    ]

    // MARK: custom exercises

    public struct CustomExerciseInput: Sendable {
        public var name: String
        public var group: MuscleGroup?
        public var equipment: String
        public var measure: ExerciseMeasure

        public init(name: String, group: MuscleGroup?, equipment: String, measure: ExerciseMeasure = .reps) {
            self.name = name
            self.group = group
            self.equipment = equipment
            self.measure = measure
        }
    }

    /// The user's own exercises, by name.
    public func customExercises(for user: UserRecord) async throws -> [CustomExerciseRecord] {
        try await store.strength.customExercises(userID: user.id)
    }

    /// An exercise the user can see: the catalogue's, or one of their own (anyone else's is
    /// "not found", as if it did not exist).
    public func visibleExercise(_ id: String, for user: UserRecord) async throws -> Exercise {
        if let exercise = try await exerciseLookup(for: user, needing: [id]).exercise(id) { return exercise }
        throw AppError(.notFound, "no exercise \(id.prefix(80)) in the catalogue or among yours")
    }

    /// Creates one of the user's own exercises. Its name must not read like a catalogue
    /// exercise's (or an alias's) or one of theirs: word order, case and a final s do not count.
    public func createCustomExercise(_ input: CustomExerciseInput, for user: UserRecord, now: Date = Date()) async throws -> ExerciseView {
        var errors = [AppError.FieldError]()
        let name = input.name.trimmingCharacters(in: .whitespacesAndNewlines)
        let key = StrengthCatalogue.nameKey(name)
        if name.isEmpty || name.count > 80 || key.isEmpty || name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            errors.append(.init(field: "name", detail: "a name of 1 to 80 characters with a letter or digit, without control characters"))
        }
        if input.group == nil {
            errors.append(.init(field: "group", detail: "the muscle group: one of \(MuscleGroup.displayOrder.map(\.rawValue).joined(separator: ", "))"))
        }
        if !Self.customEquipment.contains(input.equipment) {
            errors.append(.init(field: "equipment", detail: "one of \(Self.customEquipment.joined(separator: ", "))"))
        }
        guard errors.isEmpty, let group = input.group else { throw AppError.invalid(errors) }
        if let existing = catalogue.exercise(exactlyNamed: name) {
            throw AppError.conflict("the catalogue has \(existing.name); log that one (its id is \(existing.id))", field: "name")
        }
        let own = try await customExercises(for: user)
        if let same = own.first(where: { StrengthCatalogue.nameKey($0.name) == key }) {
            throw AppError.conflict("you already have an exercise called \(same.name)", field: "name")
        }
        let record = CustomExerciseRecord(
            userID: user.id, name: name, group: group, equipment: input.equipment, loaded: input.equipment != "bodyweight", measure: input.measure,
            source: "user", createdAt: now)
        do {
            try await store.strength.addCustomExercise(record, nameKey: key, limit: Self.maximumCustomExercises)
        } catch StoreError.conflict(let message) {
            throw AppError.conflict(message, field: "name")
        } catch StoreError.limitReached {
            throw AppError.conflict("at most \(Self.maximumCustomExercises) exercises of your own")
        } catch StoreError.notFound {
            throw AppError.notSignedIn
        }
        return ExerciseView(exercise: record.exercise, stats: .coldStart, resetAt: nil)
    }

    /// For an imported name nothing matches: the user's exercise of that name, or a new one.
    /// Its group is borrowed from the catalogue exercise sharing most words (Legs when none
    /// does), its equipment from the name's note ("(Kettlebell)") or that exercise; it is
    /// loaded when any set carries weight or the equipment is not bodyweight, timed when every
    /// set has seconds and no reps.
    /// Nil when the user already has `maximumCustomExercises` of their own (the caller skips the
    /// sets and says so). The name is kept to 80 characters, and its key is the kept name's, as
    /// the stored rows are read back.
    func customExercise(
        named given: String, sets: [ImportedLiftingSession.Set], source: String, own: inout [String: CustomExerciseRecord], user: UserRecord, now: Date
    ) async throws -> CustomExerciseRecord? {
        let name = String(given.prefix(80))
        let key = StrengthCatalogue.nameKey(name)
        if let found = own[key] { return found }
        guard own.count < Self.maximumCustomExercises else { return nil }
        let nearest = catalogue.nearest(to: name)
        let equipment = StrengthCatalogue.equipment(named: name) ?? nearest?.equipment ?? "other"
        let timed = !sets.isEmpty && sets.allSatisfy { ($0.reps ?? 0) == 0 && $0.seconds != nil }
        let record = CustomExerciseRecord(
            userID: user.id, name: name, group: nearest?.group ?? .legs, equipment: equipment,
            loaded: sets.contains { $0.weightKilograms > 0 } || equipment != "bodyweight", measure: timed ? .seconds : .reps, source: source, createdAt: now)
        do {
            try await store.strength.addCustomExercise(record, nameKey: key, limit: Self.maximumCustomExercises)
        } catch StoreError.limitReached {
            return nil
        } catch StoreError.conflict {
            // Made meanwhile (the same file imported twice at once): use that one.
            for existing in try await customExercises(for: user) { own[StrengthCatalogue.nameKey(existing.name)] = existing }
            if let found = own[key] { return found }
            throw AppError.conflict("the exercise \(name) could not be created; import the file again")
        }
        own[key] = record
        return record
    }

    // MARK: import

    public struct ImportSummary: Sendable, Hashable, Codable {
        public var source: String
        public var imported: Int
        public var duplicates: Int
        /// Names in the file → catalogue ids.
        public var mapped: [String: String]
        /// Names with no catalogue exercise, and how many sets of each were imported (as the
        /// user's own exercise, `customExercises`).
        public var unmapped: [String: Int]
        /// Names with no catalogue exercise → the user's own exercise that holds them.
        public var customExercises: [String: String]
        public var skippedRows: [String]
        /// Exercises whose 1RM the import raised.
        public var seeded: [String: Double]
    }

    /// The largest export taken (read as it arrives, never whole in memory: a lifter's ten
    /// years in Strong are about 5 MB).
    public static let maximumImportBytes = 64 * 1024 * 1024

    /// Reads a whole export (a small one, in a request: the page's pasted text, tests).
    func parseLog(_ text: String, for user: UserRecord) throws -> LiftingLogImport {
        do {
            return try LiftingLogCSV.read(text, timeZone: TimeZones.zone(user.timeZone), poundsByDefault: user.units == .imperial)
        } catch {
            throw AppError.invalid("\(error)", field: "file")
        }
    }

    /// Imports a Strong or Hevy CSV export: each workout becomes a finished session (its sets
    /// done as logged; warm-up sets kept and left out of the 1RM), the statistics are seeded
    /// from them in time order (only upward, as every session does), and the same workout
    /// imported again is recognised and skipped. A name the catalogue lacks becomes (or finds)
    /// the user's own exercise, which keeps the sets and a 1RM like any other: nothing is
    /// dropped. A timed set's seconds (a plank) are its reps, as the app logs holds.
    public func importLog(_ text: String, for user: UserRecord, now: Date = Date()) async throws -> ImportSummary {
        try await importSessions(try parseLog(text, for: user), for: user, now: now)
    }

    /// Stores the sessions of a read export. `resume` is what a run that stopped (a crash, a
    /// restart) had done: its summary, and how many sessions it had gone through in order
    /// (those are not looked at again). `progress` is told after every session; `context`
    /// gives other users' work its turn between sessions. With an `importID`, each session's id
    /// is made from it and the session's place in the file, so a resumed run tells a session
    /// the stopped run stored after its last progress (imported, by this import) from one that
    /// was there before (a duplicate).
    func importSessions(
        _ parsed: LiftingLogImport, for user: UserRecord, now: Date, importID: String? = nil, resume: (summary: ImportSummary, processed: Int)? = nil,
        context: JobContext? = nil, progress: ((ImportSummary, Int) async throws -> Void)? = nil
    ) async throws -> ImportSummary {
        guard !parsed.sessions.isEmpty else { throw AppError.invalid("the file holds no workouts", field: "file") }
        var stats = try await store.strength.stats(userID: user.id).mapValues(\.stats)
        var own = [String: CustomExerciseRecord]()
        for existing in try await customExercises(for: user) { own[StrengthCatalogue.nameKey(existing.name)] = existing }
        let goal = (try? await settings(for: user, now: now).goal) ?? .muscleMaintenance
        var summary =
            resume?.summary
            ?? ImportSummary(source: parsed.source, imported: 0, duplicates: 0, mapped: [:], unmapped: [:], customExercises: [:], skippedRows: [], seeded: [:])
        var mapped = summary.mapped
        var unmapped = summary.unmapped
        var customs = summary.customExercises
        var seeded = summary.seeded
        var imported = summary.imported
        var duplicates = summary.duplicates
        var skipped = resume == nil ? parsed.skipped : summary.skippedRows
        let processed = resume?.processed ?? 0
        for (number, workout) in parsed.sessions.enumerated() where number >= processed {
            if let context {
                await context.checkpoint()
                if context.isExpired {
                    throw JobExpired("stopped: the import took longer than \(JobRunner.describe(context.timeLimit)); \(imported) workouts were imported before")
                }
            }
            if let progress, number > processed {
                summary = ImportSummary(
                    source: parsed.source, imported: imported, duplicates: duplicates, mapped: mapped, unmapped: unmapped, customExercises: customs,
                    skippedRows: Array(skipped.prefix(100)), seeded: seeded)
                try await progress(summary, number)
            }
            guard workout.startedAt <= now.addingTimeInterval(86_400) else { continue }
            var session = StrengthSessionRecord(
                id: importID.map { Self.sessionID(importID: $0, number: number) } ?? UUID().uuidString.lowercased(), userID: user.id, routineID: nil,
                name: String(workout.name.prefix(80)), goal: goal,
                source: parsed.source, importKey: "\(parsed.source):\(Int(workout.startedAt.timeIntervalSince1970)):\(workout.name.prefix(80))",
                startedAt: workout.startedAt)
            var sets = [StrengthSetRecord]()
            var touched = [String: ExerciseStats]()
            // The user's own exercises this workout uses: all its totals need to know of them.
            var ownUsed = [Exercise]()
            let end = workout.startedAt.addingTimeInterval(workout.durationSeconds ?? 0)
            for (index, block) in workout.exercises.enumerated() {
                // The catalogue's exact name or alias, then the user's own exercise of that name,
                // then the catalogue's closest name: a user's "Pause Squat" keeps its history
                // rather than joining a guessed "Barbell Pause Squat".
                let exercise: Exercise
                if let match = catalogue.exercise(exactlyNamed: block.name)
                    ?? (own[StrengthCatalogue.nameKey(String(block.name.prefix(80)))] == nil ? catalogue.exercise(named: block.name) : nil)
                {
                    exercise = match
                    mapped[block.name] = match.id
                } else if let custom = try await customExercise(
                    named: block.name, sets: block.sets, source: parsed.source, own: &own, user: user, now: now)
                {
                    exercise = custom.exercise
                    ownUsed.append(exercise)
                    unmapped[block.name, default: 0] += block.sets.count
                    customs[block.name] = exercise.id
                } else {
                    skipped.append(
                        "\(block.sets.count) sets of \(block.name.prefix(80)) on \(workout.startedAt.formatted(.iso8601)): you have \(Self.maximumCustomExercises) exercises of your own, the most there can be, so these sets were not imported"
                    )
                    continue
                }
                func reps(_ set: ImportedLiftingSession.Set) -> Int? {
                    if exercise.timed, (set.reps ?? 0) == 0, let seconds = set.seconds { return min(Self.maximumReps, Int(seconds.rounded())) }
                    return set.reps.map { min($0, Self.maximumReps) }
                }
                for set in block.sets {
                    sets.append(
                        StrengthSetRecord(
                            position: sets.count + 1, exerciseID: exercise.id, exerciseName: String(exercise.name.prefix(120)), exerciseIndex: index,
                            kind: set.kind, prescribedReps: reps(set), prescribedWeightKilograms: set.weightKilograms, reps: reps(set),
                            weightKilograms: min(Self.maximumWeightKilograms, set.weightKilograms), done: true, doneAt: end))
                }
                let working = block.sets.filter { $0.kind != "warmup" }.map {
                    PerformedSet(reps: reps($0), weightKilograms: min(Self.maximumWeightKilograms, $0.weightKilograms))
                }
                let before = touched[exercise.id] ?? stats[exercise.id] ?? .coldStart
                touched[exercise.id] = StrengthProgression.update(before, with: working, timed: exercise.timed)
            }
            total(&session, sets: sets, lookup: ExerciseLookup(catalogue: catalogue, own: ownUsed))
            session.finishedAt = end
            session.durationSeconds = workout.durationSeconds
            session.review = workout.notes.map { String($0.prefix(Self.maximumReviewLength)) }
            if try await store.strength.importSession(session, sets: sets, stats: touched, at: now) {
                imported += 1
                for (id, value) in touched {
                    if value.oneRepMaxKilograms > (stats[id]?.oneRepMaxKilograms ?? 0) { seeded[id] = value.oneRepMaxKilograms }
                    stats[id] = value
                }
            } else if resume != nil, let key = session.importKey,
                try await store.strength.importedSessionID(userID: user.id, importKey: key) == session.id
            {
                // Stored by the run that stopped, after its last progress: this import's own.
                // Its statistics were stored with it, and read at this run's start already.
                imported += 1
            } else {
                duplicates += 1
            }
        }
        return ImportSummary(
            source: parsed.source, imported: imported, duplicates: duplicates, mapped: mapped, unmapped: unmapped, customExercises: customs,
            skippedRows: Array(skipped.prefix(100)), seeded: seeded)
    }

    /// A session id made from the import and the session's place in its file (a UUID's form:
    /// the first 16 bytes of SHA-256, version and variant bits set as for a name-based UUID).
    static func sessionID(importID: String, number: Int) -> String {
        var bytes = Array(SHA256.hash(data: Data("\(importID):\(number)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}
