import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

extension StrengthService {
    public struct NutritionView: Sendable {
        public let goal: StrengthGoal
        public let lifestyle: Lifestyle
        public let sex: Sex?
        public let ageYears: Int?
        public let heightMeters: Double?
        public let weightKilograms: Double?
        /// Profile fields still needed ("sex", "dateOfBirth", "height", "weight").
        public let missing: [String]
        public let targets: NutritionTargets?
    }

    /// The signed-in user's daily energy and macros (seed-002 §3.1–§3.2), recomputed on every
    /// request from the profile (sex, age in whole years, height) and the latest weight, as
    /// the seed's nutrition screen did.
    public func nutrition(for user: UserRecord, now: Date = Date()) async throws -> NutritionView {
        let settings = try await settings(for: user, now: now)
        let age = user.dateOfBirth.map { $0.wholeYears(until: CalendarDay(now)) }
        let weight = try await store.measurements.latest(userID: user.id, kind: .weight, atOrBefore: now)?.value
        var missing = [String]()
        if user.sex == nil { missing.append("sex") }
        if age == nil { missing.append("dateOfBirth") }
        if user.heightMeters == nil { missing.append("height") }
        if weight == nil { missing.append("weight") }
        var targets: NutritionTargets?
        if let sex = user.sex, let age, let height = user.heightMeters, let weight {
            targets = NutritionTargets(sex: sex, ageYears: age, heightMeters: height, weightKilograms: weight, lifestyle: settings.lifestyle, goal: settings.goal)
        }
        return NutritionView(
            goal: settings.goal, lifestyle: settings.lifestyle, sex: user.sex, ageYears: age, heightMeters: user.heightMeters,
            weightKilograms: weight, missing: missing, targets: targets)
    }

    public struct ImportSummary: Sendable, Hashable {
        public let source: String
        public let imported: Int
        public let duplicates: Int
        /// Names in the file → catalogue ids.
        public let mapped: [String: String]
        /// Names with no catalogue exercise, and how many sets of each were kept in the log.
        public let unmapped: [String: Int]
        public let skippedRows: [String]
        /// Exercises whose 1RM the import raised.
        public let seeded: [String: Double]
    }

    public static let maximumImportBytes = 20 * 1024 * 1024

    /// Imports a Strong or Hevy CSV export: each workout becomes a finished session (its sets
    /// done as logged; warm-up sets kept and left out of the 1RM), the statistics are seeded
    /// from them in time order (only upward, as every session does), and the same workout
    /// imported again is recognised and skipped. Exercises not in the catalogue are kept in
    /// the log under their own name and reported.
    public func importLog(_ text: String, for user: UserRecord, now: Date = Date()) async throws -> ImportSummary {
        let parsed: LiftingLogImport
        do {
            parsed = try LiftingLogCSV.read(text, timeZone: TimeZones.zone(user.timeZone), poundsByDefault: user.units == .imperial)
        } catch {
            throw AppError.invalid("\(error)", field: "file")
        }
        guard !parsed.sessions.isEmpty else { throw AppError.invalid("the file holds no workouts", field: "file") }
        var stats = try await store.strength.stats(userID: user.id).mapValues(\.stats)
        var mapped = [String: String]()
        var unmapped = [String: Int]()
        var seeded = [String: Double]()
        var imported = 0
        var duplicates = 0
        for workout in parsed.sessions {
            guard workout.startedAt <= now.addingTimeInterval(86_400) else { continue }
            var session = StrengthSessionRecord(
                userID: user.id, routineID: nil, name: String(workout.name.prefix(80)), goal: (try? await settings(for: user, now: now).goal) ?? .muscleMaintenance,
                source: parsed.source, importKey: "\(parsed.source):\(Int(workout.startedAt.timeIntervalSince1970)):\(workout.name.prefix(80))",
                startedAt: workout.startedAt)
            var sets = [StrengthSetRecord]()
            var touched = [String: ExerciseStats]()
            let end = workout.startedAt.addingTimeInterval(workout.durationSeconds ?? 0)
            for (index, block) in workout.exercises.enumerated() {
                let match = catalogue.exercise(named: block.name)
                let id = match?.id ?? "other:" + StrengthCatalogue.nameKey(block.name).prefix(60)
                if let match { mapped[block.name] = match.id } else { unmapped[block.name, default: 0] += block.sets.count }
                for set in block.sets {
                    sets.append(
                        StrengthSetRecord(
                            position: sets.count + 1, exerciseID: id, exerciseName: String((match?.name ?? block.name).prefix(120)), exerciseIndex: index,
                            kind: set.kind, prescribedReps: set.reps, prescribedWeightKilograms: set.weightKilograms, reps: set.reps,
                            weightKilograms: min(Self.maximumWeightKilograms, set.weightKilograms), done: true, doneAt: end))
                }
                if let match {
                    let working = block.sets.filter { $0.kind != "warmup" }.map {
                        PerformedSet(reps: $0.reps.map { min($0, Self.maximumReps) }, weightKilograms: min(Self.maximumWeightKilograms, $0.weightKilograms))
                    }
                    let before = touched[match.id] ?? stats[match.id] ?? .coldStart
                    touched[match.id] = StrengthProgression.update(before, with: working, timed: match.timed)
                }
            }
            total(&session, sets: sets)
            session.finishedAt = end
            session.durationSeconds = workout.durationSeconds
            session.review = workout.notes.map { String($0.prefix(Self.maximumReviewLength)) }
            if try await store.strength.importSession(session, sets: sets, stats: touched, at: now) {
                imported += 1
                for (id, value) in touched {
                    if value.oneRepMaxKilograms > (stats[id]?.oneRepMaxKilograms ?? 0) { seeded[id] = value.oneRepMaxKilograms }
                    stats[id] = value
                }
            } else {
                duplicates += 1
            }
        }
        return ImportSummary(
            source: parsed.source, imported: imported, duplicates: duplicates, mapped: mapped, unmapped: unmapped,
            skippedRows: Array(parsed.skipped.prefix(100)), seeded: seeded)
    }
}

extension StrengthService {
    /// The newest deliveries of the user's motivation webhook (for their settings page).
    public func webhookDeliveries(for user: UserRecord, limit: Int = 10) async throws -> [WebhookDeliveryRecord] {
        try await store.strength.webhookDeliveries(userID: user.id, limit: limit)
    }
}
