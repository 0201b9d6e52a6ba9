import Foundation

/// Live recordings (issue 23) and their chunks. Every call names the owner: another user's
/// recording is as absent as one that never existed.
public protocol RecordingRepository: Sendable {
    /// Stores a new recording; false (and nothing changed) when that id exists already,
    /// whoever owns it.
    /// whoever owns it. The owner may have at most `unfinishedLimit` unfinished recordings
    /// (`StoreError.limitReached`), counted in the same transaction.
    func create(_ recording: RecordingRecord, unfinishedLimit: Int) async throws -> Bool
    /// Who owns the recording with that id, if it exists.
    func ownerID(of id: String) async throws -> String?
    /// The recording with its chunk and sample counts, when `userID` owns it.
    func find(id: String, userID: String) async throws -> RecordingRecord?
    /// The owner's recordings not finished yet, newest first (at most `limit`).
    func unfinished(userID: String, limit: Int) async throws -> [RecordingRecord]
    /// Stores chunk `number` unless that number is stored already (then compares the body),
    /// the recording is finished or being finished (`close`), or the chunk would take it past
    /// `sampleLimit` samples — all checked under the recording's row lock, in the transaction
    /// that inserts, so what is answered "stored" is what a finish reads.
    func storeChunk(recordingID: String, _ chunk: RecordingChunkRecord, sampleLimit: Int, now: Date) async throws -> RecordingChunkOutcome
    /// Marks an unfinished recording as being finished: from its commit no new chunk is
    /// taken (a chunk stored before it is read by the finish). False when it is finished.
    func close(id: String, at: Date) async throws -> Bool
    /// Takes chunks again after a finish that made no workout (nothing to make, an error).
    func reopen(id: String) async throws
    /// Every chunk, in number order.
    func chunks(recordingID: String) async throws -> [RecordingChunkRecord]
    /// Marks it finished as `workoutID`; false when it was finished already (by someone else).
    func finish(id: String, workoutID: String, endedAt: Date, pausedSeconds: Int) async throws -> Bool
    /// Deletes it with its chunks; false when `userID` has no such recording.
    func delete(id: String, userID: String) async throws -> Bool
}
