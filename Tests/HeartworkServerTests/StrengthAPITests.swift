import Crypto
import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 12: strength coaching and nutrition through the API, on both databases where the
/// store matters. Golden values name seed-002 digest sections.
@Suite("Strength API")
struct StrengthAPITests {
    static func ready(_ server: ServerHarness, _ name: String) async throws -> String {
        let (_, token) = try await server.signUp(name)
        try await server.request(.put, "/api/strength/settings", token: token, json: ["acceptDisclaimer": true])
        return token
    }

    static func sets(_ reply: ServerHarness.Reply) -> [[String: Any]] { reply.json["sets"] as? [[String: Any]] ?? [] }

    @Test(arguments: TestDatabase.all)
    func aWholeSessionFromColdStartToProgression(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("lifter")
            // The disclaimer comes first.
            let refused = try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "push-day-hypertrophy"])
            #expect(refused.status == .forbidden && refused.text.contains("disclaimer"))
            let settings = try await server.request(.put, "/api/strength/settings", token: token, json: ["acceptDisclaimer": true, "goal": "MassGain"])
            #expect(settings.json["disclaimerAcceptedAt"] != nil && settings.json["goal"] as? String == "MassGain")

            let routines = try #require(try await server.request(.get, "/api/routines", token: token).json["routines"] as? [[String: Any]])
            for goal in StrengthGoal.allCases {
                #expect(routines.filter { $0["goal"] as? String == goal.rawValue && $0["bodyweight"] as? Bool == false }.count >= 3, "\(goal)")
            }
            #expect(routines.filter { $0["bodyweight"] as? Bool == true }.count >= 3)
            let exercises = try #require(try await server.request(.get, "/api/exercises", token: token).json["exercises"] as? [[String: Any]])
            #expect(exercises.count >= 80)

            // First time: every exercise is a cold start, one "Maximum" set of 5 kg (digest §3.3.7),
            // or of the empty bar where that is heavier: 20 kg for a barbell, 10 kg for an EZ bar.
            let started = try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "push-day-hypertrophy"])
            #expect(started.status == .created)
            let id = try #require(started.json["id"] as? String)
            let first = Self.sets(started)
            func equipment(_ set: [String: Any]) -> String? {
                (set["exerciseID"] as? String).flatMap { id in exercises.first { $0["id"] as? String == id } }?["equipment"] as? String
            }
            func coldWeight(_ set: [String: Any]) -> Double { equipment(set) == "barbell" ? 20 : (equipment(set) == "ez-bar" ? 10 : 5) }
            let loaded = first.filter { ($0["exerciseID"] as? String).flatMap { id in exercises.first { $0["id"] as? String == id } }?["bodyweight"] as? Bool == false }
            #expect(!loaded.isEmpty && loaded.allSatisfy { ($0["target"] as? [String: Any])?["weight"] as? Double == coldWeight($0) })
            #expect(loaded.contains { coldWeight($0) == 20 } && loaded.contains { coldWeight($0) == 10 } && loaded.contains { coldWeight($0) == 5 })
            #expect(loaded.allSatisfy { $0["measure"] as? String == "reps" })
            #expect(first.allSatisfy { ($0["target"] as? [String: Any])?["maximum"] as? Bool == true && $0["reps"] == nil })
            #expect(Set(first.compactMap { $0["exerciseIndex"] as? Int }).count == first.count)  // one set per exercise
            // The lifter does 20 reps of each and marks them done; one set stays untouched.
            for set in first.dropLast() {
                let n = try #require(set["n"] as? Int)
                let logged = try await server.request(.put, "/api/strength/sessions/\(id)/sets/\(n)", token: token, json: ["reps": 20, "done": true])
                #expect(logged.status == .ok)
            }
            let finished = try await server.request(
                .post, "/api/strength/sessions/\(id)/finish", token: token,
                json: ["review": "Great session, felt strong and happy", "enjoyment": 5, "difficulty": 3])
            #expect(finished.status == .ok)
            let motivation = try #require(finished.json["motivation"] as? [String: Any])
            #expect((motivation["score"] as? Int ?? -9) > 0 && motivation["positive"] as? Bool == true && !(motivation["message"] as? String ?? "").isEmpty)
            let changes = try #require(finished.json["oneRepMaxes"] as? [[String: Any]])
            // w × 20 → w × 36 / 17 (digest §3.3.6: 5 kg → 10.588 kg) for every loaded exercise that was done.
            let coldByExercise = Dictionary(loaded.map { ($0["exerciseID"] as? String ?? "", coldWeight($0)) }, uniquingKeysWith: { a, _ in a })
            #expect(changes.count == loaded.count - (loaded.last?["n"] as? Int == first.last?["n"] as? Int ? 1 : 0))
            #expect(
                changes.allSatisfy { change in
                    let w = coldByExercise[change["exerciseID"] as? String ?? ""] ?? 0
                    return abs((change["after"] as? Double ?? 0) - w * 36 / 17) < 0.006 && change["before"] as? Double == 0
                })
            let totals = try #require((finished.json["session"] as? [String: Any])?["totals"] as? [String: Any])
            #expect(totals["sets"] as? Int == first.count - 1 && totals["reps"] as? Int == 20 * (first.count - 1))
            // Finishing twice is refused; nothing changes.
            #expect(try await server.request(.post, "/api/strength/sessions/\(id)/finish", token: token, json: ["enjoyment": 1, "difficulty": 1]).status == .conflict)

            // Next time: 4 sets of 8 at ceil(max(bar, w × 36 / 17 × (1.0278 − 0.0278 × 8) × 0.95ⁿ)) by group: 9 kg for
            // the 5 kg starts (10.588 kg 1RM), 35 kg from a 20 kg bar's start, 18 kg from the EZ bar's 10 kg.
            let second = try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "push-day-hypertrophy"])
            let secondSets = Self.sets(second)
            let doneBefore = Set(changes.compactMap { $0["exerciseID"] as? String })
            var seen = [String: Int]()
            for set in secondSets where doneBefore.contains(set["exerciseID"] as? String ?? "") {
                let exercise = try #require(exercises.first { $0["id"] as? String == set["exerciseID"] as? String })
                let group = exercise["group"] as? String ?? ""
                let index = set["exerciseIndex"] as? Int ?? 0
                let n = seen[group + "#\(index)"] ?? (seen.keys.filter { $0.hasPrefix(group + "#") }.count)
                seen[group + "#\(index)"] = n
                let w = coldByExercise[set["exerciseID"] as? String ?? ""] ?? 0
                let minimum = w == 5 ? 0 : w
                let expected = max(minimum, w * 36 / 17 * (1.0278 - 0.0278 * 8) * pow(0.95, Double(n))).rounded(.up)
                #expect((set["target"] as? [String: Any])?["weight"] as? Double == expected)
                #expect(set["reps"] as? Int == 8)
            }
            #expect(secondSets.count > first.count)
            // The untouched exercise is still a cold start.
            let untouched = try #require(first.last?["exerciseID"] as? String)
            #expect(secondSets.filter { $0["exerciseID"] as? String == untouched }.count == 1)

            // History, detail and the exercise's progress.
            let list = try #require(try await server.request(.get, "/api/strength/sessions", token: token).json["sessions"] as? [[String: Any]])
            #expect(list.count == 2 && list.last?["id"] as? String == id)
            let someExercise = try #require(changes.first?["exerciseID"] as? String)
            let detail = try await server.request(.get, "/api/exercises/\(someExercise)", token: token)
            #expect((detail.json["progress"] as? [[String: Any]])?.count == 1)
            // Reset sends it back to the cold start.
            let reset = try await server.request(.post, "/api/exercises/\(someExercise)/reset", token: token)
            #expect((reset.json["stats"] as? [String: Any])?["coldStart"] as? Bool == true)
        }
    }

    /// A correction within the day recomputes the exercise from where it stood before the
    /// session (a typo's 1RM can be taken back); once a later session used the exercise, a
    /// correction can only raise it.
    @Test func aFinishedSessionCanBeCorrectedFor24Hours() async throws {
        try await ServerHarness.run { server in
            let token = try await Self.ready(server, "corrector")
            let user = try #require(try await server.store.users.find(username: "corrector"))
            let strength = server.services.strength
            let began = Date().addingTimeInterval(-3 * 86_400)
            let view = try await strength.start(routineID: "full-body-maintenance", for: user, now: began)
            let n = try #require(view.sets.first { strength.catalogue.exercise($0.exerciseID)?.loaded == true }?.position)
            _ = try await strength.logSet(view.session.id, number: n, .init(reps: .set(10), weightKilograms: 40, done: true), for: user, now: began.addingTimeInterval(60))
            let finished = try await strength.finish(view.session.id, review: "", enjoyment: 3, difficulty: 3, for: user, now: began.addingTimeInterval(600))
            let exercise = try #require(finished.changes.first)
            #expect(abs(exercise.after - 40 * 36 / 27) < 1e-9)
            // A typo (36 reps) makes a 1RM of 1440 kg; correcting it to 5 takes it back to 40 × 36 / 32.
            _ = try await strength.logSet(view.session.id, number: n, .init(reps: .set(36)), for: user, now: began.addingTimeInterval(1800))
            #expect(try await server.store.strength.stats(userID: user.id)[exercise.exerciseID]?.stats.oneRepMaxKilograms == 1440)
            _ = try await strength.logSet(view.session.id, number: n, .init(reps: .set(5)), for: user, now: began.addingTimeInterval(3600))
            #expect(abs((try await server.store.strength.stats(userID: user.id)[exercise.exerciseID]?.stats.oneRepMaxKilograms ?? 0) - 45) < 1e-9)
            #expect(try await server.store.strength.stats(userID: user.id)[exercise.exerciseID]?.stats.mostReps == 5)
            // A later session with the exercise: from now on a correction only raises.
            let later = try await strength.start(routineID: "full-body-maintenance", for: user, now: began.addingTimeInterval(5000))
            _ = try await strength.finish(later.session.id, review: "", enjoyment: 3, difficulty: 3, for: user, now: began.addingTimeInterval(5400))
            _ = try await strength.logSet(view.session.id, number: n, .init(reps: .set(2)), for: user, now: began.addingTimeInterval(7000))
            #expect(abs((try await server.store.strength.stats(userID: user.id)[exercise.exerciseID]?.stats.oneRepMaxKilograms ?? 0) - 45) < 1e-9)
            _ = try await strength.logSet(view.session.id, number: n, .init(reps: .set(12)), for: user, now: began.addingTimeInterval(7200))
            #expect(abs((try await server.store.strength.stats(userID: user.id)[exercise.exerciseID]?.stats.oneRepMaxKilograms ?? 0) - 40 * 36 / 25) < 1e-9)
            // After 24 hours the log is closed (and the API says so).
            let late = try await server.request(.put, "/api/strength/sessions/\(view.session.id)/sets/\(n)", token: token, json: ["reps": 30])
            #expect(late.status == .conflict && late.text.contains("24 hours"))
        }
    }

    @Test func badInputIsRefusedWithItsFieldAndChangesNothing() async throws {
        try await ServerHarness.run { server in
            let token = try await Self.ready(server, "careful")
            let other = try await Self.ready(server, "intruder")
            let started = try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "lower-body-maintenance"])
            let id = try #require(started.json["id"] as? String)
            let path = "/api/strength/sessions/\(id)/sets/1"
            for (body, field) in [
                (["weight": -5], "weight"), (["weightKg": 1e308], "weight"), (["reps": 5000], "reps"), (["reps": -1], "reps"),
                (["reps": "ten"], "reps"), (["reps": 8.5], "reps"), (["weight": 10, "weightKg": 10], "weightKg"), (["sets": 3], "sets"),
            ] as [([String: Any], String)] {
                let reply = try await server.request(.put, path, token: token, json: body)
                #expect([.unprocessableContent, .badRequest].contains(reply.status), "\(body)")
                #expect(reply.problemField == field, "\(body): \(reply.text)")
            }
            #expect(try await server.request(.put, "/api/strength/sessions/\(id)/sets/0", token: token, json: ["reps": 1]).status == .notFound)
            #expect(try await server.request(.put, "/api/strength/sessions/\(id)/sets/999", token: token, json: ["reps": 1]).status == .notFound)
            #expect(try await server.request(.put, "/api/strength/sessions/\(id)/sets/99999999999999999999", token: token, json: ["reps": 1]).status == .notFound)
            // Someone else's session does not exist for them.
            #expect(try await server.request(.get, "/api/strength/sessions/\(id)", token: other).status == .notFound)
            #expect(try await server.request(.put, path, token: other, json: ["reps": 3, "done": true]).status == .notFound)
            #expect(try await server.request(.post, "/api/strength/sessions/\(id)/finish", token: other, json: ["enjoyment": 1, "difficulty": 1]).status == .notFound)
            let untouched = try await server.request(.get, "/api/strength/sessions/\(id)", token: token)
            #expect(Self.sets(untouched).allSatisfy { $0["done"] as? Bool == false } && untouched.json["finishedAt"] == nil)
            // Ratings and reviews.
            let badFinish = try await server.request(.post, "/api/strength/sessions/\(id)/finish", token: token, json: ["enjoyment": 9, "difficulty": -1])
            #expect(badFinish.status == .unprocessableContent && badFinish.problemField == "enjoyment")
            let long = try await server.request(
                .post, "/api/strength/sessions/\(id)/finish", token: token,
                json: ["review": String(repeating: "a", count: 5001), "enjoyment": 1, "difficulty": 1])
            #expect(long.problemField == "review")
            // Webhooks: http(s) only, no private or loopback targets by default.
            for url in [
                "ftp://example.org/x", "javascript:alert(1)", "http://127.0.0.1:9/hook", "http://[::1]/x", "http://localhost/x",
                "http://10.1.2.3/x", "http://169.254.169.254/latest", "https://user:pw@example.org/x", "http://2130706433/x", "http://0x7f.1/x",
                "http://localhost./x", "http://017700000001/x",
            ] {
                let reply = try await server.request(.put, "/api/strength/settings", token: token, json: ["webhookUrl": url])
                #expect(reply.status == .unprocessableContent && reply.problemField == "webhookUrl", "\(url)")
            }
            #expect(try await server.request(.get, "/api/strength/settings", token: token).json["webhookUrl"] == nil)
            #expect(try await server.request(.put, "/api/strength/settings", token: token, json: ["plateStepKg": 0]).problemField == "plateStepKg")
            #expect(try await server.request(.put, "/api/strength/settings", token: token, json: ["goal": "Bulk"]).problemField == "goal")
            // Unknown routines and built-in ones.
            #expect(try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "nope"]).status == .notFound)
            #expect(try await server.request(.delete, "/api/routines/push-day-hypertrophy", token: token).status == .forbidden)
            #expect(try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "push-day-hypertrophy", "sensor": "not-mine"]).status == .notFound)
        }
    }

    @Test(arguments: TestDatabase.all)
    func routinesAreCreatedOrderedEditedAndDeleted(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let token = try await Self.ready(server, "planner")
            let other = try await Self.ready(server, "nosy")
            let body: [String: Any] = ["name": "My push", "goal": "MassGain", "exercises": ["barbell-bench-press", "incline-dumbbell-press", "dumbbell-lateral-raise"]]
            let created = try await server.request(.post, "/api/routines", token: token, json: body)
            #expect(created.status == .created && created.headers[.location] != nil)
            let id = try #require(created.json["id"] as? String)
            #expect((created.json["exercises"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == body["exercises"] as? [String])
            #expect(try await server.request(.post, "/api/routines", token: token, json: body).status == .conflict)
            let bad = try await server.request(.post, "/api/routines", token: token, json: ["name": "X", "goal": "MassGain", "exercises": ["barbell-bench-press", "moon-press"]])
            #expect(bad.status == .unprocessableContent && bad.problemField == "exercises[1]")
            #expect(try await server.request(.post, "/api/routines", token: token, json: ["name": "", "goal": "MassGain", "exercises": []]).problemField == "name")
            let second = try #require(
                try await server.request(
                    .post, "/api/routines", token: token,
                    json: ["name": "Legs", "goal": "WeightLoss", "exercises": ["goblet-squat"]]
                ).json["id"] as? String)
            let ordered = try await server.request(.put, "/api/routines/order", token: token, json: ["order": [second, id]])
            #expect((ordered.json["routines"] as? [[String: Any]])?.prefix(2).compactMap { $0["id"] as? String } == [second, id])
            #expect(try await server.request(.put, "/api/routines/order", token: token, json: ["order": [id]]).status == .unprocessableContent)
            let edited = try await server.request(.put, "/api/routines/\(id)", token: token, json: ["name": "Push B", "goal": "MuscleMaintenance", "exercises": ["push-up"]])
            #expect(edited.json["name"] as? String == "Push B" && edited.json["bodyweight"] as? Bool == true)
            // Another user cannot see, change or delete it.
            #expect(try await server.request(.get, "/api/routines/\(id)", token: other).status == .notFound)
            #expect(try await server.request(.put, "/api/routines/\(id)", token: other, json: ["name": "Mine", "goal": "MassGain", "exercises": ["push-up"]]).status == .notFound)
            #expect(try await server.request(.delete, "/api/routines/\(id)", token: other).status == .notFound)
            #expect(try await server.request(.delete, "/api/routines/\(id)", token: token).status == .noContent)
            #expect(try await server.request(.get, "/api/routines/\(id)", token: token).status == .notFound)
        }
    }

    /// A value typed and a tap on ✓ sent at the same moment (the phone does exactly this when
    /// a field loses focus to the button): both land, on both databases.
    @Test(arguments: TestDatabase.all)
    func simultaneousEditsOfOneSetBothLand(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let token = try await Self.ready(server, "quick")
            let id = try #require(try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "upper-body-maintenance"]).json["id"] as? String)
            for n in 1...3 {
                async let reps = server.request(.put, "/api/strength/sessions/\(id)/sets/\(n)", token: token, json: ["reps": 10 + n])
                async let done = server.request(.put, "/api/strength/sessions/\(id)/sets/\(n)", token: token, json: ["done": true])
                async let weight = server.request(.put, "/api/strength/sessions/\(id)/sets/\(n)", token: token, json: ["weightKg": 6.5])
                #expect(try await [reps.status, done.status, weight.status] == [.ok, .ok, .ok])
            }
            let sets = Self.sets(try await server.request(.get, "/api/strength/sessions/\(id)", token: token)).prefix(3)
            #expect(sets.map { $0["reps"] as? Int } == [11, 12, 13])
            #expect(sets.allSatisfy { $0["done"] as? Bool == true && $0["weight"] as? Double == 6.5 && $0["doneAt"] != nil })
        }
    }

    /// A started session can be discarded (and a finished one deleted): 204, then it is gone
    /// with its sets; someone else's, or an unknown id, is 404 and stays.
    @Test(arguments: TestDatabase.all)
    func aSessionCanBeDiscardedOnlyByItsOwner(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let token = try await Self.ready(server, "quitter")
            let other = try await Self.ready(server, "meddler")
            let user = try #require(try await server.store.users.find(username: "quitter"))
            let id = try #require(try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "push-day-hypertrophy"]).json["id"] as? String)
            try await server.request(.put, "/api/strength/sessions/\(id)/sets/1", token: token, json: ["reps": 12, "done": true])
            #expect(try await server.request(.delete, "/api/strength/sessions/\(id)", token: other).status == .notFound)
            #expect(try await server.request(.get, "/api/strength/sessions/\(id)", token: token).status == .ok)
            #expect(try await server.request(.delete, "/api/strength/sessions/no-such-session", token: token).status == .notFound)
            let discarded = try await server.request(.delete, "/api/strength/sessions/\(id)", token: token)
            #expect(discarded.status == .noContent && discarded.text.isEmpty)
            #expect(try await server.request(.get, "/api/strength/sessions/\(id)", token: token).status == .notFound)
            #expect(try await server.request(.delete, "/api/strength/sessions/\(id)", token: token).status == .notFound)
            #expect(try await server.store.strength.session(id: id, userID: user.id) == nil)
            let list = try await server.request(.get, "/api/strength/sessions", token: token).json["sessions"] as? [[String: Any]]
            #expect(list?.isEmpty == true)
            // A finished one may be deleted too; the 1RMs it raised stay.
            let done = try #require(try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "push-day-hypertrophy"]).json["id"] as? String)
            try await server.request(.put, "/api/strength/sessions/\(done)/sets/1", token: token, json: ["reps": 10, "done": true])
            #expect(try await server.request(.post, "/api/strength/sessions/\(done)/finish", token: token, json: ["enjoyment": 3, "difficulty": 3]).status == .ok)
            #expect(try await server.request(.delete, "/api/strength/sessions/\(done)", token: token).status == .noContent)
            #expect(try await server.store.strength.session(id: done, userID: user.id) == nil)
            #expect((try await server.store.strength.stats(userID: user.id)["barbell-bench-press"]?.stats.oneRepMaxKilograms ?? 0) > 0)
        }
    }

    /// The web page's "Discard session" button: a CSRF-checked form that leads back to the hub.
    @Test func theSessionPageDiscardsWithItsButton() async throws {
        try await ServerHarness.run { server in
            _ = try await Self.ready(server, "tapper")
            let user = try #require(try await server.store.users.find(username: "tapper"))
            let view = try await server.services.strength.start(routineID: "posture-and-core", for: user)
            let web = try await server.webSession("tapper")
            var headers = HTTPFields()
            headers[.cookie] = web.cookie
            let page = try await server.request(.get, "/strength/sessions/\(view.session.id)", headers: headers)
            #expect(page.text.contains("action=\"/strength/sessions/\(view.session.id)/discard\"") && page.text.contains("Discard session"))
            #expect(page.text.contains("data-confirm=\"Discard this session?"))
            headers[.contentType] = "application/x-www-form-urlencoded"
            #expect(try await server.request(.post, "/strength/sessions/\(view.session.id)/discard", raw: Data("_csrf=wrong".utf8), headers: headers).status == .forbidden)
            let reply = try await server.request(.post, "/strength/sessions/\(view.session.id)/discard", raw: Data("_csrf=\(web.csrf)".utf8), headers: headers)
            #expect(reply.status == .seeOther && reply.headers[.location] == "/strength")
            #expect(try await server.store.strength.session(id: view.session.id, userID: user.id) == nil)
        }
    }

    /// The bar is a setting (20 kg until changed, 5–30 kg); barbell exercises start from it.
    @Test(arguments: TestDatabase.all)
    func theBarWeightIsASettingTheGeneratorHonours(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let token = try await Self.ready(server, "barbell")
            #expect(try await server.request(.get, "/api/strength/settings", token: token).json["barKg"] as? Double == 20)
            for bar in [4.0, 30.5, -20] {
                let refused = try await server.request(.put, "/api/strength/settings", token: token, json: ["barKg": bar])
                #expect(refused.status == .unprocessableContent && refused.problemField == "barKg", "\(bar)")
                #expect(refused.json["message"] as? String == "Enter a bar weight from 5 to 30 kg; an empty Olympic bar weighs 20 kg.")
            }
            #expect(try await server.request(.put, "/api/strength/settings", token: token, json: ["barKg": "heavy"]).status == .badRequest)
            let saved = try await server.request(.put, "/api/strength/settings", token: token, json: ["barKg": 15])
            #expect(saved.status == .ok && saved.json["barKg"] as? Double == 15)
            #expect(try await server.request(.get, "/api/strength/settings", token: token).json["barKg"] as? Double == 15)
            let started = try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "full-body-maintenance"])
            let squat = try #require(Self.sets(started).first { $0["exerciseID"] as? String == "barbell-back-squat" })
            #expect((squat["target"] as? [String: Any])?["weight"] as? Double == 15)
            let exercises = try #require(try await server.request(.get, "/api/exercises", token: token).json["exercises"] as? [[String: Any]])
            #expect(exercises.first { $0["id"] as? String == "barbell-back-squat" }?["minimumWeight"] as? Double == 15)
            #expect(exercises.first { $0["id"] as? String == "ez-bar-curl" }?["minimumWeight"] as? Double == 10)
            // null puts back the Olympic bar.
            #expect(try await server.request(.put, "/api/strength/settings", token: token, json: ["barKg": NSNull()]).json["barKg"] as? Double == 20)
            // The web form: a sentence under the field.
            let web = try await server.webSession("barbell")
            var headers = HTTPFields()
            headers[.cookie] = web.cookie
            let form = try await server.request(.get, "/strength/settings", headers: headers)
            #expect(form.text.contains("Bar weight (kg)") && form.text.contains("An empty Olympic bar weighs 20 kg"))
            headers[.contentType] = "application/x-www-form-urlencoded"
            let bad = try await server.request(.post, "/strength/settings", raw: Data("_csrf=\(web.csrf)&barKg=4".utf8), headers: headers)
            #expect(bad.status == .unprocessableContent && bad.text.contains("Enter a bar weight from 5 to 30 kg; an empty Olympic bar weighs 20 kg."))
            let good = try await server.request(.post, "/strength/settings", raw: Data("_csrf=\(web.csrf)&barKg=17.5".utf8), headers: headers)
            #expect(good.status == .seeOther)
            #expect(try await server.request(.get, "/api/strength/settings", token: token).json["barKg"] as? Double == 17.5)
        }
    }

    /// Planks are held for seconds: "measure": "seconds", a "Maximum" hold first, then the
    /// longest hold; holds add nothing to the reps total and make no 1RM.
    @Test func holdsAreLoggedInSeconds() async throws {
        try await ServerHarness.run { server in
            let token = try await Self.ready(server, "holder")
            let exercises = try #require(try await server.request(.get, "/api/exercises?group=Abs", token: token).json["exercises"] as? [[String: Any]])
            let timed = Set(exercises.filter { $0["measure"] as? String == "seconds" }.compactMap { $0["id"] as? String })
            #expect(timed.isSuperset(of: ["plank", "side-plank", "hollow-body-hold"]) && !timed.contains("crunch"))
            let started = try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "full-body-maintenance"])
            let id = try #require(started.json["id"] as? String)
            let plank = try #require(Self.sets(started).first { $0["exerciseID"] as? String == "plank" })
            #expect(plank["measure"] as? String == "seconds" && (plank["target"] as? [String: Any])?["maximum"] as? Bool == true)
            #expect((plank["target"] as? [String: Any])?["weight"] as? Double == 0)
            let squat = try #require(Self.sets(started).first { $0["exerciseID"] as? String == "barbell-back-squat" })
            let plankN = try #require(plank["n"] as? Int)
            let squatN = try #require(squat["n"] as? Int)
            try await server.request(.put, "/api/strength/sessions/\(id)/sets/\(plankN)", token: token, json: ["reps": 75, "weight": 10, "done": true])
            try await server.request(.put, "/api/strength/sessions/\(id)/sets/\(squatN)", token: token, json: ["reps": 10, "done": true])
            let web = try await server.webSession("holder")
            let page = try await server.request(.get, "/strength/sessions/\(id)", headers: [.cookie: web.cookie])
            #expect(page.text.contains("Set \(plankN) seconds") && page.text.contains("Set \(squatN) reps"))
            let finished = try await server.request(.post, "/api/strength/sessions/\(id)/finish", token: token, json: ["enjoyment": 4, "difficulty": 2])
            let totals = try #require((finished.json["session"] as? [String: Any])?["totals"] as? [String: Any])
            #expect(totals["reps"] as? Int == 10 && totals["sets"] as? Int == 2 && totals["volume"] as? Double == 200)
            let changes = finished.json["oneRepMaxes"] as? [[String: Any]] ?? []
            #expect(!changes.contains { $0["exerciseID"] as? String == "plank" })
            let next = try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "full-body-maintenance"])
            let holds = Self.sets(next).filter { $0["exerciseID"] as? String == "plank" }
            #expect(holds.count == 4 && holds.allSatisfy { ($0["target"] as? [String: Any])?["reps"] as? Int == 75 && ($0["target"] as? [String: Any])?["weight"] as? Double == 0 })
            let nextPage = try await server.request(.get, "/strength/sessions/\(try #require(next.json["id"] as? String))", headers: [.cookie: web.cookie])
            #expect(nextPage.text.contains("target 75 s"))
        }
    }

    @Test func nutritionFollowsTheProfileGolden() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("eater")
            let empty = try await server.request(.get, "/api/nutrition", token: token)
            #expect(empty.json["missing"] as? [String] == ["sex", "dateOfBirth", "height", "weight"] && empty.json["calories"] == nil)
            // Male, 25 whole years, 1.80 m, 80 kg, active (digest §3.2): TEE 3213.578.
            let birth = Calendar(identifier: .gregorian).date(byAdding: DateComponents(year: -25, day: -10), to: Date()) ?? Date()
            let day = ISO8601DateFormatter.string(from: birth, timeZone: .gmt, formatOptions: [.withFullDate])
            try await server.request(.patch, "/api/me", token: token, json: ["sex": "male", "dateOfBirth": day, "heightMeters": 1.80])
            try await server.request(.post, "/api/me/weights", token: token, json: ["kilograms": 80])
            try await server.request(.put, "/api/strength/settings", token: token, json: ["lifestyle": "active", "goal": "WeightLoss"])
            let loss = try await server.request(.get, "/api/nutrition", token: token)
            #expect(loss.json["totalEnergyExpenditure"] as? Double == 3213.578 && loss.json["calories"] as? Double == 2613.578)
            #expect(loss.json["proteinGrams"] as? Int == 216 && loss.json["fatGrams"] as? Int == 65 && loss.json["carbohydrateGrams"] as? Int == 291)
            try await server.request(.put, "/api/strength/settings", token: token, json: ["goal": "MuscleMaintenance"])
            #expect(try await server.request(.get, "/api/nutrition", token: token).json["carbohydrateGrams"] as? Int == 407)
            // 300 kg, sedentary, losing weight: the seed’s protein and fat leave nothing for carbohydrate.
            try await server.request(.post, "/api/me/weights", token: token, json: ["kilograms": 300])
            try await server.request(.put, "/api/strength/settings", token: token, json: ["lifestyle": "sedentary", "goal": "WeightLoss"])
            let heavy = try await server.request(.get, "/api/nutrition", token: token)
            #expect(heavy.json["carbohydrateGrams"] as? Int == 0 && (heavy.json["warnings"] as? [String])?.first?.contains("dietitian") == true)
        }
    }

    @Test func importsAStrongExportOnceAndSeedsOneRepMaxes() async throws {
        try await ServerHarness.run { server in
            let token = try await Self.ready(server, "importer")
            let csv = """
                Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
                2024-03-04 18:02:11,"Evening Workout",1h 5m,"Bench Press (Barbell)",W,40.0,10.0,0,0.0,"","",
                2024-03-04 18:02:11,"Evening Workout",1h 5m,"Bench Press (Barbell)",1,70.0,8.0,0,0.0,"","",
                2024-03-04 18:02:11,"Evening Workout",1h 5m,"Squat (Barbell)",1,100.0,5.0,0,0.0,"","",
                2024-03-04 18:02:11,"Evening Workout",1h 5m,"Zercher Good Morning",1,50.0,8.0,0,0.0,"","",
                2024-03-06 07:30:00,"Morning",45m,"Bench Press (Barbell)",1,72.5,8.0,0,0.0,"","",

                """
            let first = try await server.importStrength(token, csv)
            #expect(first.status == .ok)
            #expect(first.json["imported"] as? Int == 2 && first.json["duplicates"] as? Int == 0)
            #expect((first.json["mapped"] as? [String: String])?["Squat (Barbell)"] == "barbell-back-squat")
            #expect((first.json["unmapped"] as? [String: Int])?["Zercher Good Morning"] == 1)
            // The warm-up does not count; the best working set does: 72.5 × 36 / 29.
            let seeded = try #require(first.json["seededOneRepMaxes"] as? [String: Double])
            #expect(abs((seeded["barbell-bench-press"] ?? 0) - 90) < 0.01)
            let again = try await server.importStrength(token, csv)
            #expect(again.json["imported"] as? Int == 0 && again.json["duplicates"] as? Int == 2)
            let sessions = try #require(try await server.request(.get, "/api/strength/sessions", token: token).json["sessions"] as? [[String: Any]])
            #expect(sessions.count == 2 && sessions.allSatisfy { $0["source"] as? String == "strong" })
            // Not a log at all, or not text.
            let wrong = try await server.importStrength(token, "a,b\n1,2\n")
            #expect(wrong.status == .unprocessableContent && wrong.text.contains("not a Strong or Hevy export"))
            #expect(try await server.request(.post, "/api/strength/import", token: token, raw: Data([0xff, 0xfe, 0x00]), contentType: "text/csv").status == .unprocessableContent)
            #expect(try await server.request(.post, "/api/strength/import", token: token, raw: Data(csv.utf8), contentType: "application/zip").status == .unsupportedMediaType)
        }
    }

    @Test func heartRatePerSetComesFromAnUploadedWorkoutOfTheSameTime() async throws {
        try await ServerHarness.run { server in
            let token = try await Self.ready(server, "hearty")
            let user = try #require(try await server.store.users.find(username: "hearty"))
            let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 7200)
            // A 20-minute recording: 100 bpm, with a climb to 160 during the first set (60–120 s).
            var body = ServerHarness.workoutJSON(seconds: 1200, bpm: 100, start: ISO8601DateFormatter().string(from: start), track: false, rr: false)
            body["heartRate"] = (0..<1200).map { $0 >= 60 && $0 <= 120 ? 100 + ($0 - 60) : ($0 > 120 && $0 < 240 ? 160 - ($0 - 120) / 2 : 100) }
            _ = try await server.upload(token, body)
            let strength = server.services.strength
            let view = try await strength.start(routineID: "full-body-maintenance", for: user, now: start)
            _ = try await strength.logSet(view.session.id, number: 1, .init(reps: .set(10), done: true), for: user, now: start.addingTimeInterval(120))
            _ = try await strength.logSet(view.session.id, number: 2, .init(reps: .set(10), done: true), for: user, now: start.addingTimeInterval(400))
            let reply = try await server.request(.get, "/api/strength/sessions/\(view.session.id)", token: token)
            #expect((reply.json["heartRateSource"] as? String)?.hasPrefix("workout:") == true)
            let hr = Self.sets(reply).prefix(2).map { $0["heartRate"] as? [String: Any] }
            #expect(hr[0]?["peak"] as? Int == 160 && hr[0]?["recovery"] as? Int == 30)  // 60 s later: 160 − 30
            #expect(hr[1]?["peak"] as? Int == 160)  // 120…400 s: the window starts where the last set ended
        }
    }

    /// Linked to the lifter's own strap (the gateway's live feed): peak and recovery per set
    /// from its readings; a stranger's strap cannot be linked.
    @Test func heartRatePerSetComesFromTheLinkedStrap() async throws {
        try await ServerHarness.run { server in
            let token = try await Self.ready(server, "strapped")
            let user = try #require(try await server.store.users.find(username: "strapped"))
            let gateway = try await server.services.gateways.create(name: "Gym phone", for: user).gateway
            let start = Date().addingTimeInterval(-600)
            let origin = Int(start.timeIntervalSince1970 * 1000)
            // 95 bpm, a set from 30 to 90 s climbing to 155, back down by 2 bpm a second.
            let readings = (0..<300).map { second -> GatewayReading in
                let bpm = second < 30 ? 95 : (second <= 90 ? 95 + second - 30 : max(95, 155 - 2 * (second - 90)))
                return GatewayReading(
                    sensor: "C0:FF:EE:00:00:09", sequence: second + 1, atMilliseconds: origin + second * 1000,
                    measurement: HeartRateMeasurement(beatsPerMinute: UInt16(bpm), sensorContact: .detected))
            }
            for chunk in stride(from: 0, to: readings.count, by: 100) {
                _ = try await server.services.live.ingest(Array(readings[chunk..<min(chunk + 100, readings.count)]), from: gateway, now: Date())
            }
            let sensor = try #require(try await server.services.live.sensors(of: user).first?.id)
            let other = try await Self.ready(server, "borrower")
            #expect(try await server.request(.post, "/api/strength/sessions", token: other, json: ["routine": "posture-and-core", "sensor": sensor]).status == .notFound)
            let strength = server.services.strength
            let view = try await strength.start(routineID: "posture-and-core", sensorID: sensor, for: user, now: start)
            _ = try await strength.logSet(view.session.id, number: 1, .init(reps: .set(12), done: true), for: user, now: start.addingTimeInterval(90))
            let reply = try await server.request(.get, "/api/strength/sessions/\(view.session.id)", token: token)
            #expect(reply.json["heartRateSource"] as? String == "sensor" && reply.json["sensorID"] as? String == sensor)
            let first = Self.sets(reply).first?["heartRate"] as? [String: Any]
            #expect(first?["peak"] as? Int == 155 && first?["recovery"] as? Int == 60)  // 155 at 90 s, 95 at 150 s
        }
    }

    /// Imperial profiles see and type pounds; the store keeps kilograms.
    @Test func poundsInAndOutForImperialProfiles() async throws {
        try await ServerHarness.run { server in
            let token = try await Self.ready(server, "pounds")
            try await server.request(.patch, "/api/me", token: token, json: ["units": "imperial"])
            let started = try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "lower-body-maintenance"])
            #expect(started.json["unit"] as? String == "lb")
            let id = try #require(started.json["id"] as? String)
            let loaded = try #require(Self.sets(started).first { ($0["target"] as? [String: Any])?["weight"] as? Double ?? 0 > 0 })
            #expect((loaded["target"] as? [String: Any])?["weight"] as? Double == 45)  // the empty 20 kg bar = 44.09 lb, up to a whole pound
            let n = try #require(loaded["n"] as? Int)
            let logged = try await server.request(.put, "/api/strength/sessions/\(id)/sets/\(n)", token: token, json: ["weight": 45, "reps": 20, "done": true])
            #expect(Self.sets(logged).first { $0["n"] as? Int == n }?["weight"] as? Double == 45)
            let user = try #require(try await server.store.users.find(username: "pounds"))
            let stored = try await server.store.strength.session(id: id, userID: user.id)?.sets.first { $0.position == n }
            #expect(abs((stored?.weightKilograms ?? 0) - 20.412) < 0.001)
        }
    }

    /// The webhook reaches a real HTTP server, signed with the user's secret, and is retried;
    /// a redirect is not followed (it could lead into the server's own network).
    @Test func theMotivationWebhookIsSignedQueuedAndRetried() async throws {
        let received = Received()
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let attempt = await received.add(String(buffer: body), headers: request.headers)
            switch attempt {
            case 1: return Response(status: .internalServerError)
            case 2: return Response(status: .temporaryRedirect, headers: [.location: "/hook"])
            default: return Response(status: .ok)
            }
        }
        let receiver = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await receiver.test(.live) { client in
            let port = try #require(client.port)
            try await ServerHarness.run(adjusting: { $0.allowPrivateWebhooks = true }) { server in
                let token = try await Self.ready(server, "hooked")
                let settings = try await server.request(.put, "/api/strength/settings", token: token, json: ["webhookUrl": "http://127.0.0.1:\(port)/hook"])
                let secret = try #require(settings.json["webhookSecret"] as? String)
                let id = try #require(try await server.request(.post, "/api/strength/sessions", token: token, json: ["routine": "posture-and-core"]).json["id"] as? String)
                let finish = try await server.request(
                    .post, "/api/strength/sessions/\(id)/finish", token: token,
                    json: ["review": "awful, my back hurt and I felt dizzy", "enjoyment": 1, "difficulty": 5])
                #expect(finish.json["webhookQueued"] as? Bool == true)
                #expect((finish.json["motivation"] as? [String: Any])?["positive"] as? Bool == false)
                // Each delivery is a job on the queue: run what is due at a given time.
                func deliver(at now: Date = Date()) async -> Int {
                    var ran = 0
                    while await server.services.jobs.runNext(now: now) { ran += 1 }
                    return ran
                }
                #expect(await deliver() == 1)  // answered 500
                var state = try await server.request(.get, "/api/strength/settings", token: token).json["webhookDeliveries"] as? [[String: Any]]
                #expect(state?.first?["state"] as? String == "pending" && state?.first?["attempts"] as? Int == 1)
                #expect(await deliver() == 0)  // not due yet: 30 s backoff
                #expect(await deliver(at: Date().addingTimeInterval(31)) == 1)  // 307, not followed
                state = try await server.request(.get, "/api/strength/settings", token: token).json["webhookDeliveries"] as? [[String: Any]]
                #expect(state?.first?["state"] as? String == "pending" && state?.first?["attempts"] as? Int == 2)
                #expect(await received.calls.count == 2, "the redirect was not followed")
                #expect(await deliver(at: Date().addingTimeInterval(31 + 61)) == 1)
                state = try await server.request(.get, "/api/strength/settings", token: token).json["webhookDeliveries"] as? [[String: Any]]
                #expect(state?.first?["state"] as? String == "delivered")
                let calls = await received.calls
                #expect(calls.count == 3)
                let last = try #require(calls.last)
                let payload = try #require(try JSONSerialization.jsonObject(with: Data(last.body.utf8)) as? [String: Any])
                #expect(payload["reviewText"] as? String == "awful, my back hurt and I felt dizzy" && payload["enjoymentRating"] as? Int == 1)
                #expect(payload["positive"] as? Bool == false && payload["sessionId"] as? String == id)
                let timestamp = try #require(last.headers[HTTPField.Name("X-Heartwork-Timestamp")!])
                let mac = HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).\(last.body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
                #expect(last.headers[HTTPField.Name("X-Heartwork-Signature")!] == "sha256=" + mac.map { String(format: "%02x", $0) }.joined())
            }
        }
        #expect(WebhookDeliverer.backoff(afterAttempt: 1) == 30 && WebhookDeliverer.backoff(afterAttempt: 3) == 120 && WebhookDeliverer.backoff(afterAttempt: 20) == 6 * 3600)
    }

    @Test func everyStrengthPageRendersForItsOwner() async throws {
        try await ServerHarness.run { server in
            _ = try await Self.ready(server, "pages")
            let session = try await server.webSession("pages")
            let user = try #require(try await server.store.users.find(username: "pages"))
            let view = try await server.services.strength.start(routineID: "push-day-hypertrophy", for: user)
            for (path, text) in [
                ("/strength", "Your routines"), ("/strength/exercises?group=Legs", "Barbell Back Squat"), ("/strength/exercises/barbell-bench-press", "Reset this exercise"),
                ("/strength/routines/push-day-hypertrophy", "Start this workout"), ("/strength/routines/new", "Save routine"),
                ("/strength/sessions/\(view.session.id)", "Finish workout"), ("/strength/history", "All sessions"), ("/strength/settings", "Webhook secret"),
                ("/strength/import", "Import"), ("/nutrition", "add your sex"), ("/strength/disclaimer", "risk of injury"),
            ] {
                let page = try await server.request(.get, path, headers: [.cookie: session.cookie])
                #expect(page.status == .ok, "\(path)")
                #expect(page.text.contains(text), "\(path) lacks \(text)")
            }
            _ = try await server.signUp("stranger")
            let stranger = try await server.webSession("stranger")
            #expect(try await server.request(.get, "/strength/sessions/\(view.session.id)", headers: [.cookie: stranger.cookie]).status == .notFound)
            #expect(try await server.request(.get, "/strength/history?month=2026-13", headers: [.cookie: session.cookie]).status == .badRequest)
        }
    }
}

actor Received {
    var calls = [(body: String, headers: HTTPFields)]()
    func add(_ body: String, headers: HTTPFields) -> Int {
        calls.append((body, headers))
        return calls.count
    }
}
