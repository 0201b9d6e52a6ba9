import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import Testing
import ZIPFoundation

@testable import HeartworkServer

/// Daily health over HTTP (issue 11): an Apple Health export uploaded as XML or ZIP, imported
/// by the job queue, and the days it makes, with the fixture's known answers
/// (`HealthExportFixture`).
@Suite("Daily health API")
struct DailyAPITests {
    static var today: CalendarDay { CalendarDay(Date()) }
    /// Samples of one fixture day: 279 five-minute readings, 540 during the run, resting, HRV, 6 steps, 2 sleep.
    static let samplesPerDay = 279 + 540 + 1 + 1 + 6 + 2
    static var days: [String] { (-2...0).map { today.adding(days: $0).description } }

    static func importExport(_ server: ServerHarness, _ token: String, _ body: Data, contentType: String) async throws -> [String: Any] {
        let accepted = try await server.request(.post, "/api/imports/apple-health", token: token, raw: body, contentType: contentType)
        #expect(accepted.status == .accepted, "\(accepted.text)")
        let id = try #require(accepted.json["id"] as? String)
        #expect(accepted.headers[.location] == "/api/imports/\(id)")
        #expect(accepted.json["state"] as? String == "queued")
        await server.services.jobs.runUntilIdle()
        return try await server.request(.get, "/api/imports/\(id)", token: token).json
    }

    @Test(arguments: TestDatabase.all)
    func anExportBecomesDaysWithTheirKnownAnswers(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("dailyanna")
            let xml = Data(HealthExportFixture.xml(days: Self.days).utf8)
            let done = try await Self.importExport(server, token, xml, contentType: "application/xml")
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["progress"] as? Double == 1)
            // 3 days × (279 five-minute readings + 540 run readings + resting + HRV + 6 steps + 2 sleep).
            #expect(done["samplesAdded"] as? Int == 3 * Self.samplesPerDay)
            #expect(done["workoutsAdded"] as? Int == 3)
            #expect(done["firstDay"] as? String == Self.today.adding(days: -3).description, "the first night starts the evening before")

            let day = try await server.request(.get, "/api/days/\(Self.today)", token: token)
            #expect(day.status == .ok)
            #expect(day.json["hasData"] as? Bool == true)
            let sleep = try #require(day.json["sleep"] as? [String: Any])
            #expect(sleep["inBedHours"] as? Double == 7.5)
            #expect(sleep["asleepHours"] as? Double == 6.5)
            #expect(sleep["quality"] as? Int == 9 && sleep["qualitySource"] as? String == "estimated")
            #expect(sleep["recoveryPercent"] as? Double == 84.4, "7.5 h × 9/10 ÷ 8 = 84.4 %")
            #expect(day.json["steps"] as? Int == 3000, "the phone's copies of the watch's steps count once")
            #expect(day.json["restingHeartRate"] as? Double == 52)
            #expect(day.json["hrvSDNNMilliseconds"] as? Double == 45)
            #expect(day.json["maximumHeartRate"] as? Double == 190)
            let heart = try #require(day.json["heartRate"] as? [String: Any])
            #expect(heart["maximum"] as? Double == 190 && heart["minimum"] as? Double == 55)
            let rise = try #require(day.json["rise"] as? [String: Any])
            let workouts = try #require(rise["workouts"] as? [[String: Any]])
            #expect(workouts.count == 1 && workouts.first?["name"] as? String == "running")
            #expect((workouts.first?["intensity"] as? Double ?? 0) > 0)
            #expect((rise["inactiveHours"] as? Double ?? 0) > 10)
            #expect(((day.json["load"] as? [String: Any])?["trimp"] as? Double ?? 0) > 0)

            // RISE's worked example through the API: 7.5 h in bed rated 8 → 75 %.
            let rated = try await server.request(.put, "/api/days/\(Self.today)/sleep-quality", token: token, json: ["quality": 8])
            #expect(rated.status == .ok, "\(rated.text)")
            let ratedSleep = try #require(rated.json["sleep"] as? [String: Any])
            #expect(ratedSleep["recoveryPercent"] as? Double == 75 && ratedSleep["qualitySource"] as? String == "entered")
            #expect(try await server.request(.put, "/api/days/\(Self.today)/sleep-quality", token: token, json: ["quality": 11]).status == .unprocessableContent)
            let over = try await server.request(.put, "/api/days/\(Self.today.adding(days: -2))/sleep-quality", token: token, json: ["quality": 8])
            #expect(over.status == .conflict && over.text.contains("is over"))

            // Marks: a sick day.
            let sick = try await server.request(.put, "/api/days/\(Self.today.adding(days: -1))/mark", token: token, json: ["mark": "sick"])
            #expect(sick.status == .ok && sick.json["mark"] as? String == "sick")
            #expect((sick.json["readiness"] as? [String: Any])?["status"] as? String == "sick")
            #expect(try await server.request(.put, "/api/days/\(Self.today)/mark", token: token, json: ["mark": "tired"]).status == .unprocessableContent)

            // Ranges, and the days without data.
            let range = try await server.request(.get, "/api/days?from=\(Self.today.adding(days: -4))&to=\(Self.today)", token: token)
            let list = try #require(range.json["days"] as? [[String: Any]])
            #expect(list.map { $0["date"] as? String } == (-4...0).map { Self.today.adding(days: $0).description })
            #expect(list.map { $0["hasData"] as? Bool } == [false, false, true, true, true], "the evening before the first day has only the start of a night")
            #expect(try await server.request(.get, "/api/days?from=2024-01-01&to=2026-01-01", token: token).status == .unprocessableContent)
            #expect(try await server.request(.get, "/api/days?from=2026-13-01&to=2026-12-01", token: token).status == .badRequest)
            #expect(try await server.request(.get, "/api/days/2026-02-30", token: token).status == .badRequest)
            #expect(try await server.request(.get, "/api/days/yesterday", token: token).status == .badRequest)

            // The same export again adds nothing, and its workouts are recognised.
            let again = try await Self.importExport(server, token, xml, contentType: "text/xml")
            #expect(again["state"] as? String == "done" && again["samplesAdded"] as? Int == 0)
            #expect(again["workoutsAdded"] as? Int == 0 && again["workoutsDuplicate"] as? Int == 3)
            let sameDay = try await server.request(.get, "/api/days/\(Self.today)", token: token)
            #expect(sameDay.json["steps"] as? Int == 3000)

            // A workout uploaded later counts in its day once the queued recomputation has run.
            let morning = ISO8601DateFormatter().string(from: Self.today.start().addingTimeInterval(8 * 3600))
            let upload = try await server.request(
                .post, "/api/workouts", token: token,
                json: [
                    "sport": "cycling", "startTime": morning, "heartRate": Array(repeating: 120, count: 1200),
                ])
            #expect(upload.status == .created, "\(upload.text)")
            #expect(try await server.store.jobs.counts()[.queued] == 1)
            await server.services.jobs.runUntilIdle()
            let withRide = try await server.request(.get, "/api/days/\(Self.today)", token: token)
            let names = ((withRide.json["rise"] as? [String: Any])?["workouts"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names?.sorted() == ["cycling", "running"], "\(names ?? [])")

            // Somebody else sees none of it.
            let (_, other) = try await server.signUp("dailystranger")
            let imports = try await server.request(.get, "/api/imports", token: token).json["imports"] as? [[String: Any]]
            #expect(imports?.count == 2)
            let id = try #require(imports?.first?["id"] as? String)
            #expect(try await server.request(.get, "/api/imports/\(id)", token: other).status == .notFound)
            #expect(try await server.request(.get, "/api/days/\(Self.today)", token: other).json["hasData"] as? Bool == false)
            #expect((try await server.request(.get, "/api/imports", token: other).json["imports"] as? [Any])?.isEmpty == true)
        }
    }

    /// Issue 28: a watch workout that cannot be stored is not dropped in silence: the import
    /// counts it as skipped with the reason, in the API and on the import page. (Issue 24: one
    /// without heart-rate samples is stored; one with no length is skipped.)
    @Test func aWorkoutThatCannotBeStoredIsSkippedWithItsReason() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("dailyskip")
            let day = Self.today.adding(days: -5).description
            let strength = """
                 <Workout workoutActivityType="HKWorkoutActivityTypeTraditionalStrengthTraining" duration="31.7" durationUnit="min" sourceName="Test Watch" device="\(HealthExportFixture.watch)" creationDate="\(day) 05:32:00 +0000" startDate="\(day) 05:00:18 +0000" endDate="\(day) 05:00:18 +0000">
                 </Workout>
                </HealthData>

                """
            let xml = HealthExportFixture.xml(days: [Self.today.description]).replacingOccurrences(of: "</HealthData>\n", with: strength)
            let done = try await Self.importExport(server, token, Data(xml.utf8), contentType: "application/xml")
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["workoutsAdded"] as? Int == 1, "the day's run is added")
            let skipped = try #require(done["workoutsSkipped"] as? [[String: Any]])
            let reason = "it has no length (it ends when it starts)"
            #expect(skipped.count == 1 && skipped[0]["reason"] as? String == reason && skipped[0]["count"] as? Int == 1, "\(skipped)")
            let session = try await server.webSession("dailyskip")
            let page = try await server.request(.get, "/health/import", headers: [.cookie: session.cookie])
            #expect(page.text.contains(reason), "the import page says why")
        }
    }

    @Test func zipArchivesAndFaultsAreReadOrNamed() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("dailyzip")
            let xml = Data(HealthExportFixture.xml(days: [Self.today.description], routes: true).utf8)
            // The Health app's archive: apple_health_export/export.xml beside export_cda.xml and the routes.
            let archive = try Archive(data: Data(), accessMode: .create)
            let route = Data(HealthExportFixture.routeGPX(day: Self.today.description).utf8)
            for (path, data) in [
                ("apple_health_export/export_cda.xml", Data("<ClinicalDocument/>".utf8)), ("apple_health_export/export.xml", xml),
                ("apple_health_export/workout-routes/route_\(Self.today).gpx", route),
            ] {
                try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            let zip = try #require(archive.data)
            let done = try await Self.importExport(server, token, zip, contentType: "application/zip")
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["format"] as? String == "zip")
            #expect(done["samplesAdded"] as? Int == Self.samplesPerDay)
            #expect(try await server.request(.get, "/api/days/\(Self.today)", token: token).json["steps"] as? Int == 3000)
            // The run came with its route.
            let owner = try #require(try await server.store.users.find(username: "dailyzip"))
            let runs = try await server.services.workouts.all(for: owner, from: Self.today.start(), to: Self.today.adding(days: 1).start())
            #expect(runs.count == 1 && runs.first?.trackCount == 270, "\(runs.map(\.trackCount))")
            #expect((runs.first?.metrics.distanceMeters ?? 0) > 850, "the distance is the route's (269 × 3.3 m)")

            // A cut archive, a zip without an export, XML cut in the middle, not an export at all.
            let (_, fresh) = try await server.signUp("dailyfaults")
            // A cut zip and a zip without an export are refused at the door (their directories are
            // read as the upload ends), never queued.
            let cutZip = try await server.request(.post, "/api/imports/apple-health", token: fresh, raw: zip.prefix(zip.count / 2), contentType: "application/zip")
            #expect(cutZip.status == .unprocessableContent && cutZip.text.contains("not a ZIP archive"), "\(cutZip.text)")
            let other = try Archive(data: Data(), accessMode: .create)
            let notes = Data("hi".utf8)
            try other.addEntry(with: "notes.txt", type: .file, uncompressedSize: Int64(notes.count), compressionMethod: .none) { (position: Int64, size: Int) in
                notes.subdata(in: Int(position)..<Int(position) + size)
            }
            let noExport = try await server.request(.post, "/api/imports/apple-health", token: fresh, raw: try #require(other.data), contentType: "application/zip")
            #expect(noExport.status == .unprocessableContent && noExport.text.contains("no export.xml"), "\(noExport.text)")
            #expect(try await server.store.jobs.counts()[.queued] == nil, "nothing was queued")
            let cutXML = try await Self.importExport(server, fresh, xml.prefix(xml.count / 2), contentType: "application/xml")
            #expect(cutXML["state"] as? String == "failed")
            #expect((cutXML["error"] as? String)?.contains("line") == true, "\(cutXML)")
            #expect((cutXML["samplesAdded"] as? Int ?? 0) > 100, "what came before the fault is kept")
            let notExport = try await Self.importExport(server, fresh, Data("<gpx version=\"1.1\"></gpx>".utf8), contentType: "application/xml")
            #expect(notExport["state"] as? String == "failed" && (notExport["error"] as? String)?.contains("not an Apple Health export") == true)

            // Refused at the door.
            #expect(try await server.request(.post, "/api/imports/apple-health", token: fresh, raw: xml, contentType: "application/json").status == .unsupportedMediaType)
            #expect(try await server.request(.post, "/api/imports/apple-health", token: fresh, raw: Data(), contentType: "application/xml").status == .unprocessableContent)
            #expect(try await server.request(.post, "/api/imports/apple-health", raw: xml, contentType: "application/xml").status == .unauthorized)
            // The spooled uploads are gone once imported.
            let left = (try? FileManager.default.contentsOfDirectory(atPath: server.services.daily.importDirectory)) ?? []
            let ours = try await server.store.daily.imports(userID: try #require(try await server.store.users.find(username: "dailyfaults")).id, limit: 20)
            #expect(ours.allSatisfy { !left.contains(URL(fileURLWithPath: $0.filePath).lastPathComponent) })
        }
    }

    @Test func settingsAndTheInactivityAlert() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("dailyalerts")
            let defaults = try await server.request(.get, "/api/health/settings", token: token)
            #expect(defaults.json["stepThreshold"] as? Int == 5000 && defaults.json["inactivityTime"] as? String == "18:00")
            #expect(defaults.json["order"] as? Int == 3 && defaults.json["bandSD"] as? Double == 3 && (defaults.json["sourceOrder"] as? [String])?.isEmpty == true)
            let changed = try await server.request(
                .put, "/api/health/settings", token: token,
                json: ["inactivityTime": "00:00", "sourceOrder": ["Test Watch"], "consecutive": 4])
            #expect(changed.status == .ok && changed.json["inactivityTime"] as? String == "00:00" && changed.json["consecutive"] as? Int == 4)
            #expect(changed.json["stepThreshold"] as? Int == 5000, "what was not sent stays")
            for (body, field) in [
                (["inactivityTime": "25:00"], "inactivityTime"), (["order": 0], "order"), (["bandSD": 9.5], "bandSD"),
                (["sourceOrder": [""]], "sourceOrder[0]"), (["stepThreshold": -1], "stepThreshold"),
            ] as [([String: Any], String)] {
                let refused = try await server.request(.put, "/api/health/settings", token: token, json: body)
                #expect(refused.status == .unprocessableContent && refused.problemField == field, "\(body): \(refused.text)")
            }
            #expect(try await server.request(.put, "/api/health/settings", token: token, json: ["colour": "red"]).problemField == "colour")

            // Today's 3000 steps are below 5000 after 00:00: told once (at 20:00, when the
            // last steps, 19:00–19:10, are fresh; stale steps: HeartRateHistoryTests).
            let xml = Data(HealthExportFixture.xml(days: [Self.today.description]).utf8)
            _ = try await Self.importExport(server, token, xml, contentType: "application/xml")
            let evening = Self.today.start().addingTimeInterval(20 * 3600)
            #expect(await server.services.healthAlerts.checkOnce(now: evening) == 1)
            #expect(await server.services.healthAlerts.checkOnce(now: evening.addingTimeInterval(600)) == 0, "once a day")
            let notes = try await server.request(.get, "/api/notifications", token: token).json["notifications"] as? [[String: Any]] ?? []
            let inactivity = notes.filter { $0["kind"] as? String == "health-inactivity" }
            #expect(inactivity.count == 1 && (inactivity.first?["text"] as? String)?.contains("taken 3000 steps, below your 5000") == true, "\(notes)")
            // Someone who walked enough, or chose a later time, or has no data today, is not told.
            let (_, walker) = try await server.signUp("dailywalker")
            _ = try await Self.importExport(server, walker, xml, contentType: "application/xml")
            try await server.request(.put, "/api/health/settings", token: walker, json: ["stepThreshold": 2000, "inactivityTime": "00:00"])
            let (_, late) = try await server.signUp("dailylate")
            _ = try await Self.importExport(server, late, xml, contentType: "application/xml")
            try await server.request(.put, "/api/health/settings", token: late, json: ["inactivityTime": "23:00"])
            #expect(await server.services.healthAlerts.checkOnce(now: evening.addingTimeInterval(1200)) == 0)
        }
    }

    /// The anomaly alert on a week of resting heart rate with known rises (our own design):
    /// one unexplained rise is told, a rise with steps is not, and nothing is told twice.
    @Test(arguments: TestDatabase.all)
    func anUnexplainedRiseAtRestIsToldOnce(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (id, token) = try await server.signUp("dailyanomaly")
            let user = try #require(try await server.store.users.find(id: id))
            var random = SplitMix64(seed: 7)
            var samples = [HealthSample]()
            let first = Self.today.adding(days: -6).start()
            for slot in 0..<(7 * 288) {
                let time = first.addingTimeInterval(Double(slot) * 300)
                let minutesIntoDay = (slot % 288) * 5
                let lastDay = slot >= 6 * 288
                var bpm = 60 + Double.random(in: -2...2, using: &random)
                if lastDay && (180..<220).contains(minutesIntoDay) { bpm += 25 }  // 03:00–03:40, at rest
                if lastDay && (600..<640).contains(minutesIntoDay) {  // 10:00–10:40, walking
                    bpm += 25
                    samples.append(HealthSample(kind: .steps, start: time, end: time.addingTimeInterval(300), utcOffsetSeconds: 0, value: 500, source: "Watch"))
                }
                samples.append(HealthSample(kind: .heartRate, start: time, end: time, utcOffsetSeconds: 0, value: bpm.rounded(), source: "Watch"))
            }
            _ = try await server.store.health.add(userID: id, samples, now: Date())
            let endOfDay = Self.today.start().addingTimeInterval(86_399)
            try await server.services.daily.recompute(user, from: Self.today.adding(days: -6), through: Self.today, now: endOfDay)
            try await server.services.daily.recompute(user, from: Self.today.adding(days: -6), through: Self.today, now: endOfDay)
            let notes = try await server.request(.get, "/api/notifications", token: token).json["notifications"] as? [[String: Any]] ?? []
            let anomalies = notes.filter { $0["kind"] as? String == "health-anomaly" }.compactMap { $0["text"] as? String }
            #expect(anomalies.count == 1, "\(anomalies)")
            #expect(anomalies.first?.contains("at 03:0") == true && anomalies.first?.contains("with no activity to explain it") == true, "\(anomalies)")
        }
    }

    /// Each upload may hold gigabytes on disk: two imports of a user wait or run at a time.
    @Test func aThirdWaitingImportIsRefusedUntilOneHasRun() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("dailyflood")
            let xml = Data(HealthExportFixture.xml(days: [Self.today.description]).utf8)
            for _ in 0..<2 {
                #expect(try await server.request(.post, "/api/imports/apple-health", token: token, raw: xml, contentType: "application/xml").status == .accepted)
            }
            let third = try await server.request(.post, "/api/imports/apple-health", token: token, raw: xml, contentType: "application/xml")
            #expect(third.status == .tooManyRequests && third.headers[.retryAfter] != nil && third.text.contains("still arriving, waiting or running"))
            await server.services.jobs.runUntilIdle()
            #expect(try await server.request(.post, "/api/imports/apple-health", token: token, raw: xml, contentType: "application/xml").status == .accepted)
        }
    }

    @Test func foodLabelsFromTextAndPhotos() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("dailyfood")
            let text = "Nutrition Facts\nServing size 1 cup (240mL)\nCalories 250\nTotal Fat 12g\nSaturated Fat 5g\nTrans Fat 0g\nSodium 470mg\nTotal Sugars 20g\nProtein 8g\n"
            let read = try await server.request(.post, "/api/food-label", token: token, raw: Data(text.utf8), contentType: "text/plain; charset=utf-8")
            #expect(read.status == .ok && read.json["calories"] as? Double == 250 && read.json["unhealthy"] as? Bool == true, "\(read.text)")
            #expect((read.json["reasons"] as? [String])?.count == 2, "saturated fat and sodium: \(read.text)")
            #expect(try await server.request(.post, "/api/food-label", token: token, raw: Data("hello".utf8), contentType: "text/plain").status == .unprocessableContent)
            #expect(try await server.request(.post, "/api/food-label", token: token, raw: Data(text.utf8), contentType: "application/json").status == .unsupportedMediaType)
            #expect(try await server.request(.post, "/api/food-label", token: token, raw: Data(text.utf8), contentType: "image/png").status == .unprocessableContent)
            // A photo: read when Tesseract is here, 503 with the reason when not.
            let photo = try Data(
                contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("HeartworkCLITests/Fixtures/fda-label.png"))
            let fromPhoto = try await server.request(.post, "/api/food-label", token: token, raw: photo, contentType: "image/png")
            if LabelReader.tesseract != nil {
                #expect(fromPhoto.status == .ok && fromPhoto.json["calories"] as? Double == 230, "\(fromPhoto.text)")
            } else {
                #expect(fromPhoto.status == .serviceUnavailable && fromPhoto.text.contains("tesseract-ocr"))
            }
            // The page reads pasted text without script.
            let web = try await server.webSession("dailyfood")
            var headers = HTTPFields()
            headers[.cookie] = web.cookie
            headers[.contentType] = "application/x-www-form-urlencoded"
            let form = "_csrf=\(web.csrf)&label=" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let page = try await server.request(.post, "/food", raw: Data(form.utf8), headers: headers)
            #expect(page.status == .ok && page.text.contains("Unhealthy") && page.text.contains("470 mg"), "\(page.status)")
        }
    }
}
