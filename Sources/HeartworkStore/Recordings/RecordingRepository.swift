import Foundation

/// Live recordings (issue 23) and their chunks. Every call names the owner: another user's
/// recording is as absent as one that never existed.
public protocol RecordingRepository: Sendable {
    /// Stores a new recording; false (and nothing changed) when that id exists already,
    /// whoever owns it.
    func create(_ recording: RecordingRecord) async throws -> Bool
    /// Who owns the recording with that id, if it exists.
    func ownerID(of id: String) async throws -> String?
    /// The recording with its chunk and sample counts, when `userID` owns it.
    func find(id: String, userID: String) async throws -> RecordingRecord?
    /// The owner's recordings not finished yet, newest first (at most `limit`).
    func unfinished(userID: String, limit: Int) async throws -> [RecordingRecord]
    /// Stores chunk `number` unless that number is stored already (then compares the body).
    /// The recording must exist and be unfinished: the caller checks.
    func storeChunk(recordingID: String, _ chunk: RecordingChunkRecord, now: Date) async throws -> RecordingChunkOutcome
    /// Every chunk, in number order.
    func chunks(recordingID: String) async throws -> [RecordingChunkRecord]
    /// Marks it finished as `workoutID`; false when it was finished already (by someone else).
    func finish(id: String, workoutID: String, endedAt: Date, pausedSeconds: Int) async throws -> Bool
    /// Deletes it with its chunks; false when `userID` has no such recording.
    func delete(id: String, userID: String) async throws -> Bool
}
