import Foundation
import HeartworkCore

/// A workout being recorded live on `/record` (issue 23): created by the browser under an id
/// it generated, filled chunk by chunk, and finished into a workout.
public struct RecordingRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var sport: Sport
    public var indoor: Bool
    public var startedAt: Date
    public var createdAt: Date
    /// When the last chunk arrived (the creation time before the first).
    public var updatedAt: Date
    /// How many chunks are stored, and how many samples they hold together.
    public var chunkCount: Int
    public var sampleCount: Int
    /// Set once finished: the workout it became.
    public var workoutID: String?
    public var endedAt: Date?
    public var pausedSeconds: Int?

    public init(
        id: String, userID: String, sport: Sport, indoor: Bool, startedAt: Date, createdAt: Date, updatedAt: Date, chunkCount: Int = 0, sampleCount: Int = 0,
        workoutID: String? = nil, endedAt: Date? = nil, pausedSeconds: Int? = nil
    ) {
        self.id = id
        self.userID = userID
        self.sport = sport
        self.indoor = indoor
        self.startedAt = startedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.chunkCount = chunkCount
        self.sampleCount = sampleCount
        self.workoutID = workoutID
        self.endedAt = endedAt
        self.pausedSeconds = pausedSeconds
    }
}

/// One stored chunk of a recording: its number and its content in canonical form.
public struct RecordingChunkRecord: Sendable, Hashable {
    public var number: Int
    public var body: String
    public var sampleCount: Int

    public init(number: Int, body: String, sampleCount: Int) {
        self.number = number
        self.body = body
        self.sampleCount = sampleCount
    }
}

/// What storing a chunk did.
public enum RecordingChunkOutcome: Sendable, Hashable {
    /// Stored now.
    case stored
    /// That number was already stored with the same content: nothing changed.
    case alreadyStored
    /// That number was already stored with other content: nothing changed.
    case different
    /// The recording was finished meanwhile: nothing changed.
    case finished
    /// A finish of the recording has begun: the chunk is not taken (it would not be in the workout).
    case closing
    /// The chunk would take the recording past its samples (the limit): nothing changed.
    case tooManySamples
}
