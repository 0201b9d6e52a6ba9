import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import Logging
import ServiceLifecycle

/// `serve --demo`'s coach: an account with a 12-player team whose straps a simulated
/// gateway streams in process, plus a session recorded an hour ago to review, so a newcomer
/// opens the coach screen and sees live tiles at once.
public enum DemoTeam {
    public static let username = "coach"
    public static let playerCount = 12

    public struct Seeded: Sendable {
        public let login: DemoData.Login
        public let teamID: String
        public let gateway: GatewayRecord
        public let straps: SimulatedStraps
    }

    static let players: [(name: String, number: String, born: (Int, Int, Int), sex: Sex, resting: Int, weight: Double)] = [
        ("Alba Torres", "1", (2000, 3, 14), .female, 52, 64), ("Bruno Silva", "4", (1998, 7, 2), .male, 48, 79),
        ("Chloé Martin", "5", (2002, 11, 23), .female, 55, 61), ("Dmitri Volkov", "6", (1997, 1, 9), .male, 50, 82),
        ("Emma Berg", "7", (2001, 5, 30), .female, 57, 59), ("Farid Haddad", "8", (1999, 9, 17), .male, 46, 75),
        ("Grace Osei", "9", (2003, 2, 5), .female, 54, 63), ("Hugo Laurent", "10", (1996, 12, 12), .male, 51, 77),
        ("Ines Costa", "11", (2000, 8, 8), .female, 56, 60), ("Jonas Weber", "14", (1998, 4, 21), .male, 49, 84),
        ("Kaito Sato", "17", (2002, 6, 3), .male, 53, 70), ("Lena Novak", "21", (2001, 10, 27), .female, 58, 62),
    ]

    /// Creates (or, on a later start, finds) the coach, the team and its straps; resets the
    /// coach's password and returns it.
    public static func seed(into services: HeartworkServices, now: Date = Date()) async throws -> Seeded {
        let store = services.store
        let password = "demo-" + SessionToken.generate().dropFirst(3).prefix(10)
        // The straps continue where a restart left off: sequence numbers follow the clock.
        var straps = SimulatedStraps(count: playerCount, minutes: 30, rate: 1, seed: 2026, sequenceBase: Int(now.timeIntervalSince1970 * 10) - 40_000)
        if let existing = try await store.users.find(username: username) {
            try await services.accounts.resetPassword(userID: existing.id, to: String(password))
            guard let team = try await store.teams.teams(userID: existing.id).first,
                let gateway = try await store.gateways.list(userID: existing.id).first
            else {
                throw AppError.conflict("the demo coach exists without its team or gateway: delete the account 'coach' or start from a new database")
            }
            return Seeded(
                login: .init(username: username, password: String(password)), teamID: team.id, gateway: gateway,
                straps: SimulatedStraps(count: playerCount, minutes: 30, rate: 1, seed: 2026, sequenceBase: Int(now.timeIntervalSince1970 * 10)))
        }
        let coach = UserRecord(
            username: username, fullName: "Casey Coach", email: "coach@demo.heartwork.invalid",
            passwordHash: try await services.accounts.hasher.hash(String(password)), status: "Pitch side", createdAt: now.addingTimeInterval(-86_400))
        try await store.users.create(coach)
        let gateway = GatewayRecord(
            userID: coach.id, name: "Demo gateway (in process)", tokenHash: SessionToken.hash(SessionToken.generate(prefix: GatewayService.tokenPrefix)),
            createdAt: now.addingTimeInterval(-86_400))
        try await store.gateways.create(gateway)

        // An hour ago: 20 minutes of training, heard and recorded.
        let recorded = now.addingTimeInterval(-3600)
        let start = Int(recorded.timeIntervalSince1970 * 1000)
        var batch = [GatewayReading]()
        for second in 0..<(20 * 60) {
            batch += straps.tick(atMilliseconds: start + second * 1000)
            if batch.count >= 1200 {
                _ = try await services.live.ingest(batch, from: gateway, now: recorded)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { _ = try await services.live.ingest(batch, from: gateway, now: recorded) }

        let sensors = Dictionary(try await store.sensors.list(userID: coach.id).map { ($0.address, $0) }, uniquingKeysWith: { first, _ in first })
        let team = try await services.teams.createTeam(name: "First team", for: coach, now: recorded)
        for (index, player) in players.enumerated() {
            let strap = straps.straps[index]
            if let sensor = sensors[strap.address] {
                _ = try await services.live.rename(sensor.id, of: coach, to: "Strap \(player.number)")
            }
            _ = try await services.teams.createPlayer(
                PlayerInput(
                    name: player.name, number: .set(player.number),
                    birthDate: CalendarDay(year: player.born.0, month: player.born.1, day: player.born.2).map { .set($0) },
                    sex: .set(player.sex), restingHeartRate: .set(player.resting), weightKilograms: .set(player.weight),
                    teamID: .set(team.id), sensorID: sensors[strap.address].map { .set($0.id) }), for: coach, now: recorded)
        }
        let session = try await services.teamSessions.start(teamID: team.id, participants: nil, for: coach, now: recorded)
        _ = try await services.teamSessions.stop(session.id, of: coach, now: recorded.addingTimeInterval(20 * 60))
        _ = try await services.teamSessions.save(session.id, of: coach, now: recorded.addingTimeInterval(20 * 60))
        return Seeded(
            login: .init(username: username, password: String(password)), teamID: team.id, gateway: gateway,
            straps: SimulatedStraps(count: playerCount, minutes: 30, rate: 1, seed: 2026, sequenceBase: Int(now.timeIntervalSince1970 * 10)))
    }
}

/// The demo's gateway, in process: every second, the simulated straps' readings go through
/// the same path a real gateway's do (stored, then published to the coach's screens).
public struct DemoGateway: Service {
    let live: LiveService
    let gateways: GatewayService
    let gateway: GatewayRecord
    var straps: SimulatedStraps
    let logger: Logger

    public init(services: HeartworkServices, seeded: DemoTeam.Seeded, logger: Logger) {
        live = services.live
        gateways = services.gateways
        gateway = seeded.gateway
        straps = seeded.straps
        self.logger = logger
    }

    public func run() async throws {
        let live = live
        let gateway = gateway
        let logger = logger
        let initial = straps
        try? await gateways.touch(gateway)
        await cancelWhenGracefulShutdown {
            var straps = initial
            while !Task.isCancelled {
                let readings = straps.tick(atMilliseconds: Int(Date().timeIntervalSince1970 * 1000))
                do {
                    _ = try await live.ingest(readings, from: gateway)
                } catch {
                    logger.warning("the demo gateway could not store its readings", metadata: ["error": "\(error)"])
                }
                do {
                    try await Task.sleep(for: .seconds(1))
                } catch {
                    return
                }
            }
        }
    }
}
