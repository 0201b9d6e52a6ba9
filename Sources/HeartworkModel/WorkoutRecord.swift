import Foundation
import HeartworkCore

/// A stored workout without its streams: what lists show, and what was derived.
public struct WorkoutRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var sport: Sport
    public var startedAt: Date
    public var indoor: Bool
    public var metrics: WorkoutMetrics
    /// The owner's profile when the workout was recorded.
    public var profile: ProfileSnapshot
    public var rrCount: Int
    public var trackCount: Int
    public var shared: Bool
    public var sharedAt: Date?
    public var createdAt: Date
    /// The recording device as its file named it; nil when unknown.
    public var device: String?
    /// The workout's own name, as its file gave it ("Zwift Session"); nil when none.
    public var title: String?
    /// What was left out or cut on the way in (artifacts, a cut file), to show with it.
    public var notes: [WorkoutNote]

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, sport: Sport, startedAt: Date, indoor: Bool,
        metrics: WorkoutMetrics, profile: ProfileSnapshot, rrCount: Int, trackCount: Int,
        shared: Bool = false, sharedAt: Date? = nil, createdAt: Date = Date(), device: String? = nil, title: String? = nil, notes: [WorkoutNote] = []
    ) {
        self.title = title
        self.notes = notes
        self.id = id
        self.userID = userID
        self.sport = sport
        self.startedAt = startedAt
        self.indoor = indoor
        self.metrics = metrics
        self.profile = profile
        self.rrCount = rrCount
        self.trackCount = trackCount
        self.shared = shared
        self.sharedAt = sharedAt
        self.createdAt = createdAt
        self.device = device
    }
}
