import Foundation
import HeartworkCore

/// What a coach enters about a player. Each field is validated the same way from the API,
/// the web form and the demo; `nil` in a `FieldUpdate` clears an optional fact.
public struct PlayerInput: Sendable {
    /// The whole name in one line, as clients before issue 25 send it: split at its last space
    /// (`PlayerName.split`). Not together with `firstName` or `surname`.
    public var name: String?
    /// FitLabTeam F3's Name and Surname: a new player given either needs both, non-empty.
    public var firstName: String?
    public var surname: String?
    public var number: FieldUpdate<String>?
    public var birthDate: FieldUpdate<CalendarDay>?
    public var sex: FieldUpdate<Sex>?
    public var restingHeartRate: FieldUpdate<Int>?
    public var maximumHeartRate: FieldUpdate<Int>?
    public var weightKilograms: FieldUpdate<Double>?
    /// The team the player is in (`.clear` takes them out of it).
    public var teamID: FieldUpdate<String>?
    /// The sensor the player wears by default.
    public var sensorID: FieldUpdate<String>?

    public init(
        name: String? = nil, number: FieldUpdate<String>? = nil, birthDate: FieldUpdate<CalendarDay>? = nil, sex: FieldUpdate<Sex>? = nil,
        restingHeartRate: FieldUpdate<Int>? = nil, maximumHeartRate: FieldUpdate<Int>? = nil, weightKilograms: FieldUpdate<Double>? = nil,
        teamID: FieldUpdate<String>? = nil, sensorID: FieldUpdate<String>? = nil, firstName: String? = nil, surname: String? = nil
    ) {
        self.name = name
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
    }
}
