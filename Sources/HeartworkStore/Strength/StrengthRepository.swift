import Foundation
import HeartworkCore

public protocol StrengthRepository: Sendable {
    func settings(userID: String) async throws -> StrengthSettingsRecord?
    func saveSettings(_ settings: StrengthSettingsRecord) async throws

    /// The user's routines in their order.
    func routines(userID: String) async throws -> [UserRoutineRecord]
    /// Throws `StoreError.conflict` when the user has a routine of that name.
    /// At most `limit` routines a user (`StoreError.limitReached`), counted in the same transaction.
    func addRoutine(_ routine: UserRoutineRecord, limit: Int) async throws
    /// False when it is not the user's.
    func updateRoutine(_ routine: UserRoutineRecord) async throws -> Bool
    func deleteRoutine(id: String, userID: String) async throws -> Bool
    /// Sets the order: `ids` in the order wanted (the user's routines, each once).
    func reorderRoutines(userID: String, ids: [String], at: Date) async throws

    /// The user's own exercises, by name.
    func customExercises(userID: String) async throws -> [CustomExerciseRecord]
    /// Throws `StoreError.conflict` when the user has an exercise that reads the same
    /// (`nameKey`, given with it).
    /// At most `limit` exercises a user (`StoreError.limitReached`), counted in the same transaction.
    func addCustomExercise(_ exercise: CustomExerciseRecord, nameKey: String, limit: Int) async throws

    func stats(userID: String) async throws -> [String: ExerciseStatsRecord]
    /// Back to the cold start (seed-002 §2.5 "Reset").
    func resetStats(userID: String, exerciseID: String, at: Date) async throws
    func saveStats(userID: String, _ stats: [String: ExerciseStats], at: Date) async throws

    func createSession(_ session: StrengthSessionRecord, sets: [StrengthSetRecord]) async throws
    func session(id: String, userID: String) async throws -> (session: StrengthSessionRecord, sets: [StrengthSetRecord])?
    /// Deletes the user's session with its sets and baselines; false when it is not theirs
    /// (or not there). Exercise statistics it raised are left as they are.
    func deleteSession(id: String, userID: String) async throws -> Bool
    /// Newest first; `from`/`to` bound the start time.
    func sessions(userID: String, from: Date?, to: Date?, limit: Int, offset: Int) async throws -> [StrengthSessionRecord]
    /// Changes one set in a transaction, the row locked while `change` runs (two taps at once
    /// must not undo each other); nil when the session has no such set.
    func modifySet(sessionID: String, position: Int, _ change: @escaping @Sendable (inout StrengthSetRecord) throws -> Void) async throws -> StrengthSetRecord?
    /// Stores the finished session, the new statistics and what they were before (the
    /// baselines) in one transaction, only if it is still unfinished; false if it was finished
    /// meanwhile.
    func finish(_ session: StrengthSessionRecord, stats: [String: ExerciseStats], baselines: [String: ExerciseStats], at: Date) async throws -> Bool
    /// Each exercise's statistics as they were when the session was finished.
    func baselines(sessionID: String) async throws -> [String: ExerciseStats]
    /// Whether anything changed the exercise's statistics after `date` other than this session:
    /// a reset, or another finished or imported session with it.
    func changedSince(userID: String, exerciseID: String, date: Date, excluding sessionID: String) async throws -> Bool
    /// Stores new totals of a finished session (after an edit within the window).
    func updateTotals(_ session: StrengthSessionRecord) async throws
    /// Stores an imported session with its statistics; false when the same import key is stored.
    func importSession(_ session: StrengthSessionRecord, sets: [StrengthSetRecord], stats: [String: ExerciseStats], at: Date) async throws -> Bool
    /// The id of the user's session stored under an import key (nil: none is).
    func importedSessionID(userID: String, importKey: String) async throws -> String?
    /// The sets of one exercise in the user's finished sessions, oldest first.
    func exerciseHistory(userID: String, exerciseID: String, limit: Int) async throws -> [(session: StrengthSessionRecord, sets: [StrengthSetRecord])]
    /// The exercises of sessions started since `since` (for the routine suggestion).
    func exercisesTrained(userID: String, since: Date) async throws -> [(startedAt: Date, exerciseID: String)]
    /// When each routine was last started.
    func lastStarted(userID: String) async throws -> [String: Date]

    /// Stores a delivery and its job in one transaction: both or neither.
    func enqueueWebhook(_ delivery: WebhookDeliveryRecord, job: JobRecord) async throws
    func webhookDelivery(id: String) async throws -> WebhookDeliveryRecord?
    func recordWebhookAttempt(_ delivery: WebhookDeliveryRecord) async throws
    func webhookDeliveries(userID: String, limit: Int) async throws -> [WebhookDeliveryRecord]
}
