import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkCore
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import Testing

@testable import HeartworkServer

/// Phone sync over HTTP (issue 24): sync tokens (created, listed, revoked, good for the sync
/// routes alone), Health Auto Export payloads built from the app's documented JSON format
/// (help.healthyapps.dev/en/health-auto-export/export-format), resends, and Today.
@Suite("Phone sync API")
struct SyncAPITests {
    static var yesterday: CalendarDay { CalendarDay(Date()).adding(days: -1) }

    /// "2026-11-26 08:00:00 +0000": the app's date format, on `day` at `minute` (UTC).
    static func stamp(_ day: CalendarDay, minute: Int) -> String {
        String(format: "%@ %02d:%02d:00 +0000", day.description, minute / 60, minute % 60)
    }

    /// A day as Health Auto Export sends it: heart rate a minute from 06:00 to 22:00 (960
    /// entries), hourly steps 08:00–20:00 (13 × 500), resting 52, HRV 45 ms, the night before
    /// (aggregated: 6 h core, 1 h deep, 1 h REM, in bed 23:00–07:15), a weight in pounds, a
    /// 30-minute run with its heart rate, and a metric Heartwork does not read.
    static func payload(day: CalendarDay, lastSteps: Int = 500) -> [String: Any] {
        let heart = (360..<1320).map { minute -> [String: Any] in
            let bpm = 60 + minute % 20
            return ["date": stamp(day, minute: minute), "Min": bpm - 2, "Avg": bpm, "Max": bpm + 3, "source": "Anna’s Apple Watch"]
        }
        let steps = (8...20).map { hour -> [String: Any] in ["qty": hour == 20 ? lastSteps : 500, "date": stamp(day, minute: hour * 60)] }
        let night = day.adding(days: -1)
        return [
            "data": [
                "metrics": [
                    ["name": "heart_rate", "units": "count/min", "data": heart],
                    ["name": "step_count", "units": "count", "data": steps],
                    ["name": "resting_heart_rate", "units": "count/min", "data": [["qty": 52, "date": stamp(day, minute: 0)]]],
                    ["name": "heart_rate_variability", "units": "ms", "data": [["qty": 45, "date": stamp(day, minute: 200)]]],
                    [
                        "name": "sleep_analysis", "units": "hr",
                        "data": [
                            [
                                "date": day.description, "core": 6, "deep": 1, "rem": 1, "asleep": 0, "totalSleep": 8, "inBed": 8.25,
                                "sleepStart": stamp(night, minute: 23 * 60 + 10), "sleepEnd": stamp(day, minute: 7 * 60 + 10),
                                "inBedStart": stamp(night, minute: 23 * 60), "inBedEnd": stamp(day, minute: 7 * 60 + 15),
                            ]
                        ],
                    ],
                    ["name": "weight_body_mass", "units": "lb", "data": [["qty": 165.3, "date": stamp(day, minute: 7 * 60 + 30)]]],
                    [
                        "name": "blood_pressure", "units": "mmHg",
                        "data": [["date": stamp(day, minute: 500), "systolic": 120, "diastolic": 80], ["date": stamp(day, minute: 900), "systolic": 118, "diastolic": 78]],
                    ],
                ],
                "workouts": [
                    [
                        "id": "6F1C1E2A-0000-4000-8000-000000000001", "name": "Outdoor Run", "start": stamp(day, minute: 17 * 60),
                        "end": stamp(day, minute: 17 * 60 + 30), "duration": 1800, "location": "Outdoor", "isIndoor": false,
                        "activeEnergyBurned": ["qty": 320, "units": "kcal"], "distance": ["qty": 5.2, "units": "km"],
                        "heartRateData": (0..<30).map { ["date": stamp(day, minute: 17 * 60 + $0), "Min": 125, "Avg": 130 + $0, "Max": 170, "units": "count/min"] },
                    ]
                ],
            ]
        ]
    }

    static func sync(_ server: ServerHarness, _ token: String, _ body: [String: Any]) async throws -> ServerHarness.Reply {
        try await server.request(.post, "/api/sync/health-auto-export", token: token, json: body)
    }

    @Test(arguments: TestDatabase.all)
    func aSyncTokenIsGoodForTheSyncRoutesAlone(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, session) = try await server.signUp("syncanna")
            let (_, other) = try await server.signUp("syncben")
            let created = try await server.request(.post, "/api/sync-tokens", token: session, json: ["name": "Anna’s iPhone"])
            #expect(created.status == .created, "\(created.text)")
            let token = try #require(created.json["token"] as? String)
            let id = try #require(created.json["id"] as? String)
            #expect(token.hasPrefix("hws_"))
            #expect(created.headers[.location] == "/api/sync-tokens/\(id)")
            let list = try await server.request(.get, "/api/sync-tokens", token: session)
            let tokens = try #require(list.json["tokens"] as? [[String: Any]])
            #expect(tokens.count == 1 && tokens.first?["name"] as? String == "Anna’s iPhone" && tokens.first?["token"] == nil, "the token is shown once")

            // Good for the sync route …
            let empty: [String: Any] = ["data": ["metrics": [] as [Any], "workouts": [] as [Any]]]
            #expect(try await Self.sync(server, token, empty).status == .ok)
            #expect(try await server.request(.get, "/api/sync-tokens", token: session).json["tokens"].flatMap { ($0 as? [[String: Any]])?.first?["lastUsedAt"] } != nil)
            // … and nothing else; nor does anything else open the sync route.
            #expect(try await server.request(.get, "/api/days", token: token).status == .unauthorized)
            #expect(try await server.request(.get, "/api/sync-tokens", token: token).status == .unauthorized)
            #expect(try await Self.sync(server, session, empty).status == .unauthorized)
            #expect(try await server.request(.post, "/api/sync/health-auto-export", json: empty).status == .unauthorized)
            #expect(try await Self.sync(server, "hws_not-a-token", empty).status == .unauthorized)

            // Bad bodies: what was wrong, never a crash.
            let notJSON = try await server.request(.post, "/api/sync/health-auto-export", token: token, raw: Data("{\"data\": [".utf8), contentType: "application/json")
            #expect(notJSON.status == .unprocessableContent || notJSON.status == .badRequest, "\(notJSON.text)")
            #expect(notJSON.text.contains("JSON"))
            let csv = try await server.request(.post, "/api/sync/health-auto-export", token: token, raw: Data("a,b\n".utf8), contentType: "text/csv")
            #expect(csv.status == .unsupportedMediaType && csv.text.contains("JSON"))
            let shape = try await Self.sync(server, token, ["metrics": [] as [Any]])
            #expect(shape.status == .unprocessableContent || shape.status == .badRequest)
            #expect(shape.text.contains("data"))

            // Another user cannot revoke it; its owner can, and it stops at once.
            #expect(try await server.request(.delete, "/api/sync-tokens/\(id)", token: other).status == .notFound)
            #expect(try await server.request(.delete, "/api/sync-tokens/\(id)", token: session).status == .noContent)
            #expect(try await Self.sync(server, token, empty).status == .unauthorized)
            #expect(try await server.request(.get, "/api/sync-tokens", token: session).json["tokens"] as? [Any] != nil)
        }
    }

    @Test(arguments: TestDatabase.all)
    func aPayloadBecomesDaysAndAResendChangesNothing(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (userID, session) = try await server.signUp("syncclara")
            try await server.completeProfile(session)
            let token = try #require(try await server.request(.post, "/api/sync-tokens", token: session, json: ["name": "Clara’s iPhone"]).json["token"] as? String)
            let day = Self.yesterday

            let first = try await Self.sync(server, token, Self.payload(day: day))
            #expect(first.status == .ok, "\(first.text)")
            let added = try #require(first.json["added"] as? [String: Any])
            // 960 heart rates + 13 step counts + resting + HRV + in bed and 3 stages + a weight.
            #expect(added["samples"] as? Int == 980, "\(first.text)")
            #expect((added["byMetric"] as? [String: Int])?["heart_rate"] == 960)
            #expect(added["workouts"] as? Int == 1)
            #expect(added["weights"] as? Int == 1, "the weight joins the profile's history")
            #expect((first.json["already"] as? [String: Any])?["samples"] as? Int == 0)
            let leftOut = try #require(first.json["leftOut"] as? [[String: Any]])
            #expect(leftOut.contains { $0["why"] as? String == "blood_pressure: Heartwork does not use this metric" && $0["count"] as? Int == 2 })
            #expect(first.json["recomputing"] as? Bool == true)
            #expect(first.json["lastDay"] as? String == day.description)

            await server.services.jobs.runUntilIdle()
            let computed = try await server.request(.get, "/api/days/\(day)", token: session)
            #expect(computed.json["hasData"] as? Bool == true, "\(computed.text)")
            #expect(computed.json["steps"] as? Int == 6500)
            #expect(computed.json["restingHeartRate"] as? Double == 52)
            #expect(computed.json["hrvSDNNMilliseconds"] as? Double == 45)
            let sleep = try #require(computed.json["sleep"] as? [String: Any])
            #expect(sleep["inBedHours"] as? Double == 8.25 && sleep["asleepHours"] as? Double == 8)
            let workouts = try await server.request(.get, "/api/workouts", token: session)
            let listed = try #require(workouts.json["workouts"] as? [[String: Any]])
            #expect(listed.count == 1, "\(workouts.text)")
            // The run's per-minute heart rate holds until the next entry: 30 minutes, not 30 × 10 s.
            let run = try #require(listed.first)
            #expect(run["averageHeartRate"] as? Double != nil && run["device"] == nil && run["indoor"] as? Bool == false, "\(run)")
            let zones = try #require(run["secondsInZones"] as? [String: Int])
            #expect(zones.values.reduce(0, +) == 1800, "\(zones)")
            let summary = try await server.store.health.summary(userID: userID)

            // The app sends the same window again: nothing is stored twice.
            let again = try await Self.sync(server, token, Self.payload(day: day))
            #expect(again.status == .ok)
            #expect((again.json["added"] as? [String: Any])?["samples"] as? Int == 0)
            #expect((again.json["added"] as? [String: Any])?["workouts"] as? Int == 0)
            #expect((again.json["already"] as? [String: Any])?["samples"] as? Int == 980)
            #expect((again.json["already"] as? [String: Any])?["workouts"] as? Int == 1)
            #expect(again.json["recomputing"] as? Bool == false)
            #expect(try await server.store.health.summary(userID: userID) == summary)
            await server.services.jobs.runUntilIdle()
            #expect((try await server.request(.get, "/api/workouts", token: session).json["workouts"] as? [Any])?.count == 1)

            // The last hour's steps grew since: the new count replaces the old one.
            let grown = try await Self.sync(server, token, Self.payload(day: day, lastSteps: 800))
            #expect(grown.json["updated"] as? Int == 1, "\(grown.text)")
            #expect((grown.json["added"] as? [String: Any])?["samples"] as? Int == 0)
            await server.services.jobs.runUntilIdle()
            #expect(try await server.request(.get, "/api/days/\(day)", token: session).json["steps"] as? Int == 6800)

            let arrivals = try #require(try await server.request(.get, "/api/sync/arrivals", token: session).json["arrivals"] as? [[String: Any]])
            #expect(arrivals.count == 3)
            #expect(arrivals.first?["tokenName"] as? String == "Clara’s iPhone" && arrivals.first?["source"] as? String == "Health Auto Export")
            #expect(arrivals.last?["samplesAdded"] as? Int == 980)
        }
    }

    @Test(arguments: TestDatabase.all)
    func aWorkoutFromAnExportAndFromASyncIsStoredOnce(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, session) = try await server.signUp("syncemil")
            let token = try #require(try await server.request(.post, "/api/sync-tokens", token: session, json: ["name": "Emil’s iPhone"]).json["token"] as? String)
            let day = Self.yesterday
            // The export names the watch; the sync names no device: the same run (17:00) either way.
            let xml = Data(HealthExportFixture.xml(days: [day.description]).utf8)
            let done = try await DailyAPITests.importExport(server, session, xml, contentType: "application/xml")
            #expect(done["workoutsAdded"] as? Int == 1)
            let synced = try await Self.sync(server, token, Self.payload(day: day))
            #expect((synced.json["added"] as? [String: Any])?["workouts"] as? Int == 0, "\(synced.text)")
            #expect((synced.json["already"] as? [String: Any])?["workouts"] as? Int == 1)
            #expect((try await server.request(.get, "/api/workouts", token: session).json["workouts"] as? [Any])?.count == 1)
        }
    }

    /// The phone flew from Berlin to San Francisco between two sends: the app writes the same
    /// instants in the new zone, where 00:00–00:59 +0100 is the evening before (15:00 −0800).
    @Test(arguments: TestDatabase.all)
    func aResendFromAnotherTimeZoneIsStoredOnce(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (userID, session) = try await server.signUp("syncfrida")
            let token = try #require(try await server.request(.post, "/api/sync-tokens", token: session, json: ["name": "Frida’s iPhone"]).json["token"] as? String)
            let day = Self.yesterday
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
            let midnightBerlin = day.start(utcOffsetSeconds: 3600)
            func entries(_ zone: String) -> [[String: Any]] {
                formatter.timeZone = TimeZone(identifier: zone)
                return (0..<60).map { ["date": formatter.string(from: midnightBerlin.addingTimeInterval(Double($0 * 60))), "Avg": 70 + $0 % 5, "source": "Frida’s Watch"] }
            }
            func payload(_ zone: String) -> [String: Any] { ["data": ["metrics": [["name": "heart_rate", "units": "count/min", "data": entries(zone)]]]] }
            let first = try await Self.sync(server, token, payload("Europe/Berlin"))
            #expect((first.json["added"] as? [String: Any])?["samples"] as? Int == 60, "\(first.text)")
            let again = try await Self.sync(server, token, payload("America/Los_Angeles"))
            #expect((again.json["added"] as? [String: Any])?["samples"] as? Int == 0, "\(again.text)")
            #expect((again.json["already"] as? [String: Any])?["samples"] as? Int == 60)
            #expect(try await server.store.health.summary(userID: userID).first { $0.kind == .heartRate }?.samples == 60)
        }
    }

    @Test func theSettingsPageMakesATokenAndTodaySaysWhenDataArrived() async throws {
        try await ServerHarness.run(.sqlite) { server in
            _ = try await server.signUp("syncdora")
            let session = try await server.webSession("syncdora")
            var headers = HTTPFields()
            headers[.cookie] = session.cookie
            let settings = try await server.request(.get, "/settings", headers: headers)
            #expect(settings.text.contains("Phone sync") && settings.text.contains("/api/sync/health-auto-export"))
            var form = headers
            form[.contentType] = "application/x-www-form-urlencoded"
            let created = try await server.request(.post, "/settings/sync-tokens", raw: Data("_csrf=\(session.csrf)&name=Dora%27s+iPhone".utf8), headers: form)
            #expect(created.status == .created)
            let token = try #require(created.text.range(of: "hws_[A-Za-z0-9_-]+", options: .regularExpression).map { String(created.text[$0]) })
            #expect(created.text.contains("Bearer \(token)"), "the header to paste, with the token")
            let refused = try await server.request(.post, "/settings/sync-tokens", raw: Data("_csrf=\(session.csrf)&name=".utf8), headers: form)
            #expect(refused.status == .unprocessableContent && refused.text.contains("aria-invalid"))

            #expect(try await Self.sync(server, token, Self.payload(day: Self.yesterday)).status == .ok)
            let today = try await server.request(.get, "/today", headers: headers)
            #expect(
                today.text.contains("Last sync") && today.text.contains("Health Auto Export (Dora&#39;s iPhone)") || today.text.contains("Health Auto Export (Dora"),
                "\(today.text)")
            #expect(today.text.contains("980 new samples, 1 new workout") && !today.text.contains("1 new workouts"), "one workout, not \"1 new workouts\" (issue 41)")
        }
    }
}
