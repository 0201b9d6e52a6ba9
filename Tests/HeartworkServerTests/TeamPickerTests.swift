import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkCore
import HeartworkModel
import HeartworkTestSupport
import SQLKit
import Testing

/// Issue 25, FitLabTeam F4–F6: the coach picks who takes part on the coach screen (only
/// players whose sensor is connected, on the web; the API keeps accepting any player), a
/// sensor swapped for this session only (the player's own unchanged); a team's photo (migration
/// 032) and rename; the team list's session counts — on both engines.
@Suite("Team picker, photo and counts")
struct TeamPickerTests {
    /// `players[]=…&sensor[<id>]=…` as a browser sends it (brackets percent-encoded).
    static func startForm(_ picks: [(player: String, sensor: String)]) -> String {
        (["countdownSeconds=0", "durationMinutes="]
            + picks.flatMap { ["players%5B%5D=\($0.player)", "sensor%5B\($0.player)%5D=\($0.sensor)"] }).joined(separator: "&")
    }

    @Test(arguments: TestDatabase.all)
    func theWebPicksConnectedPlayersAndSwapsASensorForTheSessionOnly(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (userID, token) = try await server.signUp("coach")
            let user = try #require(try await server.store.users.find(id: userID))
            let web = try await server.webSession("coach")
            // A, B, C and D heard until a moment ago; E ten minutes ago (not connected).
            var sensors = try await TeamAPITests.hear(server, token: token, addresses: ["A", "B", "C", "D"], from: Date().addingTimeInterval(-60), seconds: 60)
            sensors.merge(
                try await TeamAPITests.hear(server, token: token, addresses: ["E"], from: Date().addingTimeInterval(-900), seconds: 60), uniquingKeysWith: { a, _ in a })
            let team = try #require(try await server.request(.post, "/api/teams", token: token, json: ["name": "Squad"]).json["id"] as? String)
            var ids = [String: String]()
            for (name, address) in [("Ana", "A"), ("Bea", "B"), ("Cy", "C"), ("Dee", "E"), ("Eve", "")] {
                var body: [String: Any] = ["name": name, "teamID": team, "restingHeartRate": 60, "maximumHeartRate": 190]
                if !address.isEmpty { body["sensorID"] = sensors[address]! }
                let made = try await server.request(.post, "/api/players", token: token, json: body)
                #expect(made.status == .created, "\(made.text)")
                ids[name] = try #require(made.json["id"] as? String)
            }

            // The picker lists every player with the sensor they will wear and its status.
            try await TeamAPITests.hearAgain(server, token: token, addresses: ["A", "B", "C", "D"])
            let coach = try await WebPageTests.page(server, "/teams/\(team)/live", cookie: web.cookie)
            #expect(coach.status == .ok && coach.text.contains("Who takes part"))
            #expect(coach.text.components(separatedBy: "name=\"players[]\"").count - 1 == 5)
            #expect(coach.text.contains("● Connected") && coach.text.contains("○ Not connected") && coach.text.contains("○ No sensor"))
            #expect(coach.text.contains("name=\"sensor[\(ids["Cy"]!)]\"") && coach.text.contains("Own sensor (C)"))
            #expect(coach.text.contains("value=\"\(ids["Ana"]!)\" id=\"pick-\(ids["Ana"]!)\" checked"), "a connected player is picked to begin with")
            #expect(!coach.text.contains("value=\"\(ids["Dee"]!)\" id=\"pick-\(ids["Dee"]!)\" checked"), "a player whose sensor is silent is not")
            #expect(coach.text.contains("E was not heard in the last 10 s"))

            // Nobody picked, or a silent sensor: refused with the reason, nothing started.
            let none = try await WebTeamPageTests.form(server, "/teams/\(team)/sessions", "countdownSeconds=0", session: web)
            #expect(none.status == .unprocessableContent && none.text.contains("Pick at least one player"), "\(none.status)")
            try await TeamAPITests.hearAgain(server, token: token, addresses: ["A", "B", "C", "D"])
            let silent = try await WebTeamPageTests.form(
                server, "/teams/\(team)/sessions", Self.startForm([(ids["Ana"]!, ""), (ids["Dee"]!, "")]), session: web)
            #expect(silent.status == .unprocessableContent)
            #expect(silent.text.contains("Dee cannot take part: their sensor is not connected (not heard in the last 10 seconds)"), "\(silent.text.prefix(0))")
            #expect(try await server.services.teamSessions.sessions(of: team, for: user).isEmpty, "nothing was created")
            #expect(silent.text.contains("value=\"\(ids["Dee"]!)\" id=\"pick-\(ids["Dee"]!)\""), "the picker comes back")

            // Ana on her own sensor, Cy on D for this session, Dee on B (connected) in place of her silent E.
            try await TeamAPITests.hearAgain(server, token: token, addresses: ["A", "B", "C", "D"])
            let started = try await WebTeamPageTests.form(
                server, "/teams/\(team)/sessions",
                Self.startForm([(ids["Ana"]!, ""), (ids["Cy"]!, sensors["D"]!), (ids["Dee"]!, sensors["B"]!)]), session: web)
            #expect(started.status == .seeOther && started.headers[.location] == "/teams/\(team)/live")
            let session = try #require(try await server.services.teamSessions.openSession(of: team, for: user))
            let worn = Dictionary(uniqueKeysWithValues: session.players.map { ($0.playerID, $0.sensorID) })
            #expect(worn == [ids["Ana"]!: sensors["A"]!, ids["Cy"]!: sensors["D"]!, ids["Dee"]!: sensors["B"]!])
            // The defaults are unchanged.
            #expect(try await server.request(.get, "/api/players/\(ids["Cy"]!)", token: token).json["sensorID"] as? String == sensors["C"]!)
            #expect(try await server.request(.get, "/api/players/\(ids["Dee"]!)", token: token).json["sensorID"] as? String == sensors["E"]!)
            // The coach screen shows the session's tiles, no picker.
            let live = try await WebPageTests.page(server, "/teams/\(team)/live", cookie: web.cookie)
            #expect(!live.text.contains("Who takes part") && live.text.components(separatedBy: "class=\"player-tile").count - 1 == 3)
            try await server.services.teamSessions.discard(session.id, of: user)

            // Two picked players on one sensor: refused.
            let clash = try await WebTeamPageTests.form(
                server, "/teams/\(team)/sessions", Self.startForm([(ids["Ana"]!, ""), (ids["Bea"]!, sensors["A"]!)]), session: web)
            #expect(clash.status == .unprocessableContent && clash.text.contains("cannot wear the same sensor"))

            // The API keeps accepting a player whose sensor is silent (scripts, gateways).
            let api = try await server.request(
                .post, "/api/teams/\(team)/sessions", token: token, json: ["players": [["player": ids["Dee"]!], ["player": ids["Bea"]!, "sensor": sensors["C"]!]]])
            #expect(api.status == .created, "\(api.text)")
            let apiSession = try await server.services.teamSessions.session(try #require(api.json["id"] as? String), of: user)
            #expect(Dictionary(uniqueKeysWithValues: apiSession.players.map { ($0.playerID, $0.sensorID) }) == [ids["Dee"]!: sensors["E"]!, ids["Bea"]!: sensors["C"]!])
            #expect(try await server.request(.get, "/api/players/\(ids["Bea"]!)", token: token).json["sensorID"] as? String == sensors["B"]!)

            // Another coach's team is not found.
            _ = try await server.signUp("rival")
            let rival = try await server.webSession("rival")
            #expect(try await WebTeamPageTests.form(server, "/teams/\(team)/sessions", Self.startForm([(ids["Ana"]!, "")]), session: rival).status == .notFound)
        }
    }

    @Test(arguments: TestDatabase.all)
    func aTeamsPhotoRenameAndSessionCounts(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (userID, token) = try await server.signUp("coach")
            let user = try #require(try await server.store.users.find(id: userID))
            let web = try await server.webSession("coach")
            let start = Date().addingTimeInterval(-3600)
            let (team, _) = try await TeamSessionContextTests.squad(server, token: token, start: start)
            let other = try #require(try await server.request(.post, "/api/teams", token: token, json: ["name": "Reserves"]).json["id"] as? String)

            // No photo, no sessions yet.
            var listed = try #require(try await server.request(.get, "/api/teams", token: token).json["teams"] as? [[String: Any]])
            #expect(listed.allSatisfy { $0["hasPhoto"] as? Bool == false && $0["sessionCount"] as? Int == 0 && $0["unreviewedCount"] as? Int == 0 })
            #expect(try await server.request(.get, "/api/teams/\(team)/photo", token: token).status == .notFound)

            // A photo: checked by content, stored, replaced; another coach's team is not found.
            let refused = try await server.request(.put, "/api/teams/\(team)/photo", token: token, raw: Data("not a png".utf8), contentType: "image/png")
            #expect(refused.status == .unsupportedMediaType && refused.text.contains("photo must be a whole PNG or JPEG"))
            #expect(try await server.request(.put, "/api/teams/\(team)/photo", token: token, raw: TestImages.png, contentType: "image/png").status == .noContent)
            var photo = try await server.request(.get, "/api/teams/\(team)/photo", token: token)
            #expect(photo.status == .ok && photo.headers[.contentType] == "image/png" && photo.body == TestImages.png)
            #expect(try await server.request(.put, "/api/teams/\(team)/photo", token: token, raw: TestImages.jpeg, contentType: "image/jpeg").status == .noContent)
            photo = try await server.request(.get, "/api/teams/\(team)/photo", token: token)
            #expect(photo.headers[.contentType] == "image/jpeg" && photo.body == TestImages.jpeg)
            let (_, rivalToken) = try await server.signUp("rival")
            #expect(try await server.request(.get, "/api/teams/\(team)/photo", token: rivalToken).status == .notFound)
            #expect(try await server.request(.put, "/api/teams/\(team)/photo", token: rivalToken, raw: TestImages.png, contentType: "image/png").status == .notFound)
            #expect(try await server.request(.get, "/api/teams/\(team)/photo", token: token).body == TestImages.jpeg, "the rival changed nothing")
            let one = try await server.request(.get, "/api/teams/\(team)", token: token)
            #expect(one.json["hasPhoto"] as? Bool == true && one.json["photoURL"] as? String == "/api/teams/\(team)/photo")

            // Sessions: two saved (one reviewed), one open (not counted); counts in the list and the team.
            for offset in [0.0, 600] {
                let session = try await server.services.teamSessions.start(teamID: team, participants: nil, for: user, now: start.addingTimeInterval(offset))
                _ = try await server.services.teamSessions.save(session.id, of: user, now: start.addingTimeInterval(offset + 60))
                if offset == 0 { _ = try await server.services.teamSessions.mark(session.id, of: user, reviewed: true, exported: nil) }
            }
            _ = try await server.services.teamSessions.start(teamID: team, participants: nil, for: user)
            listed = try #require(try await server.request(.get, "/api/teams", token: token).json["teams"] as? [[String: Any]])
            let squad = try #require(listed.first { $0["id"] as? String == team })
            #expect(squad["sessionCount"] as? Int == 2 && squad["unreviewedCount"] as? Int == 1 && squad["hasPhoto"] as? Bool == true)
            let reserves = try #require(listed.first { $0["id"] as? String == other })
            #expect(reserves["sessionCount"] as? Int == 0 && reserves["hasPhoto"] as? Bool == false)
            #expect(try await server.store.teams.sessionCounts(userID: userID) == [team: TeamSessionCounts(saved: 2, unreviewed: 1)])
            #expect(try await server.request(.get, "/api/teams/\(team)", token: token).json["unreviewedCount"] as? Int == 1)

            // The team list shows each team's photo and counts; the team page renames.
            let teams = try await WebPageTests.page(server, "/teams", cookie: web.cookie)
            #expect(teams.text.contains("<img src=\"/api/teams/\(team)/photo\"") && teams.text.contains("2 sessions") && teams.text.contains("1 to review"))
            #expect(teams.text.contains("0 sessions") && !teams.text.contains("<img src=\"/api/teams/\(other)/photo\""))
            let page = try await WebPageTests.page(server, "/teams/\(team)", cookie: web.cookie)
            #expect(page.text.contains("data-upload-photo=\"/api/teams/\(team)/photo\"") && page.text.contains("Replace the photo"))
            let blank = try await WebTeamPageTests.form(server, "/teams/\(team)", "name=+", session: web)
            #expect(blank.status == .unprocessableContent && blank.text.contains("field-error"))
            let renamed = try await WebTeamPageTests.form(server, "/teams/\(team)", "name=First+team", session: web)
            #expect(renamed.status == .seeOther && renamed.headers[.location] == "/teams/\(team)")
            #expect(try await server.request(.get, "/api/teams/\(team)", token: token).json["name"] as? String == "First team")
            let rivalWeb = try await server.webSession("rival")
            #expect(try await WebTeamPageTests.form(server, "/teams/\(team)", "name=Mine", session: rivalWeb).status == .notFound)
            #expect(try await server.request(.patch, "/api/teams/\(team)", token: token, json: ["name": "Squad"]).json["sessionCount"] as? Int == 2)

            // Deleting the team deletes its photo row (counted in the table: the photo lookup
            // joins the team, so it would say nil with the row left behind).
            func photoRows(_ id: String) async throws -> Int {
                try #require(
                    try await server.store.database.sql.raw("SELECT COUNT(*) AS n FROM team_photos WHERE team_id = \(bind: id)").first()?.decode(column: "n", as: Int.self))
            }
            #expect(try await photoRows(team) == 1)
            #expect(try await server.request(.delete, "/api/teams/\(team)", token: token).status == .noContent)
            #expect(try await photoRows(team) == 0)
            #expect(try await server.store.teams.teamPhoto(teamID: team, userID: userID) == nil)
        }
    }
}
