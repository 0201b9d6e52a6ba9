import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// A coach's players and teams (FitLabTeam F3–F5): a player is in at most one team; within a
/// team a sensor is worn by at most one player, and the same sensor may be worn in another
/// team. Everything is private to the coach who created it.
public struct TeamService: Sendable {
    let store: HeartworkStore
    public static let nameLength = 1...80
    public static let numberLength = 0...10
    public static let weightKilograms: ClosedRange<Double> = 20...300
    public static let maximumPlayers = 1000
    public static let maximumTeams = 100
    public static let maximumPhotoBytes = 5 * 1024 * 1024

    // MARK: Players

    public func createPlayer(_ input: PlayerInput, for user: UserRecord, now: Date = Date()) async throws -> PlayerRecord {
        var player = PlayerRecord(userID: user.id, firstName: "", surname: "", createdAt: now)
        try await apply(input, to: &player, user: user, now: now, creating: true)
        do {
            try await store.teams.createPlayer(player, limit: Self.maximumPlayers)
        } catch StoreError.conflict(let detail) {
            throw AppError.conflict(detail, field: "sensorID")
        } catch StoreError.limitReached {
            throw AppError.conflict("you have \(Self.maximumPlayers) players, the most one account may have")
        } catch StoreError.notFound {
            throw AppError.notSignedIn
        }
        return player
    }

    public func players(of user: UserRecord) async throws -> [PlayerRecord] {
        try await store.teams.players(userID: user.id)
    }

    public func player(_ id: String, of user: UserRecord) async throws -> PlayerRecord {
        guard let player = try await store.teams.player(id: id, userID: user.id) else { throw AppError.notFound("player") }
        return player
    }

    public func updatePlayer(_ id: String, _ input: PlayerInput, of user: UserRecord, now: Date = Date()) async throws -> PlayerRecord {
        var player = try await player(id, of: user)
        try await apply(input, to: &player, user: user, now: now, creating: false)
        do {
            try await store.teams.updatePlayer(player)
        } catch StoreError.conflict(let detail) {
            throw AppError.conflict(detail, field: "sensorID")
        }
        return try await self.player(id, of: user)
    }

    public func deletePlayer(_ id: String, of user: UserRecord) async throws {
        guard try await store.teams.deletePlayer(id: id, userID: user.id) else { throw AppError.notFound("player") }
    }

    public func setPhoto(_ id: String, of user: UserRecord, bytes: [UInt8]) async throws {
        let player = try await player(id, of: user)
        let photo = try await PhotoRules.stored(bytes, of: "a player's")
        try await store.teams.setPlayerPhoto(playerID: player.id, contentType: photo.contentType, data: Data(photo.data))
    }

    public func photo(_ id: String, of user: UserRecord) async throws -> (contentType: String, data: Data) {
        guard let photo = try await store.teams.playerPhoto(playerID: id, userID: user.id) else { throw AppError.notFound("photo") }
        return photo
    }

    /// The mistakes in `input`'s own fields, each with its field (none: it may be applied);
    /// `creating`: a new player's, whose first name and surname must be there.
    public func mistakes(in input: PlayerInput, creating: Bool = false, now: Date = Date()) -> [AppError.FieldError] {
        var player = PlayerRecord(userID: "", firstName: "", surname: "", createdAt: now)
        do {
            try Self.validate(input, into: &player, now: now, creating: creating)
            return []
        } catch {
            return error.allFieldErrors
        }
    }

    /// Checks every field of `input` (all mistakes at once), then the team and sensor it
    /// names (they must be the coach's own), and applies it.
    private func apply(_ input: PlayerInput, to player: inout PlayerRecord, user: UserRecord, now: Date, creating: Bool) async throws {
        try Self.validate(input, into: &player, now: now, creating: creating)
        if let team = input.teamID {
            if let id = team.value {
                guard try await store.teams.team(id: id, userID: user.id) != nil else {
                    throw AppError.invalid("no team \(id) of yours", field: "teamID")
                }
            }
            player.teamID = team.value
        }
        if let sensor = input.sensorID {
            if let id = sensor.value {
                guard try await store.sensors.find(id: id, userID: user.id) != nil else {
                    throw AppError.invalid("no sensor \(id) of yours: a sensor appears once one of your gateways hears it", field: "sensorID")
                }
            }
            player.sensorID = sensor.value
        }
    }

    /// FitLabTeam F3 (issue 25): `firstName` and `surname`, each non-empty, and a new player
    /// given either needs both; a client that sends only `name` (before issue 25) still works,
    /// the name split at its last space (a single word: no surname).
    private static func validate(_ input: PlayerInput, into player: inout PlayerRecord, now: Date, creating: Bool) throws(AppError) {
        var validation = Validation()
        let inParts = input.firstName != nil || input.surname != nil
        if inParts, input.name != nil {
            validation.check { () throws(AppError) in
                throw AppError.invalid("send a player's name either as firstName and surname or as name, not both", field: "name")
            }
        } else if inParts || (creating && input.name == nil) {
            if let text = input.firstName {
                if let checked = validation.check({ () throws(AppError) in try Self.namePart(text, field: "firstName", what: "first name") }) {
                    player.firstName = checked
                }
            } else if creating {
                validation.check { () throws(AppError) in throw AppError.invalid("a player needs a first name", field: "firstName") }
            }
            if let text = input.surname {
                if let checked = validation.check({ () throws(AppError) in try Self.namePart(text, field: "surname", what: "surname") }) {
                    player.surname = checked
                }
            } else if creating {
                validation.check { () throws(AppError) in throw AppError.invalid(Self.surnameNeeded, field: "surname") }
            }
        } else if let name = input.name, !(player.name == name.trimmingCharacters(in: .whitespaces) && !creating) {
            // An older client sending back the name it read ("Ana de la Cruz") leaves the parts
            // as they are; only a changed name is split again (at its last space).
            if let name = validation.check({ () throws(AppError) in try TextRules.line(name, field: "name", what: "a player's name", length: Self.nameLength) }) {
                player.name = name
            }
        }
        if let number = input.number {
            if let text = number.value {
                if let checked = validation.check({ () throws(AppError) in
                    try TextRules.line(text, field: "number", what: "a player's number", length: Self.numberLength)
                }) {
                    player.number = checked.isEmpty ? nil : checked
                }
            } else {
                player.number = nil
            }
        }
        if let birthDate = input.birthDate {
            if let day = birthDate.value {
                let age = day.wholeYears(until: CalendarDay(now))
                validation.check { () throws(AppError) in
                    guard day < CalendarDay(now), (5...100).contains(age) else {
                        throw AppError.invalid("\(day) is not a birth date for an age of 5–100 years", field: "birthDate")
                    }
                }
            }
            player.birthDate = birthDate.value
        }
        if let sex = input.sex { player.sex = sex.value }
        if let resting = input.restingHeartRate {
            if let value = resting.value, !PhysiologicalLimits.restingHeartRate.contains(Double(value)) {
                validation.check { () throws(AppError) in throw AppError.invalid("a resting heart rate is 25–150 bpm", field: "restingHeartRate") }
            }
            player.restingHeartRate = resting.value
        }
        if let maximum = input.maximumHeartRate {
            if let value = maximum.value, !PhysiologicalLimits.maximumHeartRate.contains(Double(value)) {
                validation.check { () throws(AppError) in throw AppError.invalid("a maximum heart rate is 100–250 bpm", field: "maximumHeartRate") }
            }
            player.maximumHeartRate = maximum.value
        }
        if let resting = player.restingHeartRate, let maximum = player.maximumHeartRate, resting >= maximum,
            input.restingHeartRate != nil || input.maximumHeartRate != nil
        {
            validation.check { () throws(AppError) in
                throw AppError.invalid("the resting heart rate (\(resting)) must be below the maximum (\(maximum))", field: "restingHeartRate")
            }
        }
        if let weight = input.weightKilograms {
            if let value = weight.value, !(value.isFinite && Self.weightKilograms.contains(value)) {
                validation.check { () throws(AppError) in throw AppError.invalid("weight is in kilograms, 20–300", field: "weightKilograms") }
            }
            player.weightKilograms = weight.value
        }
        try validation.finish()
    }

    static let surnameNeeded = "a player needs a surname: write one even if they go by a single name (a nickname, a family name)"

    /// A first name or a surname: one line of 1–80 characters; empty says what is missing.
    private static func namePart(_ text: String, field: String, what: String) throws(AppError) -> String {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw AppError.invalid(field == "surname" ? Self.surnameNeeded : "a player needs a \(what)", field: field)
        }
        return try TextRules.line(text, field: field, what: "a player's \(what)", length: Self.nameLength)
    }

    // MARK: Teams

    public func createTeam(name: String, for user: UserRecord, now: Date = Date()) async throws -> TeamRecord {
        let name = try TextRules.line(name, field: "name", what: "a team's name", length: Self.nameLength)
        let team = TeamRecord(userID: user.id, name: name, createdAt: now)
        do {
            try await store.teams.createTeam(team, limit: Self.maximumTeams)
        } catch StoreError.limitReached {
            throw AppError.conflict("you have \(Self.maximumTeams) teams, the most one account may have")
        } catch StoreError.notFound {
            throw AppError.notSignedIn
        }
        return team
    }

    public func teams(of user: UserRecord) async throws -> [TeamRecord] {
        try await store.teams.teams(userID: user.id)
    }

    public func team(_ id: String, of user: UserRecord) async throws -> TeamRecord {
        guard let team = try await store.teams.team(id: id, userID: user.id) else { throw AppError.notFound("team") }
        return team
    }

    public func renameTeam(_ id: String, of user: UserRecord, to name: String) async throws -> TeamRecord {
        let name = try TextRules.line(name, field: "name", what: "a team's name", length: Self.nameLength)
        guard try await store.teams.renameTeam(id: id, userID: user.id, to: name) else { throw AppError.notFound("team") }
        return try await team(id, of: user)
    }

    /// Sets or replaces the team's photo (FitLabTeam F4), checked as a player's is.
    public func setTeamPhoto(_ id: String, of user: UserRecord, bytes: [UInt8]) async throws {
        let team = try await team(id, of: user)
        let photo = try await PhotoRules.stored(bytes, of: "a team's")
        try await store.teams.setTeamPhoto(teamID: team.id, contentType: photo.contentType, data: Data(photo.data))
    }

    public func teamPhoto(_ id: String, of user: UserRecord) async throws -> (contentType: String, data: Data) {
        guard let photo = try await store.teams.teamPhoto(teamID: id, userID: user.id) else { throw AppError.notFound("photo") }
        return photo
    }

    /// Each team's saved and not-yet-reviewed sessions, by team id (absent: none saved).
    public func sessionCounts(of user: UserRecord) async throws -> [String: TeamSessionCounts] {
        try await store.teams.sessionCounts(userID: user.id)
    }

    /// The team and its sessions go; its players stay, in no team.
    public func deleteTeam(_ id: String, of user: UserRecord) async throws {
        guard try await store.teams.deleteTeam(id: id, userID: user.id) else { throw AppError.notFound("team") }
    }

    /// The team's players, by name.
    public func members(of teamID: String, for user: UserRecord) async throws -> [PlayerRecord] {
        _ = try await team(teamID, of: user)
        return try await store.teams.players(userID: user.id).filter { $0.teamID == teamID }
    }

    /// Puts a player in the team (out of any other). Their sensor goes with them unless a
    /// teammate already wears it, which is refused.
    public func addPlayer(_ playerID: String, to teamID: String, for user: UserRecord) async throws -> PlayerRecord {
        _ = try await team(teamID, of: user)
        return try await updatePlayer(playerID, PlayerInput(teamID: .set(teamID)), of: user)
    }

    public func removePlayer(_ playerID: String, from teamID: String, for user: UserRecord) async throws {
        let player = try await player(playerID, of: user)
        guard player.teamID == teamID else { throw AppError.notFound("player in that team") }
        _ = try await updatePlayer(playerID, PlayerInput(teamID: .clear), of: user)
    }
}
