import Foundation
import HeartworkCore

public enum MatchKind: String, Sendable, Hashable, CaseIterable {
    /// Two friends, each with their own heart rate.
    case live
    /// A user against a stored workout, replayed second by second.
    case ghost
}

/// Where a side's heart rate came from (issue 23, fair matches): a strap's own bytes sent by
/// the page (`strap`), a strap one of the player's gateways hears (`gateway`), a number the
/// player chose (`practice`: the slider, allowed only in practice), a stored workout (`recording`,
/// the ghost).
public enum MatchReadingSource: String, Sendable, Hashable, CaseIterable {
    case strap, gateway, practice, recording

    /// The words a page shows.
    public var label: String {
        switch self {
        case .strap: "chest strap (this device)"
        case .gateway: "chest strap (gateway)"
        case .practice: "practice (slider)"
        case .recording: "recording"
        }
    }
}

/// Where a match is in its life. `invited` and `accepted` turn `expired` when their time
/// runs out (`MatchRecord.state(at:)`), without anyone writing it.
public enum MatchState: String, Sendable, Hashable, CaseIterable {
    case invited, accepted, declined, expired, running, finished

    public var isOver: Bool { self == .declined || self == .expired || self == .finished }
}

/// The zone anchors one side was scored with.
public struct MatchAnchors: Sendable, Hashable {
    public var restingHeartRate: Double
    public var maximumHeartRate: Double

    public init(restingHeartRate: Double, maximumHeartRate: Double) {
        self.restingHeartRate = restingHeartRate
        self.maximumHeartRate = maximumHeartRate
    }

    /// The zones these anchors make (nil if they make none).
    public var zoneProfile: ZoneProfile? {
        try? ZoneProfile(restingHeartRate: restingHeartRate, maximumHeartRate: maximumHeartRate)
    }
}

/// How a finished match came out, as stored.
public struct MatchResultRecord: Sendable, Hashable {
    public var scoreA: Int
    public var scoreB: Int
    /// "a", "b", or nil for a draw (or nobody, when both fell silent).
    public var winner: String?
    /// "time", "left", "silence".
    public var reason: String
    /// "a", "b" or "both": who forfeited (left or fell silent), if anyone.
    public var forfeitedBy: String?
    public var secondsPlayed: Int
    /// Seconds in each zone, none … red line.
    public var zonesA: [Int]
    public var zonesB: [Int]
    /// Each side's heart rate second by second as played (nil: no reading, or lost contact).
    public var heartRateA: [Int?]
    public var heartRateB: [Int?]
    /// Where each side's heart rate came from, in the order first used (empty: nothing came, or
    /// a match finished before sources were kept).
    public var sourcesA: [MatchReadingSource]
    public var sourcesB: [MatchReadingSource]
    /// Each side's seconds whose live heart rate a heart could not make (Core
    /// `HeartRatePlausibility`): they counted as lost contact.
    public var implausibleSecondsA: Int
    public var implausibleSecondsB: Int

    public init(
        scoreA: Int, scoreB: Int, winner: String?, reason: String, forfeitedBy: String?, secondsPlayed: Int, zonesA: [Int], zonesB: [Int],
        heartRateA: [Int?] = [], heartRateB: [Int?] = [], sourcesA: [MatchReadingSource] = [], sourcesB: [MatchReadingSource] = [],
        implausibleSecondsA: Int = 0, implausibleSecondsB: Int = 0
    ) {
        self.implausibleSecondsA = implausibleSecondsA
        self.implausibleSecondsB = implausibleSecondsB
        self.sourcesA = sourcesA
        self.sourcesB = sourcesB
        self.heartRateA = heartRateA
        self.heartRateB = heartRateB
        self.scoreA = scoreA
        self.scoreB = scoreB
        self.winner = winner
        self.reason = reason
        self.forfeitedBy = forfeitedBy
        self.secondsPlayed = secondsPlayed
        self.zonesA = zonesA
        self.zonesB = zonesB
    }
}

public struct MatchRecord: Sendable, Hashable {
    public var id: String
    public var kind: MatchKind
    /// Side a.
    public var challengerID: String
    /// Side b of a live match.
    public var opponentID: String?
    /// Side b of a ghost race, and whose workout it is.
    public var ghostWorkoutID: String?
    public var ghostOwnerID: String?
    public var durationSeconds: Int
    /// Created as practice: a side may play from the slider, and the result says "practice"
    /// everywhere. A ghost race is always practice (`isPractice`).
    public var practice: Bool
    public var state: MatchState
    public var createdAt: Date
    /// When an invitation (or an accepted match nobody started) lapses.
    public var expiresAt: Date
    public var startedAt: Date?
    public var endedAt: Date?
    public var anchorsA: MatchAnchors?
    public var anchorsB: MatchAnchors?
    public var result: MatchResultRecord?
    /// The workouts the players saved from the match.
    public var workoutA: String?
    public var workoutB: String?

    public init(
        id: String = UUID().uuidString.lowercased(), kind: MatchKind, challengerID: String, opponentID: String? = nil,
        ghostWorkoutID: String? = nil, ghostOwnerID: String? = nil, durationSeconds: Int, practice: Bool = false, state: MatchState,
        createdAt: Date, expiresAt: Date, startedAt: Date? = nil, endedAt: Date? = nil,
        anchorsA: MatchAnchors? = nil, anchorsB: MatchAnchors? = nil, result: MatchResultRecord? = nil,
        workoutA: String? = nil, workoutB: String? = nil
    ) {
        self.workoutA = workoutA
        self.workoutB = workoutB
        self.id = id
        self.kind = kind
        self.challengerID = challengerID
        self.opponentID = opponentID
        self.ghostWorkoutID = ghostWorkoutID
        self.ghostOwnerID = ghostOwnerID
        self.durationSeconds = durationSeconds
        self.practice = practice
        self.state = state
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.anchorsA = anchorsA
        self.anchorsB = anchorsB
        self.result = result
    }

    /// Whether the slider may play (practice, and every ghost race).
    public var isPractice: Bool { practice || kind == .ghost }

    /// The state as of `now`: an invitation or an unstarted match past its time has expired.
    public func state(at now: Date) -> MatchState {
        if (state == .invited || state == .accepted) && now >= expiresAt { return .expired }
        return state
    }

    /// "a" for the challenger, "b" for the invited friend, nil for anyone else.
    public func side(of userID: String) -> String? {
        if userID == challengerID { return "a" }
        if kind == .live, userID == opponentID { return "b" }
        return nil
    }
}
