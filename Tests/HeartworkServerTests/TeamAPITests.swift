import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import HeartworkTestSupport
import Testing

/// Players, teams and team sessions (issue 9, FitLabTeam F3–F10) through the API.
@Suite("Team API")
struct TeamAPITests {
    /// Creates a gateway for the user and stores `seconds` readings a second per sensor from
    /// `start`, at `bpm`; returns the sensors' ids by address.
    static func hear(
        _ server: ServerHarness, token: String, addresses: [String], from start: Date, seconds: Int, bpm: Int = 150, firstSequence: Int = 0
    ) async throws -> [String: String] {
        let gatewayToken = try #require(try await server.request(.post, "/api/gateways", token: token, json: ["name": "Pi"]).json["token"] as? String)
        let gateway = try #require(try await server.services.gateways.authenticate(token: gatewayToken))
        let startMilliseconds = Int(start.timeIntervalSince1970 * 1000)
        for chunk in stride(from: 0, to: seconds, by: 100) {
            var readings = [GatewayReading]()
            for second in chunk..<min(seconds, chunk + 100) {
                for address in addresses {
                    readings.append(
                        GatewayReading(
                            sensor: address, sequence: firstSequence + second, atMilliseconds: startMilliseconds + second * 1000,
                            measurement: HeartRateMeasurement(beatsPerMinute: UInt16(bpm), sensorContact: .detected, rrIntervalTicks: [UInt16(60_000 * 1.024 / Double(bpm))]),
                            battery: 90))
                }
            }
            _ = try await server.services.live.ingest(readings, from: gateway, now: start)
        }
        return Dictionary(
            try await server.services.live.sensors(of: try #require(try await server.store.users.find(id: gateway.userID))).map { ($0.address, $0.id) },
            uniquingKeysWith: { first, _ in first })
    }

    /// Hears each strap once more, now: the coach screen's "connected" is heard in the last
    /// 10 s (`SensorPresence`), and on a loaded 2-core machine a test's first readings can be
    /// older than that by the time it starts a session from the web.
    static func hearAgain(_ server: ServerHarness, token: String, addresses: [String]) async throws {
        _ = try await hear(server, token: token, addresses: addresses, from: Date(), seconds: 1, firstSequence: Int(Date().timeIntervalSince1970))
    }

    @Test(arguments: TestDatabase.all)
    func playersTeamsAndTheSensorRules(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("coach")
            let sensors = try await Self.hear(server, token: token, addresses: ["strap-a", "strap-b"], from: Date(), seconds: 1)
            let a = try #require(sensors["strap-a"])
            let b = try #require(sensors["strap-b"])

            // Every mistake at once, each next to its field.
            let bad = try await server.request(
                .post, "/api/players", token: token,
                json: [
                    "name": "Ana", "restingHeartRate": 10, "maximumHeartRate": 400, "weightKilograms": 5, "birthDate": "2030-01-01",
                ])
            #expect(bad.status == .unprocessableContent)
            #expect(
                Set(((bad.json["errors"] as? [[String: Any]]) ?? []).compactMap { $0["field"] as? String })
                    == ["restingHeartRate", "maximumHeartRate", "weightKilograms", "birthDate"])
            #expect(try await server.request(.post, "/api/players", token: token, json: ["number": "7"]).status == .unprocessableContent)
            #expect(try await server.request(.post, "/api/players", token: token, json: ["name": "Ana", "sensorID": "nope"]).problemField == "sensorID")

            let ana = try await server.request(
                .post, "/api/players", token: token,
                json: [
                    "name": "Ana Ruiz", "number": "7", "birthDate": "2001-04-02", "sex": "female", "restingHeartRate": 52, "maximumHeartRate": 196,
                    "weightKilograms": 61.5, "sensorID": a,
                ])
            #expect(ana.status == .created && ana.json["sensorID"] as? String == a && ana.json["number"] as? String == "7")
            let anaID = try #require(ana.json["id"] as? String)
            let bea = try #require(try await server.request(.post, "/api/players", token: token, json: ["name": "Bea", "sensorID": a]).json["id"] as? String)
            let first = try #require(try await server.request(.post, "/api/teams", token: token, json: ["name": "First team"]).json["id"] as? String)
            let youth = try #require(try await server.request(.post, "/api/teams", token: token, json: ["name": "Youth"]).json["id"] as? String)

            // A sensor is worn by at most one player of a team; another team may reuse it.
            #expect(try await server.request(.put, "/api/teams/\(first)/players/\(anaID)", token: token).status == .ok)
            let clash = try await server.request(.put, "/api/teams/\(first)/players/\(bea)", token: token)
            #expect(clash.status == .conflict && clash.problemField == "sensorID")
            #expect(try await server.request(.put, "/api/teams/\(youth)/players/\(bea)", token: token).status == .ok)
            #expect(try await server.request(.patch, "/api/players/\(bea)", token: token, json: ["teamID": first]).status == .conflict)
            // A player is in at most one team: joining another leaves the first.
            #expect(try await server.request(.patch, "/api/players/\(bea)", token: token, json: ["sensorID": b]).status == .ok)
            #expect(try await server.request(.put, "/api/teams/\(first)/players/\(bea)", token: token).status == .ok)
            let firstTeam = try await server.request(.get, "/api/teams/\(first)", token: token)
            #expect(((firstTeam.json["players"] as? [[String: Any]]) ?? []).count == 2)
            #expect(((try await server.request(.get, "/api/teams/\(youth)", token: token).json["players"] as? [Any]) ?? [1]).isEmpty)

            // The sensor list names who wears each strap.
            let list = try #require(try await server.request(.get, "/api/sensors", token: token).json["sensors"] as? [[String: Any]])
            let assigned = list.first { $0["id"] as? String == a }?["assignedPlayers"] as? [[String: Any]]
            #expect(assigned?.map { $0["name"] as? String } == ["Ana Ruiz"])

            // Clearing a fact with null; leaving a team; deleting a team keeps its players.
            let cleared = try await server.request(.patch, "/api/players/\(anaID)", token: token, json: ["weightKilograms": NSNull(), "number": NSNull()])
            #expect(cleared.status == .ok && cleared.json["weightKilograms"] == nil && cleared.json["number"] == nil && cleared.json["sex"] as? String == "female")
            #expect(try await server.request(.delete, "/api/teams/\(first)/players/\(bea)", token: token).status == .noContent)
            #expect(try await server.request(.delete, "/api/teams/\(first)/players/\(bea)", token: token).status == .notFound)
            #expect(try await server.request(.delete, "/api/teams/\(first)", token: token).status == .noContent)
            #expect(try await server.request(.get, "/api/players/\(anaID)", token: token).json["teamID"] == nil)

            // Photos are checked by content.
            #expect(
                try await server.request(.put, "/api/players/\(anaID)/photo", token: token, raw: Data("not a png".utf8), contentType: "image/png").status == .unsupportedMediaType)

            // Nobody else sees or touches any of it.
            let (_, other) = try await server.signUp("rival")
            #expect(try await server.request(.get, "/api/players/\(anaID)", token: other).status == .notFound)
            #expect(try await server.request(.patch, "/api/players/\(anaID)", token: other, json: ["name": "Mine"]).status == .notFound)
            #expect(try await server.request(.put, "/api/teams/\(youth)/players/\(anaID)", token: other).status == .notFound)
            #expect(try await server.request(.post, "/api/players", token: other, json: ["name": "X", "sensorID": a]).status == .unprocessableContent)
            let rivalTeam = try #require(try await server.request(.post, "/api/teams", token: other, json: ["name": "R"]).json["id"] as? String)
            #expect(try await server.request(.patch, "/api/players/\(anaID)", token: token, json: ["teamID": rivalTeam]).problemField == "teamID")
            #expect(((try await server.request(.get, "/api/players", token: other).json["players"] as? [Any]) ?? [1]).isEmpty)
        }
    }

    @Test(arguments: TestDatabase.all)
    func aSessionIsRecordedReviewedExportedAndDiscardedWithoutLosingReadings(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (userID, token) = try await server.signUp("coach")
            let user = try #require(try await server.store.users.find(id: userID))
            let start = Date().addingTimeInterval(-3600).rounded
            let sensors = try await Self.hear(server, token: token, addresses: ["A", "B", "C"], from: start, seconds: 600)
            let team = try #require(try await server.request(.post, "/api/teams", token: token, json: ["name": "Squad"]).json["id"] as? String)
            var players = [String]()
            for (name, address) in [("Ana", "A"), ("Bea", "B")] {
                players.append(
                    try #require(
                        try await server.request(
                            .post, "/api/players", token: token,
                            json: [
                                "name": name, "sex": "male", "restingHeartRate": 60, "maximumHeartRate": 190, "teamID": team, "sensorID": sensors[address]!,
                            ]
                        ).json["id"] as? String))
            }
            // Started in the past through the service (the API starts "now"), with Bea wearing
            // strap C for this session only.
            let session = try await server.services.teamSessions.start(
                teamID: team, participants: [.init(playerID: players[0]), .init(playerID: players[1], sensorID: sensors["C"])],
                for: user, now: start)
            #expect(try await server.request(.post, "/api/teams/\(team)/sessions", token: token, json: [:]).status == .conflict, "one unsaved session per team")
            _ = try await server.services.teamSessions.stop(session.id, of: user, now: start.addingTimeInterval(600))
            #expect(try await server.request(.get, "/api/players/\(players[1])", token: token).json["sensorID"] as? String == sensors["B"], "the override is for the session only")

            let review = try await server.request(.get, "/api/team-sessions/\(session.id)/review", token: token)
            #expect(review.status == .ok)
            let entries = try #require(review.json["players"] as? [[String: Any]])
            #expect(entries.map { $0["sensorID"] as? String } == [sensors["A"], sensors["C"]])
            for entry in entries {
                // 150 bpm for 10 minutes, rest 60, max 190, men: Banister TRIMP 16.74 (see TeamSessionAnalysisTests).
                #expect(abs((entry["trimp"] as? Double ?? 0) - 16.74) < 0.01)
                #expect((entry["heartRate"] as? [Any])?.count == 600 && entry["readingCount"] as? Int == 600)
                #expect((entry["hrvWindows"] as? [Any])?.count == 1, "600 beats of 390 ms: one 5-minute window")
                #expect((entry["hrv"] as? [String: Any])?["correction"] as? String == "kubios")
            }

            #expect(try await server.request(.patch, "/api/team-sessions/\(session.id)", token: token, json: ["reviewed": true]).json["reviewed"] as? Bool == true)
            let csv = try await server.request(.get, "/api/team-sessions/\(session.id)/export?format=csv", token: token)
            #expect(csv.status == .ok && csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(
                csv.text.split(separator: "\r\n").count == 1 + 2 * 600
                    && csv.text.hasPrefix("player,number,sensor,second,time,bpm,zone,context_time,context_moment,context_situation,context_state\r\nAna,"))
            #expect(try await server.request(.get, "/api/team-sessions/\(session.id)", token: token).json["exported"] as? Bool == true)
            let json = try await server.request(.get, "/api/team-sessions/\(session.id)/export", token: token)
            #expect(((json.json["players"] as? [[String: Any]])?.first?["rrIntervals"] as? [Any])?.count == 600)
            #expect(try await server.request(.get, "/api/team-sessions/\(session.id)/export?format=xml", token: token).status == .unprocessableContent)

            let saved = try await server.request(.post, "/api/team-sessions/\(session.id)/save", token: token)
            #expect(saved.json["state"] as? String == "saved")
            // Saved, so a new session may start; nobody else can see or discard this one.
            let (_, other) = try await server.signUp("rival")
            #expect(try await server.request(.get, "/api/team-sessions/\(session.id)/review", token: other).status == .notFound)
            #expect(try await server.request(.delete, "/api/team-sessions/\(session.id)", token: other).status == .notFound)
            #expect(try await server.request(.get, "/api/teams/\(team)/board", token: other).status == .notFound)

            // Discarding deletes the window, never the readings.
            #expect(try await server.request(.delete, "/api/team-sessions/\(session.id)", token: token).status == .noContent)
            #expect(try await server.request(.get, "/api/team-sessions/\(session.id)", token: token).status == .notFound)
            let from = start.formatted(.iso8601)
            let to = start.addingTimeInterval(600).formatted(.iso8601)
            let kept = try await server.request(.get, "/api/sensors/\(sensors["C"]!)/heart-rate?from=\(from)&to=\(to)", token: token)
            #expect(kept.json["readingCount"] as? Int == 600)

            // A live session from the API: the board shows its players and TRIMP so far.
            let live = try await server.request(.post, "/api/teams/\(team)/sessions", token: token, json: ["countdownSeconds": 10, "durationSeconds": 600])
            #expect(live.status == .created && live.json["recording"] as? Bool == false, "counting down")
            let board = try await server.request(.get, "/api/teams/\(team)/board", token: token)
            let tiles = try #require(board.json["tiles"] as? [[String: Any]], "\(board.text)")
            #expect(tiles.count == 2, "\(board.text)")
            #expect((tiles.first?["zoneThresholds"] as? [Double])?.count == 4 && tiles.first?["trimpK"] as? Double == 0.64, "\(board.text)")
            #expect(try await server.request(.post, "/api/teams/\(team)/sessions", token: token, json: ["countdownSeconds": 601]).status == .unprocessableContent)
            #expect(
                try await server.request(
                    .post, "/api/teams/\(team)/sessions", token: token,
                    json: ["players": [["player": players[0], "sensor": sensors["B"]!], ["player": players[1], "sensor": sensors["B"]!]]]
                ).status
                    == .unprocessableContent)
        }
    }
}

extension Date {
    /// Whole milliseconds, as the store keeps times.
    fileprivate var rounded: Date { Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded() / 1000) }
}
