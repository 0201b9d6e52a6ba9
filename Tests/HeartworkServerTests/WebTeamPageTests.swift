import Foundation
import HTTPTypes
import HeartworkApp
import Testing

/// The team pages as a server renders them (issue 9; the coach screen's live behaviour is in
/// Tests/Browser/coach_test.py): forms that come back with their mistakes, a tile per player
/// on the coach screen, the review's sections, and nothing of anyone else's.
@Suite("Web pages: teams")
struct WebTeamPageTests {
    static func form(_ server: ServerHarness, _ path: String, _ fields: String, session: (cookie: String, csrf: String)) async throws -> ServerHarness.Reply {
        var headers = HTTPFields()
        headers[.cookie] = session.cookie
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await server.request(.post, path, raw: Data("_csrf=\(session.csrf)&\(fields)".utf8), headers: headers)
    }

    @Test func formsCoachScreenAndReview() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("coachweb")
            let session = try await server.webSession("coachweb")
            let sensors = try await TeamAPITests.hear(server, token: token, addresses: ["S1", "S2"], from: Date().addingTimeInterval(-120), seconds: 120)

            // A team with no name comes back with the mistake next to the field.
            let empty = try await Self.form(server, "/teams", "name=", session: session)
            #expect(empty.status == .unprocessableContent && empty.text.contains("field-error") && empty.text.contains("team&#39;s name") || empty.text.contains("team's name"))
            let created = try await Self.form(server, "/teams", "name=Under+21", session: session)
            #expect(created.status == .seeOther)
            let team = try #require(created.headers[.location]?.split(separator: "/").last.map(String.init))

            // A player with every mistake at once; what was typed stays.
            let bad = try await Self.form(
                server, "/players", "firstName=Robin&surname=&number=&restingHeartRate=abc&maximumHeartRate=400&teamID=\(team)&sensorID=", session: session)
            #expect(bad.status == .unprocessableContent)
            // Issue 25 (F3): the surname and the number are asked, each next to its field.
            #expect(bad.text.contains("id=\"player-surname-error\"") && bad.text.contains("A player needs a surname"))
            #expect(bad.text.contains("id=\"player-number-error\"") && bad.text.contains("A player needs a number"))
            #expect(bad.text.contains("&#39;abc&#39; is not a whole number.") || bad.text.contains("'abc' is not a whole number."))
            #expect(bad.text.contains("A maximum heart rate is 100–250 bpm.") && bad.text.contains("value=\"Robin\""))
            for (number, name, sensor) in [(1, "Robin", sensors["S1"]!), (2, "Sasha", sensors["S2"]!)] {
                let added = try await Self.form(
                    server, "/players", "firstName=\(name)&surname=Keeper&number=\(number)&restingHeartRate=50&maximumHeartRate=190&teamID=\(team)&sensorID=\(sensor)",
                    session: session)
                #expect(added.status == .seeOther && added.headers[.location] == "/teams/\(team)")
            }
            // A sensor a teammate wears is refused on the team page.
            let players = try #require(try await server.request(.get, "/api/players", token: token).json["players"] as? [[String: Any]])
            let sasha = try #require(players.first { $0["name"] as? String == "Sasha Keeper" }?["id"] as? String)
            let clash = try await Self.form(server, "/teams/\(team)/players/\(sasha)/sensor", "sensorID=\(sensors["S1"]!)", session: session)
            #expect(clash.status == .conflict && clash.text.contains("already worn by another player"))

            // The coach screen: a tile per player, tied to the sensor the feed names.
            let coach = try await WebPageTests.page(server, "/teams/\(team)/live", cookie: session.cookie)
            #expect(coach.status == .ok && coach.text.contains("data-coach=\"\(team)\""))
            #expect(coach.text.components(separatedBy: "class=\"player-tile").count - 1 == 2)
            #expect(coach.text.contains("data-sensor=\"\(sensors["S1"]!)\"") && coach.text.contains("Start session"))

            // A session recorded over what was heard, then reviewed.
            // Both picked (issue 25: the coach picks who takes part).
            let robin = try #require(players.first { $0["name"] as? String == "Robin Keeper" }?["id"] as? String)
            try await TeamAPITests.hearAgain(server, token: token, addresses: ["S1", "S2"])
            let started = try await Self.form(
                server, "/teams/\(team)/sessions", "countdownSeconds=0&durationMinutes=&players%5B%5D=\(robin)&players%5B%5D=\(sasha)", session: session)
            #expect(started.status == .seeOther && started.headers[.location] == "/teams/\(team)/live")
            let sessionID = try #require(
                (try await server.request(.get, "/api/teams/\(team)/sessions", token: token).json["sessions"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(try await Self.form(server, "/team-sessions/\(sessionID)/stop", "", session: session).status == .seeOther)
            let saved = try await Self.form(server, "/team-sessions/\(sessionID)/save", "", session: session)
            #expect(saved.headers[.location] == "/team-sessions/\(sessionID)")
            let review = try await WebPageTests.page(server, "/team-sessions/\(sessionID)", cookie: session.cookie)
            #expect(review.status == .ok && review.text.contains("The team side by side") && review.text.contains("Robin") && review.text.contains("Sasha"))
            #expect(review.text.contains("Export CSV") && review.text.contains("Mark as reviewed"))
            #expect(try await Self.form(server, "/team-sessions/\(sessionID)/dance", "", session: session).status == .notFound)

            // Nobody else's: another coach sees 404 pages.
            _ = try await server.signUp("othercoach")
            let other = try await server.webSession("othercoach")
            #expect(try await WebPageTests.page(server, "/teams/\(team)", cookie: other.cookie).status == .notFound)
            #expect(try await WebPageTests.page(server, "/teams/\(team)/live", cookie: other.cookie).status == .notFound)
            #expect(try await WebPageTests.page(server, "/team-sessions/\(sessionID)", cookie: other.cookie).status == .notFound)
            let otherTeams = try await WebPageTests.page(server, "/teams", cookie: other.cookie)
            #expect(!otherTeams.text.contains("Under 21") && !otherTeams.text.contains("Robin"))
        }
    }
}
