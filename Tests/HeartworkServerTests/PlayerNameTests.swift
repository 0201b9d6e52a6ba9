import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkModel
import HeartworkTestSupport
import Testing

/// Issue 25, FitLabTeam F3: a player's first name, surname and number (the seed: Name,
/// Surname and Number mandatory). The API takes `firstName` and `surname` and still takes the
/// older `name` alone (split at its last space); `name` stays "First Surname" in every answer.
/// The web form asks all three; the players list groups by team and sorts by number, then
/// surname. Both engines.
@Suite("Players: first name, surname, number")
struct PlayerNameTests {
    @Test func splittingAtTheLastSpace() {
        func parts(_ name: String) -> [String] {
            let split = PlayerName.split(name)
            return [split.firstName, split.surname]
        }
        #expect(parts("Ana María Ruiz") == ["Ana María", "Ruiz"])
        #expect(parts("  Bea   Lopez ") == ["Bea", "Lopez"])
        #expect(parts("Pelé") == ["Pelé", ""])
        #expect(PlayerName.full(firstName: "Ana María", surname: "Ruiz") == "Ana María Ruiz")
        #expect(PlayerName.full(firstName: "Pelé", surname: "") == "Pelé")
        #expect(PlayerName.initials("Ana María Ruiz") == "AR" && PlayerName.initials("pelé") == "P")
        var player = PlayerRecord(userID: "u", name: "Jo Ann Smith")
        #expect(player.firstName == "Jo Ann" && player.surname == "Smith" && player.name == "Jo Ann Smith")
        player.surname = "Lee"
        #expect(player.name == "Jo Ann Lee")
    }

    @Test(arguments: TestDatabase.all)
    func apiTakesFirstNameSurnameAndStillTheOldName(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (userID, token) = try await server.signUp("namer")

            // The new members: name is "First Surname", the parts are given back apart.
            let made = try await server.request(
                .post, "/api/players", token: token, json: ["firstName": "Ana María", "surname": "Ruiz", "number": "7"])
            #expect(made.status == .created, "\(made.text)")
            #expect(made.json["name"] as? String == "Ana María Ruiz")
            #expect(made.json["firstName"] as? String == "Ana María" && made.json["surname"] as? String == "Ruiz" && made.json["number"] as? String == "7")
            let anaID = try #require(made.json["id"] as? String)

            // An old client's name alone still works, split at the last space; one word is a
            // first name without a surname; no number is still accepted from the API.
            let old = try await server.request(.post, "/api/players", token: token, json: ["name": "Bea de la Cruz"])
            #expect(old.status == .created && old.json["firstName"] as? String == "Bea de la" && old.json["surname"] as? String == "Cruz")
            #expect(old.json["name"] as? String == "Bea de la Cruz" && old.json["number"] == nil)
            let single = try await server.request(.post, "/api/players", token: token, json: ["name": "Pelé", "number": "10"])
            #expect(single.status == .created && single.json["firstName"] as? String == "Pelé" && single.json["surname"] as? String == "")

            // A missing or empty surname is refused, naming the field; so is a missing first name.
            let noSurname = try await server.request(.post, "/api/players", token: token, json: ["firstName": "Cleo", "number": "3"])
            #expect(noSurname.status == .unprocessableContent && noSurname.problemField == "surname", "\(noSurname.text)")
            #expect(noSurname.text.contains("needs a surname"))
            let emptySurname = try await server.request(.post, "/api/players", token: token, json: ["firstName": "Cleo", "surname": " "])
            #expect(emptySurname.status == .unprocessableContent && emptySurname.problemField == "surname")
            let noFirst = try await server.request(.post, "/api/players", token: token, json: ["surname": "Ruiz"])
            #expect(noFirst.status == .unprocessableContent && noFirst.problemField == "firstName")
            let nothing = try await server.request(.post, "/api/players", token: token, json: ["number": "4"])
            #expect(Set(((nothing.json["errors"] as? [[String: Any]]) ?? []).compactMap { $0["field"] as? String }) == ["firstName", "surname"])
            let both = try await server.request(.post, "/api/players", token: token, json: ["name": "Cleo Park", "firstName": "Cleo", "surname": "Park"])
            #expect(both.status == .unprocessableContent && both.problemField == "name")

            // PATCH: either part alone changes that part; an empty surname is refused; the old
            // name still renames (split).
            let renamed = try await server.request(.patch, "/api/players/\(anaID)", token: token, json: ["surname": "Ruiz Gómez"])
            #expect(renamed.status == .ok && renamed.json["name"] as? String == "Ana María Ruiz Gómez")
            // An older client sending back the name it read changes nothing (not split again
            // into "Ana María Ruiz" / "Gómez").
            let echoed = try await server.request(.patch, "/api/players/\(anaID)", token: token, json: ["name": "Ana María Ruiz Gómez", "number": "7"])
            #expect(echoed.status == .ok && echoed.json["firstName"] as? String == "Ana María" && echoed.json["surname"] as? String == "Ruiz Gómez", "\(echoed.text)")
            let cleared = try await server.request(.patch, "/api/players/\(anaID)", token: token, json: ["surname": ""])
            #expect(cleared.status == .unprocessableContent && cleared.problemField == "surname")
            let oldRename = try await server.request(.patch, "/api/players/\(anaID)", token: token, json: ["name": "Ana Ruiz"])
            #expect(oldRename.json["firstName"] as? String == "Ana" && oldRename.json["surname"] as? String == "Ruiz")

            // Stored apart on this engine.
            let stored = try #require(try await server.store.teams.player(id: anaID, userID: userID))
            #expect(stored.firstName == "Ana" && stored.surname == "Ruiz" && stored.number == "7")
        }
    }

    @Test(arguments: TestDatabase.all)
    func webFormAsksAllThreeAndTheListGroupsByTeam(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (userID, token) = try await server.signUp("grouper")
            let session = try await server.webSession("grouper")
            let zebras = try #require(try await server.request(.post, "/api/teams", token: token, json: ["name": "Zebras"]).json["id"] as? String)
            let alphas = try #require(try await server.request(.post, "/api/teams", token: token, json: ["name": "Alphas"]).json["id"] as? String)
            _ = try await server.request(.post, "/api/teams", token: token, json: ["name": "Empty"])

            // The web form: a number is required there (not in the API); what was typed stays.
            let missing = try await WebTeamPageTests.form(server, "/players", "firstName=Kim&surname=Lee&number=&teamID=\(alphas)", session: session)
            #expect(missing.status == .unprocessableContent && missing.text.contains("A player needs a number"))
            #expect(missing.text.contains("value=\"Kim\"") && missing.text.contains("value=\"Lee\""))
            #expect(missing.text.contains("<option value=\"\(alphas)\" selected>Alphas</option>"), "the chosen team stays chosen")
            let noSurname = try await WebTeamPageTests.form(server, "/players", "firstName=Kim&surname=&number=5", session: session)
            #expect(noSurname.status == .unprocessableContent && noSurname.text.contains("id=\"player-surname-error\""))

            // Players in two teams and in none, numbers out of order (10 after 2), a tie on
            // number broken by surname.
            var ids = [String: String]()
            for (first, surname, number, team) in [
                ("Kim", "Lee", "10", alphas), ("Ana", "Ruiz", "2", alphas), ("Bo", "Zane", "2", alphas), ("Eli", "Abel", "", alphas),
                ("Yan", "Ng", "1", zebras), ("Ola", "Free", "9", ""), ("Pia", "Alone", "3", ""),
            ] {
                let reply = try await WebTeamPageTests.form(
                    server, "/players", "firstName=\(first)&surname=\(surname)&number=\(number.isEmpty ? "x" : number)&teamID=\(team)", session: session)
                #expect(reply.status == .seeOther, "\(reply.text)")
                let listed = try #require(try await server.request(.get, "/api/players", token: token).json["players"] as? [[String: Any]])
                ids[first] = try #require(listed.first { $0["firstName"] as? String == first }?["id"] as? String)
            }
            // Eli's number cleared through the API (old clients may leave it out): last in the group.
            _ = try await server.request(.patch, "/api/players/\(ids["Eli"]!)", token: token, json: ["number": NSNull()])

            // The service's groups: teams by name, then no team; by number, then surname.
            let user = try #require(try await server.store.users.find(id: userID))
            let groups = PlayerGroup.byTeam(try await server.services.teams.players(of: user), teams: try await server.services.teams.teams(of: user))
            #expect(groups.map { $0.team?.name ?? "-" } == ["Alphas", "Zebras", "-"])
            #expect(groups.map { $0.players.map(\.firstName) } == [["Ana", "Bo", "Kim", "Eli"], ["Yan"], ["Pia", "Ola"]])

            // The page shows the same order under the teams' names, then "Not in a team".
            let page = try await WebPageTests.page(server, "/teams", cookie: session.cookie)
            let html = page.text
            func position(_ text: String) -> Int { html.range(of: text).map { html.distance(from: html.startIndex, to: $0.lowerBound) } ?? -1 }
            let order = ["Ana", "Bo", "Kim", "Eli", "Yan", "Pia", "Ola"].map { position("data-player=\"\(ids[$0]!)\"") }
            #expect(!order.contains(-1) && order == order.sorted(), "\(order)")
            let headings = [">Alphas</a>", ">Zebras</a>", "Not in a team"].map(position)
            #expect(!headings.contains(-1) && headings == headings.sorted())
            #expect(position(">Alphas</a>") < order[0] && position(">Zebras</a>") < order[4] && order[3] < position(">Zebras</a>"))
            #expect(position("Not in a team") < order[5] && order[4] < position("Not in a team"))
            #expect(html.contains("4 players") && html.contains("1 player<"))
            #expect(html.components(separatedBy: "data-player-group").count - 1 == 3, "a team without players has no group")
        }
    }

    @Test(arguments: TestDatabase.all)
    func aOneWordPlayersPageSaysTheSurnameIsMissing(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("oneword")
            let session = try await server.webSession("oneword")
            let id = try #require(try await server.request(.post, "/api/players", token: token, json: ["name": "Pelé"]).json["id"] as? String)
            let page = try await WebPageTests.page(server, "/players/\(id)", cookie: session.cookie)
            #expect(page.status == .ok && page.text.contains("Surname not given"))
            #expect(page.text.contains("id=\"firstName\"") && page.text.contains("value=\"Pelé\"") && page.text.contains("id=\"surname\""))
            // Saving the form needs a surname and a number, and says so next to each.
            let refused = try await WebTeamPageTests.form(server, "/players/\(id)", "firstName=Pel%C3%A9&surname=&number=", session: session)
            #expect(refused.status == .unprocessableContent && refused.text.contains("id=\"surname-error\"") && refused.text.contains("id=\"number-error\""))
            let saved = try await WebTeamPageTests.form(server, "/players/\(id)", "firstName=Pel%C3%A9&surname=Nascimento&number=10", session: session)
            #expect(saved.status == .seeOther)
            let after = try await server.request(.get, "/api/players/\(id)", token: token)
            #expect(after.json["name"] as? String == "Pelé Nascimento" && after.json["number"] as? String == "10")
            #expect(!(try await WebPageTests.page(server, "/players/\(id)", cookie: session.cookie)).text.contains("Surname not given"))
        }
    }
}
