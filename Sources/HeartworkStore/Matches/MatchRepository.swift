import Foundation

/// Matches. Reads are by participant: a match is found only for its two players (and, for
/// a ghost race, the owner of the workout raced, who may read the result).
public protocol MatchRepository: Sendable {
    func create(_ match: MatchRecord) async throws
    /// Stores an invitation unless its challenger has `bySender` open invitations (sent, not
    /// answered, not lapsed at `now`) or its opponent `toReceiver` — counted in the same
    /// transaction as the insert. Throws `StoreError.limitReached` with the limit reached.
    func invite(_ match: MatchRecord, bySender: Int, toReceiver: Int, now: Date) async throws
    func find(id: String) async throws -> MatchRecord?
    /// The user's matches (either side, or their workout as the ghost), newest first.
    func list(userID: String, limit: Int, offset: Int) async throws -> [MatchRecord]
    /// Moves a match from one of `from` to `to` (with the given fields); false when it was
    /// not in one of those states any more (someone else moved it first).
    func transition(
        id: String, from: [MatchState], to: MatchState, expiresAt: Date?, startedAt: Date?,
        anchorsA: MatchAnchors?, anchorsB: MatchAnchors?
    ) async throws -> Bool
    /// Stores the result of a running match (only once).
    func finish(id: String, result: MatchResultRecord, at: Date) async throws -> Bool
    /// Makes `instance` the host of the match's room when nobody is, the lease has run out, or
    /// it already is (renewing the lease to `until`); returns the host after.
    func claimHost(id: String, instance: String, until: Date, now: Date) async throws -> String?
    /// Gives the room up (when it closes), if `instance` still hosts it.
    func releaseHost(id: String, instance: String) async throws
    /// Records the workout a side saved; false when that side already saved one.
    func setWorkout(id: String, side: String, workoutID: String) async throws -> Bool
    /// The match a workout was saved from.
    func find(workoutID: String) async throws -> MatchRecord?
    /// A match that was running when its server stopped: finished without a winner
    /// (reason "interrupted"). False when it was not running.
    func abandonRunning(id: String, at: Date) async throws -> Bool
}
