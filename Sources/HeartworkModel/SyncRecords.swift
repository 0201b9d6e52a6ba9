import Foundation

/// A user's sync token: what a phone app (Health Auto Export) sends as `Authorization: Bearer`.
/// Good for the sync routes alone; stored as its SHA-256.
public struct SyncTokenRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var name: String
    public var tokenHash: String
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, name: String, tokenHash: String, createdAt: Date, lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.name = name
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// One sync that arrived: when, through which token, from which app, and what it changed.
public struct SyncArrivalRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var tokenName: String
    /// "Health Auto Export".
    public var source: String
    public var receivedAt: Date
    public var samplesAdded: Int
    public var samplesAlready: Int
    public var workoutsAdded: Int
    public var leftOut: Int
    /// The newest instant a sample of the sync covers (how fresh the data is).
    public var newestSampleAt: Date?

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, tokenName: String, source: String, receivedAt: Date, samplesAdded: Int,
        samplesAlready: Int, workoutsAdded: Int, leftOut: Int, newestSampleAt: Date?
    ) {
        self.id = id
        self.userID = userID
        self.tokenName = tokenName
        self.source = source
        self.receivedAt = receivedAt
        self.samplesAdded = samplesAdded
        self.samplesAlready = samplesAlready
        self.workoutsAdded = workoutsAdded
        self.leftOut = leftOut
        self.newestSampleAt = newestSampleAt
    }
}
