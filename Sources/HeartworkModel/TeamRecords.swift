import Foundation
import HeartworkCore

/// Someone a coach straps a sensor on (FitLabTeam's "player"). Not an account: a coach's
/// record of an athlete, private to that coach.
public struct PlayerRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    /// FitLabTeam F3's Name and Surname (issue 25). The surname is empty only for a player
    /// made with one word before issue 25 (migration 028) or by an old API client's `name`.
    public var firstName: String
    public var surname: String
    /// Shirt or bib number, as the coach writes it ("7", "07", "GK1").
    public var number: String?
    public var birthDate: CalendarDay?
    public var sex: Sex?
    public var restingHeartRate: Int?
    public var maximumHeartRate: Int?
    public var weightKilograms: Double?
    public var teamID: String?
    /// The sensor the player wears by default (FitLabTeam `banda`).
    public var sensorID: String?
    public var createdAt: Date
    public var hasPhoto: Bool

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, firstName: String, surname: String, number: String? = nil,
        birthDate: CalendarDay? = nil, sex: Sex? = nil, restingHeartRate: Int? = nil, maximumHeartRate: Int? = nil, weightKilograms: Double? = nil,
        teamID: String? = nil, sensorID: String? = nil, createdAt: Date = Date(), hasPhoto: Bool = false
    ) {
        self.id = id
        self.userID = userID
        self.firstName = firstName
        self.surname = surname
        self.number = number
        self.birthDate = birthDate
        self.sex = sex
        self.restingHeartRate = restingHeartRate
        self.maximumHeartRate = maximumHeartRate
        self.weightKilograms = weightKilograms
        self.teamID = teamID
        self.sensorID = sensorID
        self.createdAt = createdAt
        self.hasPhoto = hasPhoto
    }

    /// A player named in one line, split at its last space (`PlayerName.split`).
    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, name: String, number: String? = nil, birthDate: CalendarDay? = nil,
        sex: Sex? = nil, restingHeartRate: Int? = nil, maximumHeartRate: Int? = nil, weightKilograms: Double? = nil,
        teamID: String? = nil, sensorID: String? = nil, createdAt: Date = Date(), hasPhoto: Bool = false
    ) {
        let parts = PlayerName.split(name)
        self.init(
            id: id, userID: userID, firstName: parts.firstName, surname: parts.surname, number: number, birthDate: birthDate, sex: sex,
            restingHeartRate: restingHeartRate, maximumHeartRate: maximumHeartRate, weightKilograms: weightKilograms, teamID: teamID,
            sensorID: sensorID, createdAt: createdAt, hasPhoto: hasPhoto)
    }

    /// "First Surname": the name the API's `name`, the export's `player` column and the
    /// review show. Setting it splits it at its last space.
    public var name: String {
        get { PlayerName.full(firstName: firstName, surname: surname) }
        set { (firstName, surname) = PlayerName.split(newValue) }
    }

    /// Up to two letters standing in for a missing photo.
    public var initials: String { PlayerName.initials(name) }

    public func physiology(on day: CalendarDay) -> PlayerPhysiology {
        PlayerPhysiology(
            restingHeartRate: restingHeartRate.map(Double.init), maximumHeartRate: maximumHeartRate.map(Double.init), sex: sex,
            ageYears: birthDate.map { $0.wholeYears(until: day) }, weightKilograms: weightKilograms)
    }
}

public struct TeamRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var name: String
    public var createdAt: Date
    /// The team's optional photo (FitLabTeam F4; migration 032), kept as a player's is.
    public var hasPhoto: Bool
    /// What stands in for a missing photo: the name's first letter.
    public var initial: String { String(name.prefix(1)).uppercased() }

    public init(id: String = UUID().uuidString.lowercased(), userID: String, name: String, createdAt: Date = Date(), hasPhoto: Bool = false) {
        self.id = id
        self.userID = userID
        self.name = name
        self.createdAt = createdAt
        self.hasPhoto = hasPhoto
    }
}

/// A team's saved sessions and those not reviewed yet (FitLabTeam F4: the team list shows "the
/// amount of sessions that each team has" and, Annex A, the "pending" ones).
public struct TeamSessionCounts: Sendable, Hashable {
    public var saved: Int
    public var unreviewed: Int

    public init(saved: Int = 0, unreviewed: Int = 0) {
        self.saved = saved
        self.unreviewed = unreviewed
    }
}

/// Where a team session is: recording (possibly still counting down to `startsAt`),
/// stopped (waiting for save or discard), or saved.
public enum TeamSessionState: String, Sendable, Hashable, CaseIterable {
    case recording, stopped, saved
}

/// A player in a session: the sensor worn this time (the player's own, or a per-session
/// override) and the facts the review needs, as they were when the session started.
public struct TeamSessionPlayer: Sendable, Hashable {
    public var playerID: String
    public var sensorID: String
    public var name: String
    public var number: String?
    public var physiology: PlayerPhysiology

    public init(playerID: String, sensorID: String, name: String, number: String?, physiology: PlayerPhysiology) {
        self.playerID = playerID
        self.sensorID = sensorID
        self.name = name
        self.number = number
        self.physiology = physiology
    }
}

public struct TeamSessionRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var teamID: String
    public var state: TeamSessionState
    /// When recording starts (after the countdown, if any).
    public var startsAt: Date
    /// Stops by itself after this long (FitLabTeam's duration picker); nil: until stopped.
    public var plannedSeconds: Int?
    public var endedAt: Date?
    public var reviewed: Bool
    public var exported: Bool
    public var createdAt: Date
    public var players: [TeamSessionPlayer]
    /// Time, moment, situation and state (FitLabTeam F8; issue 25).
    public var context: SessionContext
    /// The RR artifact correction its HRV uses, chosen per session: Kubios' (the default) or
    /// the seed's own FitLab corrector (issue 25, F11).
    public var correction: ArtifactCorrectionMethod

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, teamID: String, state: TeamSessionState = .recording, startsAt: Date,
        plannedSeconds: Int? = nil, endedAt: Date? = nil, reviewed: Bool = false, exported: Bool = false, createdAt: Date = Date(),
        players: [TeamSessionPlayer], context: SessionContext = SessionContext(), correction: ArtifactCorrectionMethod = .kubios
    ) {
        self.id = id
        self.userID = userID
        self.teamID = teamID
        self.state = state
        self.startsAt = startsAt
        self.plannedSeconds = plannedSeconds
        self.endedAt = endedAt
        self.reviewed = reviewed
        self.exported = exported
        self.createdAt = createdAt
        self.players = players
        self.context = context
        self.correction = correction
    }

    /// A session nobody stops ends by itself after 12 hours.
    public static let longestSeconds = 43_200

    /// When it ends or ended: stopped by hand, at the planned end, or 12 hours after the start.
    public func end(now: Date) -> Date? {
        let planned = startsAt.addingTimeInterval(TimeInterval(plannedSeconds ?? Self.longestSeconds))
        if let endedAt { return min(endedAt, planned) }
        return planned <= now ? planned : nil
    }

    /// Recording now: started (the countdown is over) and not ended (a planned end that has
    /// passed ends it, though nobody pressed stop).
    public func isRecording(now: Date) -> Bool { state == .recording && now >= startsAt && end(now: now) == nil }

    /// Still counting down to `startsAt`.
    public func isCountingDown(now: Date) -> Bool { state == .recording && now < startsAt }
}

/// Team sessions' fields a coach may change after the fact.
public struct TeamSessionChanges: Sendable {
    public var state: TeamSessionState?
    public var endedAt: Date?
    public var reviewed: Bool?
    public var exported: Bool?
    /// The whole context, replaced (issue 25).
    public var context: SessionContext?
    public var correction: ArtifactCorrectionMethod?

    public init(
        state: TeamSessionState? = nil, endedAt: Date? = nil, reviewed: Bool? = nil, exported: Bool? = nil, context: SessionContext? = nil,
        correction: ArtifactCorrectionMethod? = nil
    ) {
        self.state = state
        self.endedAt = endedAt
        self.reviewed = reviewed
        self.exported = exported
        self.context = context
        self.correction = correction
    }
}
