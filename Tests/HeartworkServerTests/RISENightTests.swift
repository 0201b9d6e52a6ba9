import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import SQLKit
import Testing

@testable import HeartworkServer

/// Issue 25, RISE (seed 004): a night recorded by a phone and a watch at once, the "Time
/// Slept" a user sets by hand, recovery as the seed computes it, and the Intensity view and the
/// weekly line, through the import, the API, the store and the pages.
@Suite("RISE nights: two devices, time slept, intensity")
struct RISENightTests {
    static var today: CalendarDay { CalendarDay(Date()) }

    /// An Apple Health export of one night before `day` (UTC), as the Health app writes it when
    /// an iPhone and an Apple Watch both recorded it (the numbers of `DailySummaryTests`):
    /// the phone's in-bed records 22:30–01:00 and 00:30–07:00 (8.5 h together); the watch's
    /// stages core 23:00–01:00, awake 01:00–01:15, deep 01:15–03:00, nothing 03:00–03:30 (not
    /// worn), REM 03:30–05:00, core 05:00–06:30 (6.75 h asleep).
    static func twoDeviceNight(_ day: CalendarDay) -> String {
        let midnight = day.start()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        func stamp(_ hours: Double) -> String { formatter.string(from: midnight.addingTimeInterval(hours * 3600)) + " +0000" }
        func record(_ value: String, _ from: Double, _ to: Double, phone: Bool) -> String {
            let source = phone ? "sourceName=\"Anna’s iPhone\"" : "sourceName=\"Anna’s Apple Watch\" device=\"\(HealthExportFixture.watch)\""
            return
                " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" \(source) creationDate=\"\(stamp(to))\" startDate=\"\(stamp(from))\" endDate=\"\(stamp(to))\" value=\"HKCategoryValueSleepAnalysis\(value)\"/>\n"
        }
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2026-11-25 09:00:00 +0000"/>

            """
        out += record("InBed", -1.5, 1, phone: true) + record("InBed", 0.5, 7, phone: true)
        out += record("AsleepCore", -1, 1, phone: false) + record("Awake", 1, 1.25, phone: false) + record("AsleepDeep", 1.25, 3, phone: false)
        out += record("AsleepREM", 3.5, 5, phone: false) + record("AsleepCore", 5, 6.5, phone: false)
        return out + "</HealthData>\n"
    }

    @Test(arguments: TestDatabase.all)
    func aNightRecordedByAPhoneAndAWatchCountsBoth(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("risetwo")
            let xml = Data(Self.twoDeviceNight(Self.today).utf8)
            let done = try await DailyAPITests.importExport(server, token, xml, contentType: "application/xml")
            #expect(done["state"] as? String == "done" && done["samplesAdded"] as? Int == 7, "\(done)")
            let day = try await server.request(.get, "/api/days/\(Self.today)", token: token)
            let sleep = try #require(day.json["sleep"] as? [String: Any], "\(day.text)")
            #expect(sleep["inBedHours"] as? Double == 8.5, "the union of the phone's in-bed records: \(sleep)")
            #expect(sleep["asleepHours"] as? Double == 6.75, "the sum of the watch's asleep stages: \(sleep)")
            #expect(sleep["quality"] as? Int == 8 && sleep["recoveryPercent"] as? Double == 85, "8.5 h × 8/10 ÷ 8 × 100: \(sleep)")
            #expect(sleep["timeSource"] as? String == "recorded")
            let bed = try #require(sleep["bedTime"] as? String)
            #expect(bed.hasPrefix(Self.today.adding(days: -1).description + "T22:30:00"), "\(bed)")
            // Imported again: nothing new, the same night.
            let again = try await DailyAPITests.importExport(server, token, xml, contentType: "application/xml")
            #expect(again["samplesAdded"] as? Int == 0)
            #expect(((try await server.request(.get, "/api/days/\(Self.today)", token: token)).json["sleep"] as? [String: Any])?["inBedHours"] as? Double == 8.5)
            // The user's order can put the phone first: nothing of the phone's overlaps itself, so nothing changes but the ranks.
            try await server.request(.put, "/api/health/settings", token: token, json: ["sourceOrder": ["Anna’s iPhone"]])
            let owner = try #require(try await server.store.users.find(username: "risetwo"))
            try await server.services.daily.recompute(owner, from: Self.today, through: Self.today)
            let reordered = try #require(try await server.services.daily.day(Self.today, for: owner).sleep)
            #expect(reordered.inBedHours == 8.5 && reordered.asleepHours == 6.75)
        }
    }

    /// Issue 25's review: days an older version of the formulas stored (a recovery capped at
    /// 100 %, the old intensity bands) stayed on the pages after an upgrade until new data came.
    /// Each stored day now says its formula version, and days of an older one are worked out
    /// again at start (`recomputeOutdated`, a schedule of the job runner).
    @Test(arguments: TestDatabase.all)
    func daysStoredByAnOlderFormulaAreWorkedOutAgain(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (id, token) = try await server.signUp("riseformula")
            let done = try await DailyAPITests.importExport(server, token, Data(Self.twoDeviceNight(Self.today).utf8), contentType: "application/xml")
            #expect(done["state"] as? String == "done", "\(done)")
            let store = server.store.daily
            #expect(try await store.outdatedDays(formula: DailyCalculator.formulaVersion).allSatisfy { $0.userID != id })
            // As an older version left the day: another recovery, and formula 1.
            var old = try #require(try await store.day(userID: id, Self.today))
            old.sleep?.recoveryPercent = 42
            try await store.putDay(userID: id, old, now: Date())
            try await server.store.database.sql.raw("UPDATE day_metrics SET formula = 1 WHERE user_id = \(bind: id)").run()
            let outdated = try await store.outdatedDays(formula: DailyCalculator.formulaVersion).filter { $0.userID == id }
            #expect(outdated.count == 1 && outdated.first.map { $0.from <= Self.today } == true, "\(outdated)")
            #expect(try await store.day(userID: id, Self.today)?.sleep?.recoveryPercent == 42)
            #expect(try await server.services.daily.recomputeOutdated() >= 1)
            await server.services.jobs.runUntilIdle()
            #expect(try await store.day(userID: id, Self.today)?.sleep?.recoveryPercent == 85, "worked out again: 8.5 h × 8/10 ÷ 8 × 100")
            #expect(try await store.outdatedDays(formula: DailyCalculator.formulaVersion).allSatisfy { $0.userID != id })
        }
    }

    /// The wake and bed clock times for today's night that lie in the past now (the API takes
    /// no `now`): a wake time a minute ago (at most 17:59), in bed 8 hours before it.
    static func pastNight(offsetSeconds: Int) async throws -> (bed: String, wake: String, hours: Double) {
        var local = Int(Date().timeIntervalSince1970) + offsetSeconds
        var minute = ((local % 86_400) + 86_400) % 86_400 / 60
        if minute < 2 {
            try await Task.sleep(for: .seconds(125))
            local += 125
            minute = ((local % 86_400) + 86_400) % 86_400 / 60
        }
        let wake = min(minute - 1, ManualSleep.latestWakeMinute - 1)
        let bed = (wake - 8 * 60 + 1440) % 1440
        func clock(_ m: Int) -> String { String(format: "%02d:%02d", m / 60, m % 60) }
        return (clock(bed), clock(wake), 8)
    }

    @Test(arguments: TestDatabase.all)
    func timeSleptSetByHandWinsUntilClearedAndIsNobodyElses(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (annaID, anna) = try await server.signUp("riseanna")
            let xml = Data(HealthExportFixture.xml(days: [Self.today.description]).utf8)
            _ = try await DailyAPITests.importExport(server, anna, xml, contentType: "application/xml")
            let recorded = try await server.request(.get, "/api/days/\(Self.today)", token: anna)
            #expect((recorded.json["sleep"] as? [String: Any])?["inBedHours"] as? Double == 7.5)
            let offset = try #require(recorded.json["utcOffsetSeconds"] as? Int)
            let night = try await Self.pastNight(offsetSeconds: offset)

            // Set: 8 h in bed at the estimated quality 9 (the fixture's 6.5 of 7.5 h asleep) → 90 %.
            let set = try await server.request(.put, "/api/days/\(Self.today)/sleep-time", token: anna, json: ["bedTime": night.bed, "wakeTime": night.wake])
            #expect(set.status == .ok, "\(set.text)")
            let sleep = try #require(set.json["sleep"] as? [String: Any])
            #expect(sleep["timeSource"] as? String == "entered" && sleep["inBedHours"] as? Double == 8, "\(sleep)")
            #expect(sleep["recordedInBedHours"] as? Double == 7.5 && sleep["asleepHours"] == nil, "\(sleep)")
            #expect(sleep["quality"] as? Int == 9 && sleep["recoveryPercent"] as? Double == 90, "8 h × 9/10 ÷ 8 × 100 (seed 004 Figure-2): \(sleep)")
            // It wins over the imported night when the day is worked out again (another import, the background job).
            let owner = try #require(try await server.store.users.find(id: annaID))
            try await server.services.daily.recompute(owner, from: Self.today.adding(days: -1), through: Self.today)
            #expect((try await server.services.daily.day(Self.today, for: owner)).sleep?.inBedHours == 8)
            // A rating then counts against the time set: 8 h × 10/10 → 100 %.
            let rated = try await server.request(.put, "/api/days/\(Self.today)/sleep-quality", token: anna, json: ["quality": 10])
            #expect((rated.json["sleep"] as? [String: Any])?["recoveryPercent"] as? Double == 100)

            // Another user: their own night only. Setting theirs leaves Anna's; clearing theirs finds none.
            let (_, bob) = try await server.signUp("risebob")
            let bobs = try await server.request(.put, "/api/days/\(Self.today)/sleep-time", token: bob, json: ["bedTime": night.bed, "wakeTime": night.wake])
            #expect(bobs.status == .ok && bobs.json["hasData"] as? Bool == true, "a night set by hand is a day with data: \(bobs.text)")
            #expect((bobs.json["sleep"] as? [String: Any])?["recordedInBedHours"] == nil)
            #expect(try await server.request(.delete, "/api/days/\(Self.today)/sleep-time", token: bob).status == .ok)
            #expect(try await server.request(.delete, "/api/days/\(Self.today)/sleep-time", token: bob).status == .notFound)
            let still = try await server.request(.get, "/api/days/\(Self.today)", token: anna)
            #expect((still.json["sleep"] as? [String: Any])?["timeSource"] as? String == "entered", "Bob's clearing is not Anna's")
            #expect(try await server.request(.delete, "/api/days/\(Self.today)/sleep-time").status == .unauthorized)

            // Refused with the field and the reason; nothing changes.
            for (body, status, field) in [
                (["bedTime": night.wake, "wakeTime": night.wake], HTTPResponse.Status.unprocessableContent, "bedTime"),
                (["bedTime": "23:00", "wakeTime": "19:30"], .unprocessableContent, "wakeTime"),
                (["bedTime": "11pm", "wakeTime": "07:00"], .unprocessableContent, "bedTime"),
                (["bedTime": "23:00"], .unprocessableContent, "wakeTime"),
                (["bedTime": "23:00", "wakeTime": "07:00", "quality": 5], .unprocessableContent, "quality"),
                (["bedTime": 2300, "wakeTime": "07:00"], .badRequest, "bedTime"),
            ] as [([String: Any], HTTPResponse.Status, String)] {
                let refused = try await server.request(.put, "/api/days/\(Self.today)/sleep-time", token: anna, json: body)
                #expect(refused.status == status && refused.problemField == field, "\(body): \(refused.status) \(refused.text)")
            }
            let over = try await server.request(.put, "/api/days/\(Self.today.adding(days: -2))/sleep-time", token: anna, json: ["bedTime": "23:00", "wakeTime": "07:00"])
            #expect(over.status == .conflict && over.text.contains("is over"), "past days cannot be edited (seed 004 F5): \(over.text)")
            #expect(try await server.request(.delete, "/api/days/\(Self.today.adding(days: -2))/sleep-time", token: anna).status == .conflict)
            let ahead = try await server.request(.put, "/api/days/\(Self.today.adding(days: 3))/sleep-time", token: anna, json: ["bedTime": "23:00", "wakeTime": "07:00"])
            #expect(ahead.status == .unprocessableContent && ahead.text.contains("has not begun"))
            #expect(try await server.request(.put, "/api/days/2026-02-30/sleep-time", token: anna, json: ["bedTime": "23:00", "wakeTime": "07:00"]).status == .badRequest)
            #expect(((try await server.request(.get, "/api/days/\(Self.today)", token: anna)).json["sleep"] as? [String: Any])?["inBedHours"] as? Double == 8)

            // Cleared: the recorded night again (the seed's Refresh), the rating stays.
            let cleared = try await server.request(.delete, "/api/days/\(Self.today)/sleep-time", token: anna)
            #expect(cleared.status == .ok, "\(cleared.text)")
            let back = try #require(cleared.json["sleep"] as? [String: Any])
            #expect(back["timeSource"] as? String == "recorded" && back["inBedHours"] as? Double == 7.5 && back["asleepHours"] as? Double == 6.5)
            #expect(back["quality"] as? Int == 10 && back["recoveryPercent"] as? Double == 93.8, "7.5 h × 10/10 ÷ 8 × 100 = 93.75: \(back)")
            #expect(try await server.request(.delete, "/api/days/\(Self.today)/sleep-time", token: anna).status == .notFound)
        }
    }

    /// The store keeps a night's times with the rest of what the user said about the day, on both engines.
    @Test(arguments: TestDatabase.all)
    func theStoreKeepsANightsTimesBesideItsRatingAndMark(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (id, _) = try await server.signUp("risestore")
            let (otherID, _) = try await server.signUp("risestoreother")
            let store = server.store.daily
            let day = CalendarDay(year: 2026, month: 11, day: 20)!
            let night = ManualSleep(bedTime: day.start().addingTimeInterval(-3000), wakeTime: day.start().addingTimeInterval(25_500))
            try await store.putMark(userID: id, DayMarkRecord(day: day, sleepQuality: 7, mark: "sick", updatedAt: Date(milliseconds: 1_000)))
            #expect(try await store.putManualSleep(userID: id, day: day, night, now: Date(milliseconds: 2_000)))
            #expect(try await store.manualSleep(userID: id, from: day, through: day) == [day: night])
            #expect(try await store.manualSleep(userID: otherID, from: day, through: day).isEmpty)
            #expect(try await store.manualSleep(userID: id, from: day.adding(days: 1), through: day.adding(days: 5)).isEmpty)
            let mark = try #require(try await store.marks(userID: id, from: day, through: day).first)
            #expect(mark.sleepQuality == 7 && mark.mark == "sick", "setting the time keeps the rating and the mark")
            // A rating written later keeps the time.
            try await store.putMark(userID: id, DayMarkRecord(day: day, sleepQuality: 9, mark: nil, updatedAt: Date(milliseconds: 3_000)))
            #expect(try await store.manualSleep(userID: id, from: day, through: day)[day] == night)
            // Another user's clearing finds nothing of this user's; this user's clears once.
            #expect(try await store.putManualSleep(userID: otherID, day: day, nil, now: Date()) == false)
            #expect(try await store.putManualSleep(userID: id, day: day, nil, now: Date()))
            #expect(try await store.putManualSleep(userID: id, day: day, nil, now: Date()) == false)
            #expect(try await store.manualSleep(userID: id, from: day, through: day).isEmpty)
            #expect(try await store.marks(userID: id, from: day, through: day).first?.sleepQuality == 9)
        }
    }

    /// The week's intensity line: solid from day to day, dashed across a day without a workout,
    /// a dot and a number for every value, a dash for the days without.
    @Test func theIntensityLineIsSolidFromDayToDayAndDashedAcrossAGap() {
        let svg = HealthCharts.dayLine(
            width: 800, title: "Workout intensity (0–10)", id: "i", labels: ["Sat", "Sun", "Mon", "Tue", "Wed", "Thu", "Fri"],
            values: [nil, 7.4, nil, 10, 8.1, nil, nil], maximum: 10, color: "#0b6bcb")
        #expect(svg.components(separatedBy: "<circle").count - 1 == 3)
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 1, "Tue–Wed, solid")
        #expect(svg.components(separatedBy: "stroke-dasharray").count - 1 == 1, "Sun–Tue across Monday, dashed")
        #expect(svg.contains(">7.4<") && svg.contains(">10.0<") && svg.contains(">8.1<"))
        #expect(!svg.contains("average"))
    }

    @Test func theDayPageSetsTheTimeSleptAndShowsTheIntensityView() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("riseweb")
            let xml = Data(HealthExportFixture.xml(days: [Self.today.adding(days: -1).description, Self.today.description]).utf8)
            _ = try await DailyAPITests.importExport(server, token, xml, contentType: "application/xml")
            let session = try await server.webSession("riseweb")
            var headers = HTTPFields()
            headers[.cookie] = session.cookie
            let page = try await server.request(.get, "/today", headers: headers)
            #expect(page.status == .ok)
            // The night: its clock times; the form to set them; the seed's formula without a cap in the help.
            #expect(page.text.contains("7.5 h in bed (22:30–06:00)"), "the recorded night's span")
            #expect(page.text.contains("action=\"/today/sleep-time\"") && page.text.contains("value=\"22:30\"") && page.text.contains("value=\"06:00\""))
            #expect(!page.text.contains("/today/sleep-time/clear"), "nothing to clear yet")
            #expect(page.text.contains("not capped") && !page.text.contains("at most 100 %"))
            // The Intensity view: resting, now and the day's highest; the run shaded by its intensity; the zones in bpm.
            #expect(page.text.contains("id=\"intensity\"") && page.text.contains("Resting") && page.text.contains("Highest today"))
            #expect(page.text.contains("id=\"current-heart-rate\">70 bpm"), "the fixture's last reading of the day (23:55, 70 bpm)")
            // 45 min at 150 bpm = 79 % of 190: moderate (60–80 %), 2 points a minute → 90 points → intensity 6.5 → shade 7.
            #expect(page.text.contains("<li class=\"shade-7 on-dark\"><a href=\"/workouts/"), "the run, dark blue")
            #expect(page.text.contains("intensity <strong>6.5</strong>"))
            #expect(page.text.contains("<strong>Moderate</strong> 60–80 % (114–151 bpm): 2 points a minute"), "the widened moderate band on the 190-bpm maximum")
            #expect(page.text.contains("we use 60–80 %"))

            // Set by the form; the page says so, and offers the recorded night again.
            headers[.contentType] = "application/x-www-form-urlencoded"
            let offset = try #require((try await server.request(.get, "/api/days/\(Self.today)", token: token)).json["utcOffsetSeconds"] as? Int)
            let night = try await Self.pastNight(offsetSeconds: offset)
            let form = "_csrf=\(session.csrf)&date=\(Self.today)&bedTime=\(night.bed)&wakeTime=\(night.wake)"
            let posted = try await server.request(.post, "/today/sleep-time", raw: Data(form.utf8), headers: headers)
            #expect(posted.status == .seeOther && posted.headers[.location] == "/today?date=\(Self.today)", "\(posted.text)")
            let after = try await server.request(.get, "/today?date=\(Self.today)", headers: [.cookie: session.cookie])
            #expect(after.text.contains("8.0 h in bed (\(night.bed)–\(night.wake))") && after.text.contains("set by you") && after.text.contains("7.5 h recorded"))
            #expect(after.text.contains("<strong>90 %</strong>"), "8 h × 9/10 ÷ 8")
            let bad = try await server.request(
                .post, "/today/sleep-time", raw: Data("_csrf=\(session.csrf)&date=\(Self.today)&bedTime=23:00&wakeTime=19:00".utf8), headers: headers)
            #expect(bad.status == .unprocessableContent && bad.text.contains("before 18:00"))
            let clear = try await server.request(.post, "/today/sleep-time/clear", raw: Data("_csrf=\(session.csrf)&date=\(Self.today)".utf8), headers: headers)
            #expect(clear.status == .seeOther)
            let cleared = try await server.request(.get, "/today?date=\(Self.today)", headers: [.cookie: session.cookie])
            #expect(cleared.text.contains("7.5 h in bed (22:30–06:00)") && !cleared.text.contains("set by you"))

            // The week: recovery and strain bars with their weekly averages, intensity as a line without one.
            let week = try await server.request(.get, "/health/week", headers: [.cookie: session.cookie])
            #expect(week.status == .ok)
            let intensity = try #require(week.text.range(of: "Workout intensity (0–10"))
            let rest = week.text[intensity.upperBound...]
            let chart = rest[..<(rest.range(of: "</svg>")?.lowerBound ?? rest.endIndex)]
            #expect(chart.contains("<polyline") && chart.contains("<circle"), "a line with a dot a day")
            #expect(!chart.contains("stroke-dasharray"), "two days in a row: a solid line")
            #expect(!chart.contains("weekly average"), "no weekly average for intensity (seed 004 F5)")
            #expect(week.text.contains("Recovery, weekly average") && week.text.contains("Strain, weekly average"))
            #expect(!week.text.contains("Workout intensity, weekly average"))
        }
    }
}
