import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkCore
import HeartworkStore
import HeartworkTestSupport
import Testing

/// Issue 25: a user's own exercises — made by them, or by an import for a name the catalogue
/// lacks — keep their whole history and 1RM, are seen by their owner only, and go with the
/// account. Both databases.
@Suite("Custom exercises")
struct CustomExerciseTests {
    static func ready(_ server: ServerHarness, _ name: String) async throws -> (id: String, token: String) {
        let (id, token) = try await server.signUp(name)
        try await server.request(.put, "/api/strength/settings", token: token, json: ["acceptDisclaimer": true])
        return (id, token)
    }

    @Test(arguments: TestDatabase.all)
    func aUserMakesTheirOwnAndOnlyTheySeeIt(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await Self.ready(server, "maker")
            let created = try await server.request(
                .post, "/api/exercises", token: token, json: ["name": "Snatch Grip Push Press", "group": "Shoulders", "equipment": "barbell"])
            #expect(created.status == .created)
            let id = try #require(created.json["id"] as? String)
            #expect(id.hasPrefix("custom-") && created.headers[.location] == "/api/exercises/\(id)")
            #expect(created.json["custom"] as? Bool == true && created.json["bodyweight"] as? Bool == false)
            #expect((created.json["stats"] as? [String: Any])?["coldStart"] as? Bool == true)
            let list = try #require(try await server.request(.get, "/api/exercises?group=Shoulders", token: token).json["exercises"] as? [[String: Any]])
            #expect(list.contains { $0["id"] as? String == id && $0["custom"] as? Bool == true })
            #expect(list.filter { $0["custom"] as? Bool == false }.count >= 30)
            #expect(try await server.request(.get, "/api/exercises/\(id)", token: token).status == .ok)

            // The same name again (any word order or case), or a catalogue exercise's name or
            // alias: a conflict naming the field; bad values: 422 naming theirs; nothing stored.
            let again = try await server.request(.post, "/api/exercises", token: token, json: ["name": "push press snatch grip", "group": "Shoulders"])
            #expect(again.status == .conflict && again.problemField == "name")
            let catalogue = try await server.request(.post, "/api/exercises", token: token, json: ["name": "Clean and Jerk (Barbell)", "group": "Legs"])
            #expect(catalogue.status == .conflict && catalogue.text.contains("Clean and Jerk"))
            for (body, field) in [
                (["name": "", "group": "Legs"], "name"), (["name": "Thing", "group": "Toes"], "group"),
                (["name": "Thing", "group": "Legs", "equipment": "spaceship"], "equipment"), (["name": "Thing", "group": "Legs", "measure": "laps"], "measure"),
                (["name": String(repeating: "x", count: 81), "group": "Legs"], "name"),
            ] {
                let bad = try await server.request(.post, "/api/exercises", token: token, json: body)
                #expect(bad.status == .unprocessableContent && bad.problemField == field, "\(body): \(bad.status) \(bad.text)")
            }
            let unknown = try await server.request(.post, "/api/exercises", token: token, json: ["name": "X", "group": "Legs", "colour": "red"])
            #expect(unknown.status == .unprocessableContent && unknown.problemField == "colour")
            #expect(try await server.services.strength.customExercises(for: try #require(try await server.store.users.find(username: "maker"))).count == 1)

            // Another user: invisible (404), not in their list, cannot reset it.
            let (_, other) = try await Self.ready(server, "other")
            #expect(try await server.request(.get, "/api/exercises/\(id)", token: other).status == .notFound)
            #expect(try await server.request(.post, "/api/exercises/\(id)/reset", token: other).status == .notFound)
            let theirs = try #require(try await server.request(.get, "/api/exercises", token: other).json["exercises"] as? [[String: Any]])
            #expect(!theirs.contains { $0["id"] as? String == id })
            // They may use the same name for their own.
            #expect(
                try await server.request(.post, "/api/exercises", token: other, json: ["name": "Snatch Grip Push Press", "group": "Shoulders"]).status == .created)
        }
    }

    /// An imported name nothing matches becomes the user's own exercise with its whole history
    /// and a 1RM (golden: Brzycki as the seed codes it, digest §3.3.6 — 50 kg × 8 → 50 × 36 /
    /// (37 − 8) = 62.07 kg); importing again makes no second one; deleting the account deletes it.
    @Test(arguments: TestDatabase.all)
    func anUnmatchedImportBecomesACustomExerciseWithHistoryAndOneRepMax(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (userID, token) = try await Self.ready(server, "importer")
            let csv = """
                Date,Workout Name,Duration,Exercise Name,Set Order,Weight (kg),Reps,Distance (meters),Seconds,Notes,Workout Notes,RPE
                2024-03-04 18:02:11,"Evening Workout",1h 5m,"Zercher Good Morning",W,30.0,10.0,0,0.0,"","",
                2024-03-04 18:02:11,"Evening Workout",1h 5m,"Zercher Good Morning",1,50.0,8.0,0,0.0,"","",8
                2024-03-04 18:02:11,"Evening Workout",1h 5m,"Clean and Jerk (Barbell)",1,80.0,1.0,0,0.0,"","",
                2024-03-04 18:02:11,"Evening Workout",1h 5m,"Plank",1,0,0,0,60.0,"","",
                2024-03-06 07:30:00,"Morning",45m,"Zercher Good Morning",1,45.0,10.0,0,0.0,"","",

                """
            let first = try await server.importStrength(token, csv)
            #expect(first.status == .ok)
            #expect((first.json["mapped"] as? [String: String])?["Clean and Jerk (Barbell)"] == "clean-and-jerk")
            #expect((first.json["unmapped"] as? [String: Int])?["Zercher Good Morning"] == 3)
            let id = try #require((first.json["customExercises"] as? [String: String])?["Zercher Good Morning"])
            let seeded = try #require(first.json["seededOneRepMaxes"] as? [String: Double])
            #expect(abs((seeded[id] ?? 0) - 50 * 36 / 29) < 0.01, "\(seeded)")
            let detail = try await server.request(.get, "/api/exercises/\(id)", token: token)
            let exercise = try #require(detail.json["exercise"] as? [String: Any])
            #expect(exercise["name"] as? String == "Zercher Good Morning" && exercise["custom"] as? Bool == true)
            // Its group is borrowed from the catalogue's "Good Morning" (Legs).
            #expect(exercise["group"] as? String == "Legs")
            #expect(abs(((exercise["stats"] as? [String: Any])?["oneRepMax"] as? Double ?? 0) - 62.07) < 0.01)
            #expect((detail.json["progress"] as? [[String: Any]])?.count == 2)
            // The plank's 60 seconds are its reps, as the app logs holds.
            let sessions = try #require(try await server.request(.get, "/api/strength/sessions", token: token).json["sessions"] as? [[String: Any]])
            let sessionID = try #require(sessions.first { $0["name"] as? String == "Evening Workout" }?["id"] as? String)
            let sets = try #require(try await server.request(.get, "/api/strength/sessions/\(sessionID)", token: token).json["sets"] as? [[String: Any]])
            #expect(sets.count == 4 && sets.contains { $0["exerciseID"] as? String == "plank" && $0["reps"] as? Int == 60 })

            // Again, and a later file with the same name: the same exercise, no second one.
            _ = try await server.importStrength(token, csv)
            let later = csv.replacingOccurrences(of: "2024-03-06 07:30:00", with: "2024-03-09 07:30:00")
            let third = try await server.importStrength(token, later)
            #expect((third.json["customExercises"] as? [String: String])?["Zercher Good Morning"] == id)
            let user = try #require(try await server.store.users.find(username: "importer"))
            #expect(try await server.services.strength.customExercises(for: user).map(\.id) == [id])

            // The account export lists it; deleting the account deletes it.
            let table = try #require(AccountData.tables.first { $0.name == "strength_custom_exercises" })
            #expect(try await server.store.accountRows(table, userID: userID).count == 1)
            #expect(try await server.store.deleteAccount(userID: userID, username: "importer"))
            #expect(try await server.store.count(table: "strength_custom_exercises", column: "user_id", equalTo: userID) == 0)
            #expect(try await server.store.count(table: "exercise_stats", column: "exercise_id", equalTo: id) == 0)
        }
    }

    /// A whole weightlifting history as Strong exports it: every set row lands in the store,
    /// and the lifter's own names become their exercises.
    /// An import makes at most the user's remaining room of own exercises (review finding: a
    /// file of 200,000 made-up names made 200,000 rows); the sets past the cap are skipped and
    /// each is named with the reason, and the names the user already has still take theirs.
    /// A name longer than 80 characters is kept to 80 and found again by the next import (it
    /// used to fail that import for good).
    @Test func anImportMakesNoMoreOwnExercisesThanTheCapAndSaysWhichSetsWaited() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await Self.ready(server, "hoarder")
            let header = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
            let limit = StrengthService.maximumCustomExercises
            let long = "Zercher Deficit Pause Squat With Chains And Bands From Pins Below Parallel Variation X"
            var rows = (0..<(limit + 3)).map { "2024-02-01 07:00:00,\"Odd\",1h,\"Made Up Lift \($0)\",1,40,5,0,0,\"\",\"\"," }
            rows.insert("2024-02-01 07:00:00,\"Odd\",1h,\"\(long)\",1,40,5,0,0,\"\",\"\",", at: 0)
            let reply = try await server.importStrength(token, header + rows.joined(separator: "\n"))
            #expect(reply.status == .ok, "\(reply.text.prefix(300))")
            let user = try #require(try await server.store.users.find(username: "hoarder"))
            #expect(try await server.services.strength.customExercises(for: user).count == limit)
            let skipped = reply.json["skippedRows"] as? [String] ?? []
            #expect(skipped.count == 4 && skipped.allSatisfy { $0.contains("the most there can be") }, "\(skipped)")
            #expect(try await server.services.strength.customExercises(for: user).contains { $0.name == String(long.prefix(80)) })
            // The long name again, a day later: found, not a failed import.
            let again = header + "2024-02-02 07:00:00,\"Odd\",1h,\"\(long)\",1,45,5,0,0,\"\",\"\","
            let second = try await server.importStrength(token, again)
            #expect(second.status == .ok && second.json["imported"] as? Int == 1, "\(second.text.prefix(300))")
        }
    }

    @Test func aWholeStrongHistoryLosesNoSet() async throws {
        try await ServerHarness.run { server in
            let (userID, token) = try await Self.ready(server, "lifter")
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../HeartworkFormatsTests/Resources/lifting/strong-weightlifting.csv")
            let text = try String(contentsOf: url, encoding: .utf8)
            let rows = text.split(separator: "\n").dropFirst().filter { !$0.contains("Rest Timer") }.count
            let reply = try await server.importStrength(token, text)
            #expect(reply.status == .ok && reply.json["duplicates"] as? Int == 0)
            let stored = try await server.store.count(table: "strength_sets", column: "exercise_id", containing: "")
            #expect(stored == rows, "\(stored) sets stored of \(rows) rows")
            let customs = try #require(reply.json["customExercises"] as? [String: String])
            #expect(Set(customs.keys) == ["Snatch Grip Push Press", "Tempo Squat (Barbell)"])
            let unmatched = (reply.json["unmapped"] as? [String: Int] ?? [:]).values.reduce(0, +)
            #expect(Double(unmatched) / Double(rows) <= 0.05)
            #expect(try await server.store.count(table: "strength_custom_exercises", column: "user_id", equalTo: userID) == 2)
        }
    }

    /// The exercises page's form: an exercise is added and opens; a refusal shows the form
    /// again with what was sent; a stranger gets "not found".
    @Test func theExercisesPageFormAddsOne() async throws {
        try await ServerHarness.run { server in
            _ = try await Self.ready(server, "pager")
            let web = try await server.webSession("pager")
            var headers = HTTPFields()
            headers[.cookie] = web.cookie
            let page = try await server.request(.get, "/strength/exercises", headers: headers)
            #expect(page.status == .ok && page.text.contains("Add your own exercise") && page.text.contains("Clean and Jerk"))
            headers[.contentType] = "application/x-www-form-urlencoded"
            let made = try await server.request(
                .post, "/strength/exercises", raw: Data("_csrf=\(web.csrf)&name=Sandbag+Carry&group=Legs&equipment=other&timed=1".utf8), headers: headers)
            #expect(made.status == .seeOther)
            let location = try #require(made.headers[.location])
            #expect(location.hasPrefix("/strength/exercises/custom-"))
            headers[.contentType] = nil
            let shown = try await server.request(.get, location, headers: headers)
            #expect(shown.status == .ok && shown.text.contains("Sandbag Carry") && shown.text.contains("Your own exercise"))
            #expect(shown.text.contains("import the file"))  // how a custom exercise gets its sets
            headers[.contentType] = "application/x-www-form-urlencoded"
            let refused = try await server.request(
                .post, "/strength/exercises", raw: Data("_csrf=\(web.csrf)&name=sandbag+carry&group=Legs&equipment=other".utf8), headers: headers)
            #expect(refused.status == .conflict && refused.text.contains("already have an exercise") && refused.text.contains("value=\"sandbag carry\""))
            _ = try await server.signUp("nosy")
            let nosy = try await server.webSession("nosy")
            #expect(try await server.request(.get, location, headers: [.cookie: nosy.cookie]).status == .notFound)
        }
    }
}
