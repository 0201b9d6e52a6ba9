import HeartworkCore

/// A player's form fields as text: as saved, or as typed when the form comes back.
struct PlayerFields: Sendable {
    let firstName: String
    let surname: String
    let number: String
    let birthDate: String
    let sex: String
    let restingHeartRate: String
    let maximumHeartRate: String
    let weightKilograms: String
    let teamID: String
    let sensorID: String
}

/// The four lines of a session's context (FitLabTeam F8) as select options, the current value
/// selected; the first option of each is "not said" (value "").
struct SessionContextChoices: Sendable {
    struct Choice: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    let times: [Choice]
    let moments: [Choice]
    let situations: [Choice]
    let states: [Choice]
    let noTime: Bool
    let noMoment: Bool
    let noSituation: Bool
    let noState: Bool

    init(_ context: SessionContext) {
        times = SessionContext.Time.allCases.map { Choice(value: $0.rawValue, label: $0.label, selected: $0 == context.time) }
        moments = SessionContext.Moment.allCases.map { Choice(value: $0.rawValue, label: $0.rawValue, selected: $0 == context.moment) }
        situations = SessionContext.Situation.allCases.map { Choice(value: $0.rawValue, label: $0.rawValue, selected: $0 == context.situation) }
        states = SessionContext.State.allCases.map { Choice(value: $0.rawValue, label: $0.rawValue, selected: $0 == context.state) }
        noTime = context.time == nil
        noMoment = context.moment == nil
        noSituation = context.situation == nil
        noState = context.state == nil
    }
}

/// teams.mustache: teams, players, sensors and gateways.
struct TeamsPage: Sendable {
    struct Team: Sendable {
        let id: String
        let name: String
        let playerCount: Int
        let hasPhoto: Bool
        let initial: String
        /// Saved sessions not reviewed yet (F4's "pending"; `summary` counts the saved ones).
        let unreviewedCount: Int
        let hasUnreviewed: Bool
        /// "12 players · 3 sessions".
        let summary: String
    }

    struct Player: Sendable {
        let id: String
        let name: String
        let firstName: String
        /// "—" when not given (a one-word name from before issue 25).
        let surname: String
        let number: String
        let sensor: String
    }

    /// The players of one team, or of none (FitLabTeam F3's "sort by team").
    struct PlayerGroup: Sendable {
        let heading: String
        /// The team's page; nil for the players in no team.
        let teamURL: String?
        /// "1 player", "12 players".
        let count: String
        let players: [Player]
    }

    struct Sensor: Sendable {
        let id: String
        let address: String
        let name: String
        let battery: String
        let lastSeen: String
        let bpm: String
        let wornBy: String
        /// Heard in the last 10 s.
        let connected: Bool
        /// The delete form came back without a choice (nil: it did not).
        let readingsError: String?
    }

    struct Gateway: Sendable {
        let id: String
        let name: String
        let lastSeen: String
    }

    struct Option: Sendable {
        let id: String
        let name: String
        /// Chosen in the add-player form that came back.
        var selected = false
    }

    struct TeamForm: Sendable {
        let name: String
    }

    /// A gateway just created: its token, shown this once.
    struct NewGateway: Sendable {
        let name: String
        let token: String
    }

    let teams: [Team]
    let hasTeams: Bool
    let playerGroups: [PlayerGroup]
    let hasPlayers: Bool
    let sensors: [Sensor]
    let hasSensors: Bool
    let gateways: [Gateway]
    let hasGateways: Bool
    var teamOptions: [Option]
    var sensorOptions: [Option]
    let serverURL: String
    /// A form that came back, as typed; a new gateway's token.
    var teamForm: TeamForm?
    var playerForm: PlayerFields?
    var newGateway: NewGateway?
}

/// team.mustache: a team's players, their sensors, and its sessions.
struct TeamPage: Sendable {
    struct Member: Sendable {
        struct SensorOption: Sendable {
            let id: String
            let name: String
            let selected: Bool
            let taken: Bool
            let takenBy: String
        }

        let id: String
        let name: String
        /// Nil without one (an empty string would still open the template's section).
        let number: String?
        let hasPhoto: Bool
        let initial: String
        let sensorOptions: [SensorOption]
        let noSensor: Bool
    }

    struct Candidate: Sendable {
        let id: String
        let name: String
    }

    struct Session: Sendable {
        let id: String
        let when: String
        let players: Int
        let state: String
        let open: Bool
        let reviewed: Bool
        let exported: Bool
        /// "2 h · After · Training · Seated", or "—".
        let context: String
    }

    let id: String
    let teamID: String
    let name: String
    let members: [Member]
    let hasMembers: Bool
    /// The team's photo (F4) and the rename form's value (as typed, when it came back).
    var hasPhoto = false
    var initial = ""
    var nameValue = ""
    let candidates: [Candidate]
    let hasCandidates: Bool
    let sessions: [Session]
    let hasSessions: Bool
    let pending: Int
    let hasPending: Bool
    /// The session list's filter, as chosen.
    let filter: SessionContextChoices
    /// A filter is on; `filteredOut` sessions of the team do not match it.
    let filtering: Bool
    let filteredOut: Int
    /// The team has sessions, none of which matches the filter.
    let noneMatch: Bool
    /// The team has sessions (the filter is offered).
    let anySessions: Bool
}

/// coach.mustache: the coach's big screen.
struct CoachPage: Sendable {
    struct Tile: Sendable {
        let sensorID: String
        let name: String
        let number: String
        let initial: String
        let hasPhoto: Bool
        let playerID: String
    }

    struct Session: Sendable {
        let id: String
        let recording: Bool
        let countingDown: Bool
        let stopped: Bool
        let startsAt: Int64
        let plannedEndAt: Int64
    }

    let teamID: String
    let teamName: String
    let tileCount: Int
    let noTiles: Bool
    let tiles: [Tile]
    let withoutSensor: String
    let hasWithoutSensor: Bool
    /// The start form's context choices (nothing chosen yet).
    let context: SessionContextChoices
    /// A session recording, counting down or stopped and not yet saved.
    var session: Session?
    /// Before a start: who takes part, and the sensor each wears (CoachPicker.swift).
    var picker: Picker?
}

/// player.mustache: a player's form.
struct PlayerPage: Sendable {
    struct Option: Sendable {
        let id: String
        let name: String
        let selected: Bool
    }

    let id: String
    let name: String
    let hasPhoto: Bool
    let initial: String
    /// Stored without a surname (migration 028 split a one-word name): the page says so.
    let noSurname: Bool
    let form: PlayerFields
    let isFemale: Bool
    let isMale: Bool
    let noSex: Bool
    let teamOptions: [Option]
    let noTeam: Bool
    let sensorOptions: [Option]
    let noSensor: Bool
    let backURL: String
    let backName: String
}

/// team-session.mustache: a team session's review.
struct TeamSessionReviewPage: Sendable {
    struct TeamRow: Sendable {
        let swatch: String
        let anchor: String
        let name: String
        let number: String
        /// The player's photo (nil: none, or the player was deleted since) and its stand-in.
        let photoURL: String?
        let initials: String
        let average: String
        let maximum: String
        let trimp: String
        let calories: String
        let rmssd: String
        let zoneBar: String
    }

    struct Player: Sendable {
        struct HRV: Sendable {
            let beats: Int
            let rmssd: String
            let sdnn: String
            let sdsd: String
            let pnn50: String
            let meanNN: String
            let corrected: String
            let reliable: Bool
            /// The correction's name ("Kubios (…)").
            let method: String
            /// The seed's conventions (SDNN and SDSD ÷ N, pNN50 as a fraction).
            let seedSDNN: String
            let seedSDSD: String
            let seedRMSSD: String
            let seedPNN50: String
        }

        struct Window: Sendable {
            let from: String
            let beats: Int
            let rmssd: String
            let sdnn: String
            let meanHR: String
        }

        let anchor: String
        let name: String
        let number: String
        let photoURL: String?
        let initials: String
        let readings: Int
        let heard: String
        let average: String
        let maximum: String
        let trimp: String
        let calories: String
        let notes: [String]
        let hasNotes: Bool
        let hasReadings: Bool
        /// With readings.
        var chart: String?
        var zonesChart: String?
        /// With beat-to-beat intervals.
        var hrv: HRV?
        var windows: [Window]?
        var hasWindows: Bool?
    }

    struct LegendEntry: Sendable {
        let name: String
        let color: String
    }

    let id: String
    let teamID: String
    let teamName: String
    let when: String
    /// The context in words ("2 h · After · Training · Seated"), or "Not said".
    let contextSummary: String
    let context: SessionContextChoices
    /// The artifact correction used, in words, and the choice.
    let correctionName: String
    let fitlab: Bool
    let duration: String
    let playerCount: Int
    let saved: Bool
    let open: Bool
    let recording: Bool
    let reviewed: Bool
    let exported: Bool
    let teamRows: [TeamRow]
    /// Nil when no player has a reading.
    let teamChart: String?
    let players: [Player]
    let legend: [LegendEntry]
}
