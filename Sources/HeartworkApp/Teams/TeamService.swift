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
        guard input.name != nil else { throw AppError.invalid("a player needs a name", field: "name") }
        guard try await store.teams.players(userID: user.id).count < Self.maximumPlayers else {
            throw AppError.conflict("you have \(Self.maximumPlayers) players, the most one account may have")
        }
        var player = PlayerRecord(userID: user.id, name: "", createdAt: now)
        try await apply(input, to: &player, user: user, now: now)
        do {
            try await store.teams.createPlayer(player)
        } catch StoreError.conflict(let detail) {
            throw AppError.conflict(detail, field: "sensorID")
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
        try await apply(input, to: &player, user: user, now: now)
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
        let image: ImageFile
        do {
            image = try ImageFile(bytes)
        } catch {
            throw AppError.invalid("a player's photo must be a whole PNG or JPEG image (checked by content): \(error)", field: "body")
        }
        try await store.teams.setPlayerPhoto(playerID: player.id, contentType: image.kind.rawValue, data: Data(bytes))
    }

    public func photo(_ id: String, of user: UserRecord) async throws -> (contentType: String, data: Data) {
        guard let photo = try await store.teams.playerPhoto(playerID: id, userID: user.id) else { throw AppError.notFound("photo") }
        return photo
    }

    /// The mistakes in `input`'s own fields, each with its field (none: it may be applied).
    public func mistakes(in input: PlayerInput, now: Date = Date()) -> [AppError.FieldError] {
        var player = PlayerRecord(userID: "", name: "", createdAt: now)
        do {
            try Self.validate(input, into: &player, now: now)
            return []
        } catch {
            return error.allFieldErrors
        }
    }

    /// Checks every field of `input` (all mistakes at once), then the team and sensor it
    /// names (they must be the coach's own), and applies it.
    private func apply(_ input: PlayerInput, to player: inout PlayerRecord, user: UserRecord, now: Date) async throws {
        try Self.validate(input, into: &player, now: now)
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

    private static func validate(_ input: PlayerInput, into player: inout PlayerRecord, now: Date) throws(AppError) {
        var validation = Validation()
        if let name = input.name {
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

    // MARK: Teams

    public func createTeam(name: String, for user: UserRecord, now: Date = Date()) async throws -> TeamRecord {
        let name = try TextRules.line(name, field: "name", what: "a team's name", length: Self.nameLength)
        guard try await store.teams.teams(userID: user.id).count < Self.maximumTeams else {
            throw AppError.conflict("you have \(Self.maximumTeams) teams, the most one account may have")
        }
        let team = TeamRecord(userID: user.id, name: name, createdAt: now)
        try await store.teams.createTeam(team)
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
