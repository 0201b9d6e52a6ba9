import Foundation
import HeartworkCore

/// Daily health's results and inputs besides the samples: the computed days (JSON of
/// `DailySummary`), the user's marks, the imports.
public protocol DailyRepository: Sendable {
    func putDay(userID: String, _ summary: DailySummary, now: Date) async throws
    func day(userID: String, _ day: CalendarDay) async throws -> DailySummary?
    /// Stored days in `from...through`, oldest first.
    func days(userID: String, from: CalendarDay, through: CalendarDay) async throws -> [DailySummary]
    func marks(userID: String, from: CalendarDay, through: CalendarDay) async throws -> [DayMarkRecord]
    func putMark(userID: String, _ mark: DayMarkRecord) async throws
    /// The bed and wake times the user set (seed 004's "Time Slept"), by the day whose night
    /// they are, for days in `from...through`.
    func manualSleep(userID: String, from: CalendarDay, through: CalendarDay) async throws -> [CalendarDay: ManualSleep]
    /// Sets a night's bed and wake time, or clears them with nil (the day's rating and mark
    /// stay); false when clearing a night that had none.
    @discardableResult
    func putManualSleep(userID: String, day: CalendarDay, _ sleep: ManualSleep?, now: Date) async throws -> Bool
    /// Users with days stored by formulas older than `formula`, each with the first such day.
    func outdatedDays(formula: Int) async throws -> [(userID: String, from: CalendarDay)]
    /// The first and last day with health samples or computed metrics (nil when none).
    func dataRange(userID: String) async throws -> (first: CalendarDay, last: CalendarDay)?

    /// The user's settings, or the defaults.
    func settings(userID: String) async throws -> HealthSettingsRecord
    func putSettings(userID: String, _ settings: HealthSettingsRecord) async throws
    /// Records that an alert was given; false when it already was (so it is given once).
    func claimAlert(userID: String, key: String, now: Date) async throws -> Bool
    /// Users with health samples on or after `since` (the inactivity check's candidates).
    func usersWithSamples(since: CalendarDay) async throws -> [String]

    /// Admits a new upload (stored as `receiving`) unless the user already has
    /// `maximumOpen` imports receiving, queued or running — counted and inserted in one
    /// transaction that holds the user's row, so concurrent uploads cannot all pass. Throws
    /// `StoreError.notFound` when the user no longer exists.
    func admitImport(_ record: HealthImportRecord, maximumOpen: Int) async throws -> ImportAdmission
    /// The upload arrived whole: the import becomes `queued` with its job, in one transaction.
    /// False when the import is gone (its account was deleted meanwhile).
    func queueImport(id: String, bytesTotal: Int64, job: JobRecord, now: Date) async throws -> Bool
    /// Writes an import's progress; false when its row is gone (the account was deleted).
    @discardableResult
    func updateImport(_ record: HealthImportRecord) async throws -> Bool
    /// Deletes an import (an upload that did not arrive whole).
    func deleteImport(id: String) async throws
    /// Uploads that stopped arriving (their process died): marked failed; their files.
    func failStaleUploads(updatedBefore: Date, now: Date) async throws -> [String]
    /// The files of imports still receiving, queued or running (the rest may be removed).
    func openImportFiles() async throws -> Set<String>
    /// The files of a user's imports (removed with the account).
    func importFiles(userID: String) async throws -> [String]
    func findImport(id: String, userID: String) async throws -> HealthImportRecord?
    func findImport(id: String) async throws -> HealthImportRecord?
    func imports(userID: String, limit: Int) async throws -> [HealthImportRecord]
}

/// The answer to an upload asking for an import place.
public enum ImportAdmission: Sendable, Hashable {
    case admitted
    /// The user has this many imports open already.
    case refused(open: Int)
}
