import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkCore
import HeartworkTestSupport
import Testing

/// Issue 25, FitLabTeam F8: a team session's context (time, moment, situation, state), chosen
/// at the start, stored with the session (migration 027, both engines), editable in review,
/// exported, and a filter of the session list; and (F11) the session's artifact correction.
@Suite("Team session context")
struct TeamSessionContextTests {
    /// A team with two players wearing straps heard for `seconds` from `start`.
    static func squad(_ server: ServerHarness, token: String, start: Date, seconds: Int = 120) async throws -> (team: String, sensors: [String: String]) {
        let sensors = try await TeamAPITests.hear(server, token: token, addresses: ["A", "B"], from: start, seconds: seconds)
        let team = try #require(try await server.request(.post, "/api/teams", token: token, json: ["name": "Squad"]).json["id"] as? String)
        for (name, address) in [("Ana", "A"), ("Bea", "B")] {
            let made = try await server.request(
                .post, "/api/players", token: token,
                json: ["name": name, "restingHeartRate": 60, "maximumHeartRate": 190, "teamID": team, "sensorID": sensors[address]!])
            #expect(made.status == .created)
        }
        return (team, sensors)
    }

    @Test func theSeedsValueListsVerbatim() {
        // seed-001 digest, F8 "Settings" popover: the four lines, in the seed's order.
        #expect(
            SessionContext.Time.allCases.map(\.rawValue) == ["5-15 min", "30 min", "2h", "3h", "4-6h", "6-8h", "10-12h", "12-18h", "18-24h", "1d", "2d", "+2"])
        #expect(SessionContext.Moment.allCases.map(\.rawValue) == ["After", "Before"])
        #expect(
            SessionContext.Situation.allCases.map(\.rawValue) == ["Training", "Championship", "Injury", "Exam", "Business", "Concert", "Movie/Theatre", "Other"])
        #expect(SessionContext.State.allCases.map(\.rawValue) == ["Seated", "Lying", "Moving"])
        let context = SessionContext(time: .twoHours, moment: .after, situation: .training, state: .seated)
        #expect(context.summary == "2 h · After · Training · Seated")
        #expect(SessionContext().summary == nil)
        #expect(context.matches(SessionContext(situation: .training)) && !context.matches(SessionContext(state: .lying)))
        #expect(!SessionContext().matches(SessionContext(moment: .after)), "a session without the setting does not pass a filter on it")
        // Every mistake at once, each naming its field and the values it may take.
        #expect(throws: AppError.self) { try SessionContextInput(time: "2 hours").context() }
        do {
            _ = try SessionContextInput(time: "2 hours", moment: "During", situation: "Training", state: "Standing").context()
        } catch {
            #expect(error.allFieldErrors.map(\.field) == ["context.time", "context.moment", "context.state"])
            #expect(error.allFieldErrors.first?.detail.contains("'5-15 min'") == true)
        }
    }

    @Test(arguments: TestDatabase.all)
    func chosenAtStartStoredEditedFilteredAndExported(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (userID, token) = try await server.signUp("coach")
            let user = try #require(try await server.store.users.find(id: userID))
            let start = Date().addingTimeInterval(-3600)
            let (team, _) = try await Self.squad(server, token: token, start: start)

            // The API refuses a value that is not one of the seed's, naming the field.
            let bad = try await server.request(.post, "/api/teams/\(team)/sessions", token: token, json: ["context": ["situation": "Party"]])
            #expect(bad.status == .unprocessableContent && bad.problemField == "context.situation", "\(bad.text)")
            #expect(bad.text.contains("Movie/Theatre"), "the message lists the values")
            #expect(try await server.request(.post, "/api/teams/\(team)/sessions", token: token, json: ["correction": "none"]).problemField == "correction")

            // A session with its context, from the API.
            let first = try await server.request(
                .post, "/api/teams/\(team)/sessions", token: token,
                json: ["context": ["time": "+2", "moment": "After", "situation": "Movie/Theatre", "state": "Lying"], "correction": "fitlab"])
            #expect(first.status == .created, "\(first.text)")
            let firstID = try #require(first.json["id"] as? String)
            let context = first.json["context"] as? [String: Any]
            #expect(context?["time"] as? String == "+2" && context?["situation"] as? String == "Movie/Theatre" && context?["state"] as? String == "Lying")
            #expect(first.json["correction"] as? String == "fitlab")
            #expect(try await server.request(.post, "/api/team-sessions/\(firstID)/save", token: token).status == .ok)

            // A second one without context (as before issue 25), through the service in the past.
            let second = try await server.services.teamSessions.start(teamID: team, participants: nil, for: user, now: start)
            _ = try await server.services.teamSessions.save(second.id, of: user, now: start.addingTimeInterval(120))
            let plain = try await server.request(.get, "/api/team-sessions/\(second.id)", token: token)
            #expect((plain.json["context"] as? [String: Any])?.isEmpty == true && plain.json["correction"] as? String == "kubios")

            // Stored: read back from the store on this engine.
            let stored = try await server.services.teamSessions.session(firstID, of: user)
            #expect(stored.context == SessionContext(time: .moreThanTwoDays, moment: .after, situation: .movieTheatre, state: .lying))
            #expect(stored.correction == .fitlab)

            // Edited: a member sets, null clears, an absent one stays.
            let edited = try await server.request(
                .patch, "/api/team-sessions/\(second.id)", token: token, json: ["context": ["situation": "Training", "state": "Seated"]])
            #expect((edited.json["context"] as? [String: Any])?["situation"] as? String == "Training", "\(edited.text)")
            let cleared = try await server.request(.patch, "/api/team-sessions/\(second.id)", token: token, json: ["context": ["state": NSNull()]])
            let clearedContext = cleared.json["context"] as? [String: Any]
            #expect(clearedContext?["situation"] as? String == "Training" && clearedContext?["state"] == nil)
            #expect(
                try await server.request(.patch, "/api/team-sessions/\(second.id)", token: token, json: ["context": ["moment": "During"]]).problemField
                    == "context.moment")
            #expect(try await server.request(.patch, "/api/team-sessions/\(second.id)", token: token, json: ["context": ["colour": "red"]]).status == .unprocessableContent)

            // Filtered: by any setting, several at once; a value that is not the seed's is 400.
            func listed(_ query: String) async throws -> [String] {
                let list = try await server.request(.get, "/api/teams/\(team)/sessions?\(query)", token: token)
                #expect(list.status == .ok, "\(list.text)")
                return ((list.json["sessions"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
            }
            #expect(try await listed("").count == 2)
            #expect(try await listed("context.situation=Training") == [second.id])
            #expect(try await listed("context.situation=Movie%2FTheatre&context.time=%2B2") == [firstID])
            #expect(try await listed("context.situation=Training&context.state=Seated").isEmpty)
            #expect(try await listed("context.moment=Before").isEmpty)
            let wrong = try await server.request(.get, "/api/teams/\(team)/sessions?context.state=Standing", token: token)
            #expect(wrong.status == .badRequest && wrong.problemField == "context.state" && wrong.text.contains("Moving"))

            // Exported: every CSV row carries the context; the JSON has it in the session.
            let csv = try await server.request(.get, "/api/team-sessions/\(firstID)/export?format=csv", token: token)
            let lines = csv.text.split(separator: "\r\n")
            #expect(lines.first == "player,number,sensor,second,time,bpm,zone,context_time,context_moment,context_situation,context_state")
            // "+2" begins with a sign: a spreadsheet would run it, so it is written '+2 (the export's rule).
            #expect(lines.dropFirst().allSatisfy { $0.hasSuffix(",'+2,After,Movie/Theatre,Lying") })
            let plainCSV = try await server.request(.get, "/api/team-sessions/\(second.id)/export?format=csv", token: token)
            #expect(plainCSV.text.split(separator: "\r\n").dropFirst().first?.hasSuffix(",,,Training,") == true)
            let json = try await server.request(.get, "/api/team-sessions/\(firstID)/export?format=json", token: token)
            #expect(((json.json["session"] as? [String: Any])?["context"] as? [String: Any])?["moment"] as? String == "After")

            // Nobody else's: another coach can neither read, filter nor change it.
            let (_, other) = try await server.signUp("rival")
            #expect(try await server.request(.patch, "/api/team-sessions/\(firstID)", token: other, json: ["context": ["time": "1d"]]).status == .notFound)
            #expect(try await server.request(.get, "/api/teams/\(team)/sessions?context.time=1d", token: other).status == .notFound)
            #expect(try await server.services.teamSessions.session(firstID, of: user).context.time == .moreThanTwoDays)
        }
    }

    @Test func theCorrectionChosenPerSessionIsTheOneItsHRVUses() async throws {
        try await ServerHarness.run { server in
            let (userID, token) = try await server.signUp("coach")
            let user = try #require(try await server.store.users.find(id: userID))
            let start = Date().addingTimeInterval(-3600)
            let (team, _) = try await Self.squad(server, token: token, start: start, seconds: 300)
            let session = try await server.services.teamSessions.start(teamID: team, participants: nil, for: user, now: start)
            _ = try await server.services.teamSessions.save(session.id, of: user, now: start.addingTimeInterval(300))
            func corrections() async throws -> [String?] {
                let review = try await server.request(.get, "/api/team-sessions/\(session.id)/review", token: token)
                return ((review.json["players"] as? [[String: Any]]) ?? []).map { ($0["hrv"] as? [String: Any])?["correction"] as? String }
            }
            #expect(try await corrections() == ["kubios", "kubios"])
            #expect(try await server.request(.patch, "/api/team-sessions/\(session.id)", token: token, json: ["correction": "fitlab"]).status == .ok)
            #expect(try await corrections() == ["fitlab", "fitlab"])
            #expect(try await server.request(.patch, "/api/team-sessions/\(session.id)", token: token, json: ["correction": "none"]).problemField == "correction")
        }
    }

    @Test func pagesChooseShowEditAndFilter() async throws {
        try await ServerHarness.run { server in
            let (userID, token) = try await server.signUp("coachweb")
            let user = try #require(try await server.store.users.find(id: userID))
            let web = try await server.webSession("coachweb")
            let (team, _) = try await Self.squad(server, token: token, start: Date().addingTimeInterval(-120))

            // The coach screen offers the four lines before the start.
            let coach = try await WebPageTests.page(server, "/teams/\(team)/live", cookie: web.cookie)
            #expect(coach.text.contains("name=\"situation\"") && coach.text.contains("Movie/Theatre") && coach.text.contains("more than 2 days"))
            let refused = try await WebTeamPageTests.form(server, "/teams/\(team)/sessions", "countdownSeconds=0&situation=Party", session: web)
            #expect(refused.status == .unprocessableContent && refused.text.contains("Party"))
            let picked = try #require(try await server.request(.get, "/api/players", token: token).json["players"] as? [[String: Any]])
                .compactMap { $0["id"] as? String }.map { "&players%5B%5D=\($0)" }.joined()
            try await TeamAPITests.hearAgain(server, token: token, addresses: ["A", "B"])
            let started = try await WebTeamPageTests.form(
                server, "/teams/\(team)/sessions", "countdownSeconds=0&durationMinutes=&time=2h&moment=Before&situation=Exam&state=Seated\(picked)",
                session: web)
            #expect(started.status == .seeOther)
            let id = try #require(try await server.services.teamSessions.openSession(of: team, for: user)?.id)
            #expect(try await server.services.teamSessions.session(id, of: user).context == SessionContext(time: .twoHours, moment: .before, situation: .exam, state: .seated))
            _ = try await server.services.teamSessions.save(id, of: user)

            // Shown in the review, and edited there.
            let review = try await WebPageTests.page(server, "/team-sessions/\(id)", cookie: web.cookie)
            #expect(review.text.contains("2 h · Before · Exam · Seated"))
            let edited = try await WebTeamPageTests.form(server, "/team-sessions/\(id)/context", "time=1d&moment=After&situation=Championship&state=", session: web)
            #expect(edited.status == .seeOther)
            #expect(try await server.services.teamSessions.session(id, of: user).context == SessionContext(time: .oneDay, moment: .after, situation: .championship))
            let wrong = try await WebTeamPageTests.form(server, "/team-sessions/\(id)/context", "time=3+days", session: web)
            #expect(wrong.status == .unprocessableContent && wrong.text.contains("field-error"))
            let correction = try await WebTeamPageTests.form(server, "/team-sessions/\(id)/correction", "correction=fitlab", session: web)
            #expect(correction.status == .seeOther)
            let after = try await WebPageTests.page(server, "/team-sessions/\(id)", cookie: web.cookie)
            #expect(
                after.text.contains("1 day · After · Championship") && after.text.contains("FitLab (the seed&#39;s own corrector)")
                    || after.text.contains("FitLab (the seed's own corrector)"))

            // The team page's filter.
            let all = try await WebPageTests.page(server, "/teams/\(team)", cookie: web.cookie)
            #expect(all.text.contains("1 day · After · Championship") && all.text.contains("name=\"situation\""))
            let none = try await WebPageTests.page(server, "/teams/\(team)?situation=Injury", cookie: web.cookie)
            #expect(none.status == .ok && none.text.contains("No session has this context") && !none.text.contains("/team-sessions/\(id)\""))
            let some = try await WebPageTests.page(server, "/teams/\(team)?situation=Championship&time=1d", cookie: web.cookie)
            #expect(some.text.contains("/team-sessions/\(id)\""))
            #expect(try await WebPageTests.page(server, "/teams/\(team)?state=Standing", cookie: web.cookie).status == .badRequest)
        }
    }
}
