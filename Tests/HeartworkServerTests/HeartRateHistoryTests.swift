import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import Testing

@testable import HeartworkServer

/// History and alerts as the seeds say (issue 24): seed 003's rolling windows (the last 24 h,
/// 7 × 24 h, 30 × 24 h up to now) on the page and `GET /api/heart-rate`, the inactivity alert
/// that knows how fresh the steps are, and the anomaly detector that spreads a step sample
/// over its time.
@Suite("Heart-rate history and alerts")
struct HeartRateHistoryTests {
    static let vienna = TimeZone(identifier: "Europe/Vienna")!

    /// A date-time in Vienna.
    static func vienna(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = vienna
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    /// Heart rate every `step` seconds from `start` to `end` (exclusive), each with Vienna's
    /// offset at its instant.
    static func heartRate(from start: Date, to end: Date, every step: Double = 300, bpm: (Date) -> Double) -> [HealthSample] {
        stride(from: start.timeIntervalSince1970, to: end.timeIntervalSince1970, by: step).map { seconds in
            let time = Date(timeIntervalSince1970: seconds)
            return HealthSample(kind: .heartRate, start: time, end: time, utcOffsetSeconds: vienna.secondsFromGMT(for: time), value: bpm(time), source: "Watch")
        }
    }

    static func viennese(_ server: ServerHarness, _ name: String) async throws -> (user: UserRecord, token: String) {
        let (id, token) = try await server.signUp(name)
        #expect(try await server.request(.patch, "/api/me", token: token, json: ["timeZone": "Europe/Vienna"]).status == .ok)
        return (try #require(try await server.store.users.find(id: id)), token)
    }

    /// At 00:30 the last 24 hours are yesterday's from 00:30 on and today's half hour, not the
    /// half hour since midnight; the API gives the same range per hour.
    @Test(arguments: TestDatabase.all)
    func theLast24HoursAtHalfPastMidnight(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (user, token) = try await Self.viennese(server, "halfpast")
            let now = Self.vienna(2026, 11, 20, 0, 30)
            // Yesterday at 70 bpm (80 from 12:00 to 13:00), today's first half hour at 50.
            let samples =
                Self.heartRate(from: Self.vienna(2026, 11, 18, 23, 0), to: Self.vienna(2026, 11, 20, 0, 0)) { time in
                    time >= Self.vienna(2026, 11, 19, 12) && time < Self.vienna(2026, 11, 19, 13) ? 80 : 70
                } + Self.heartRate(from: Self.vienna(2026, 11, 20, 0, 0), to: now) { _ in 50 }
            _ = try await server.store.health.add(userID: user.id, samples, now: now)

            let day = try await server.services.daily.heartRateHistory(for: user, window: .day, now: now)
            #expect(day.from == Self.vienna(2026, 11, 19, 0, 30) && day.to == now)
            #expect(day.minimum == 50 && day.maximum == 80)
            // 23.5 h of yesterday (1 h of it at 80) and 0.5 h at 50, each reading 5 minutes.
            let weighted: Double = (22.5 * 70 + 80 + 0.5 * 50) / 24
            let expected = (weighted * 10).rounded() / 10
            #expect(day.average == expected, "\(String(describing: day.average)) ≠ \(expected)")
            #expect(day.bins.count == 288 && day.binSeconds == 300)
            #expect(day.bins.first?.start == Self.vienna(2026, 11, 19, 0, 30))
            let week = try await server.services.daily.heartRateHistory(for: user, window: .week, now: now)
            #expect(week.from == now.addingTimeInterval(-7 * 86_400) && week.binSeconds == 3600 && week.bins.count == 26)

            let from = "2026-11-18T23:30:00Z"  // 00:30 in Vienna
            let api = try await server.request(.get, "/api/heart-rate?from=\(from)&to=2026-11-19T23:30:00Z&resolution=hour", token: token)
            #expect(api.status == .ok, "\(api.text)")
            #expect(api.json["minimum"] as? Double == 50 && api.json["maximum"] as? Double == 80 && api.json["average"] as? Double == expected)
            #expect(api.json["resolution"] as? String == "hour" && api.json["bucketSeconds"] as? Int == 3600 && api.json["samples"] as? Int == 288)
            let series = try #require(api.json["series"] as? [[String: Any]])
            // Buckets are UTC hours: 23:30–00:00 UTC, then 23 whole hours and 23:00–23:30.
            #expect(series.count == 25 && series.first?["start"] as? String == "2026-11-18T23:00:00Z")
            #expect(series.first?["seconds"] as? Double == 1800)
            #expect(series.contains { $0["start"] as? String == "2026-11-19T11:00:00Z" && $0["average"] as? Double == 80 })
        }
    }

    /// On the night summer time ends (Vienna, 25 October 2026, 03:00 CEST → 02:00 CET) the last
    /// 24 hours are 24 hours: from 13:00 CEST the day before to 12:00 CET, 288 readings of 5 minutes.
    @Test(arguments: TestDatabase.all)
    func theLast24HoursAcrossTheEndOfSummerTime(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (user, token) = try await Self.viennese(server, "summertime")
            let now = Self.vienna(2026, 10, 25, 12)
            #expect(Self.vienna.secondsFromGMT(for: now) == 3600 && Self.vienna.secondsFromGMT(for: now.addingTimeInterval(-86_400)) == 7200)
            let samples = Self.heartRate(from: now.addingTimeInterval(-2 * 86_400), to: now) { time in
                Self.vienna.secondsFromGMT(for: time) == 7200 ? 60 : 66
            }
            _ = try await server.store.health.add(userID: user.id, samples, now: now)
            let day = try await server.services.daily.heartRateHistory(for: user, window: .day, now: now)
            #expect(day.to.timeIntervalSince(day.from) == 86_400)
            #expect(day.from == Self.vienna(2026, 10, 24, 13), "13:00 CEST the day before")
            #expect(day.bins.count == 288, "24 hours of 5-minute bins, though the clock shows 23")
            // 14 hours of summer time (13:00–03:00 CEST) at 60, 10 hours of winter time (02:00–12:00 CET) at 66.
            let weighted: Double = (14 * 60 + 10 * 66) / 24
            #expect(day.average == (weighted * 10).rounded() / 10)
            let api = try await server.request(
                .get, "/api/heart-rate?from=2026-10-24T11:00:00Z&to=2026-10-25T11:00:00Z&resolution=hour", token: token)
            #expect(api.status == .ok && (api.json["series"] as? [[String: Any]])?.count == 24 && api.json["samples"] as? Int == 288, "\(api.text)")
        }
    }

    /// The API: per second a reading every 5 s fills 5 buckets; a range too long for its
    /// resolution, a range that ends before it starts, a missing start and an unknown
    /// resolution are refused with 400 and the reason.
    @Test(arguments: TestDatabase.all)
    func theHeartRateAPIAnswersAtEachResolutionAndRefusesTooMuch(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (user, token) = try await Self.viennese(server, "resolutions")
            let start = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z
            let samples = Self.heartRate(from: start, to: start.addingTimeInterval(3600), every: 5) { time in
                100 + Double(Int(time.timeIntervalSince(start)) / 5 % 2) * 10
            }
            _ = try await server.store.health.add(userID: user.id, samples, now: start)
            let from = "2026-11-18T11:06:40Z"
            let to = "2026-11-18T12:06:40Z"
            let seconds = try await server.request(.get, "/api/heart-rate?from=\(from)&to=\(to)&resolution=second", token: token)
            #expect(seconds.status == .ok)
            #expect((seconds.json["series"] as? [[String: Any]])?.count == 3600 && seconds.json["average"] as? Double == 105)
            let minutes = try await server.request(.get, "/api/heart-rate?from=\(from)&to=\(to)", token: token)
            #expect(minutes.json["resolution"] as? String == "minute", "per minute by default up to 7 days")
            let perMinute = try #require(minutes.json["series"] as? [[String: Any]])
            #expect(perMinute.count == 61 && perMinute[1]["minimum"] as? Double == 100 && perMinute[1]["maximum"] as? Double == 110)
            #expect(perMinute[1]["average"] as? Double == 105 && perMinute[1]["seconds"] as? Double == 60)

            let tooLong = try await server.request(.get, "/api/heart-rate?from=2026-11-16T00:00:00Z&to=2026-11-18T00:00:00Z&resolution=second", token: token)
            #expect(tooLong.status == .badRequest && tooLong.problemField == "resolution", "\(tooLong.text)")
            #expect((tooLong.json["detail"] as? String)?.contains("per second a range is at most 27 h 46 min (100000 points)") == true, "\(tooLong.text)")
            #expect((tooLong.json["detail"] as? String)?.contains("ask per minute") == true)
            #expect(try await server.request(.get, "/api/heart-rate?from=2025-01-01T00:00:00Z&to=2026-11-18T00:00:00Z", token: token).problemField == "to")
            for (query, field) in [
                ("from=\(to)&to=\(from)", "to"), ("to=\(to)", "from"), ("from=\(from)&resolution=fortnight", "resolution"), ("from=yesterday", "from"),
            ] {
                let refused = try await server.request(.get, "/api/heart-rate?\(query)", token: token)
                #expect(refused.status == .badRequest && refused.problemField == field, "\(query): \(refused.text)")
            }
            let empty = try await server.request(.get, "/api/heart-rate?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z", token: token)
            #expect(empty.status == .ok && empty.json["minimum"] == nil && (empty.json["series"] as? [Any])?.isEmpty == true)
            #expect(try await server.request(.get, "/api/heart-rate?from=\(from)").status == .unauthorized)
        }
    }

    /// The history page shows the seed's windows by name, the last 24 hours first.
    @Test func theHistoryPageNamesItsRollingWindows() async throws {
        try await ServerHarness.run { server in
            let (user, _) = try await Self.viennese(server, "historypage")
            let now = Date()
            _ = try await server.store.health.add(userID: user.id, Self.heartRate(from: now.addingTimeInterval(-3 * 3600), to: now) { _ in 64 }, now: now)
            let session = try await server.webSession("historypage")
            let page = try await server.request(.get, "/health/history", headers: [.cookie: session.cookie])
            #expect(page.status == .ok)
            for words in ["Last 24 hours", "Last 7 days", "Last 30 days", "<h2 id=\"history-title\">Heart rate, the last 24 hours</h2>", "id=\"history-window\"", "64 bpm"] {
                #expect(page.text.contains(words), "\(words)")
            }
            let month = try await server.request(.get, "/health/history?range=month", headers: [.cookie: session.cookie])
            #expect(month.text.contains("<h2 id=\"history-title\">Heart rate, the last 30 days</h2>"))
        }
    }

    /// With no steps since 10:00, the 18:00 alert says so instead of counting them; when fresh
    /// steps arrive and are still too few, the usual alert follows, once.
    @Test(arguments: TestDatabase.all)
    func theInactivityAlertKnowsWhenStepsAreStale(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (user, token) = try await Self.viennese(server, "stalesteps")
            let day = try #require(CalendarDay(year: 2026, month: 11, day: 20))
            func steps(_ from: Date, minutes: Double, _ count: Double) -> HealthSample {
                HealthSample(kind: .steps, start: from, end: from.addingTimeInterval(minutes * 60), utcOffsetSeconds: 3600, value: count, source: "Watch")
            }
            var samples = Self.heartRate(from: Self.vienna(2026, 11, 20, 0), to: Self.vienna(2026, 11, 20, 18)) { _ in 62 }
            samples.append(steps(Self.vienna(2026, 11, 20, 9, 40), minutes: 20, 1200))
            _ = try await server.store.health.add(userID: user.id, samples, now: Self.vienna(2026, 11, 20, 10, 30))
            try await server.services.daily.recompute(user, from: day, through: day, now: Self.vienna(2026, 11, 20, 10, 30))

            let daily = server.services.daily
            #expect(try await daily.checkInactivity(user, now: Self.vienna(2026, 11, 20, 18, 5)))
            #expect(try await !daily.checkInactivity(user, now: Self.vienna(2026, 11, 20, 18, 10)), "once")
            // The phone syncs: 300 more steps, 18:00–18:15, still below 5000.
            _ = try await server.store.health.add(userID: user.id, [steps(Self.vienna(2026, 11, 20, 18), minutes: 15, 300)], now: Self.vienna(2026, 11, 20, 18, 20))
            try await server.services.daily.recompute(user, from: day, through: day, now: Self.vienna(2026, 11, 20, 18, 20))
            #expect(try await daily.checkInactivity(user, now: Self.vienna(2026, 11, 20, 18, 25)))
            #expect(try await !daily.checkInactivity(user, now: Self.vienna(2026, 11, 20, 18, 30)))

            let notes = try await server.request(.get, "/api/notifications", token: token).json["notifications"] as? [[String: Any]] ?? []
            let texts = notes.filter { $0["kind"] as? String == "health-inactivity" }.compactMap { $0["text"] as? String }
            #expect(texts.count == 2, "\(texts)")
            #expect(
                texts.contains("No steps have arrived since 10:00 (1200 by then, your goal is 5000 by 18:00): open Health Auto Export or sync your phone"),
                "\(texts)")
            #expect(texts.contains { $0.contains("you had taken 1500 steps, below your 5000") }, "\(texts)")
            #expect(!texts.contains { $0.contains("taken 1200 steps") }, "stale steps are not counted as the day's")
        }
    }

    /// A 40-minute walk recorded as one step sample of 4,000 steps is active for its whole
    /// time (500 steps in each of its 5-minute slots), so its raised heart rate is not an
    /// anomaly; a rise at 03:00 without steps still is.
    @Test(arguments: TestDatabase.all)
    func aWalksStepsCoverItsWholeTime(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (id, token) = try await server.signUp("longwalk")
            let user = try #require(try await server.store.users.find(id: id))
            let day = try #require(CalendarDay(year: 2026, month: 11, day: 20))
            let first = day.adding(days: -7).start()
            var random = SplitMix64(seed: 24)
            var samples = [HealthSample]()
            for slot in 0..<(8 * 288) {
                let time = first.addingTimeInterval(Double(slot) * 300)
                let minute = (slot % 288) * 5
                let lastDay = slot >= 7 * 288
                var bpm = 60 + Double.random(in: -2...2, using: &random)
                if lastDay && (180..<220).contains(minute) { bpm += 25 }  // 03:00–03:40, at rest
                if lastDay && (600..<640).contains(minute) { bpm += 25 }  // 10:00–10:40, walking
                samples.append(HealthSample(kind: .heartRate, start: time, end: time, utcOffsetSeconds: 0, value: bpm.rounded(), source: "Watch"))
            }
            let walk = day.start().addingTimeInterval(10 * 3600)
            samples.append(HealthSample(kind: .steps, start: walk, end: walk.addingTimeInterval(40 * 60), utcOffsetSeconds: 0, value: 4000, source: "Watch"))
            _ = try await server.store.health.add(userID: id, samples, now: Date())
            try await server.services.daily.recompute(user, from: day.adding(days: -7), through: day, now: day.start().addingTimeInterval(86_399))
            let notes = try await server.request(.get, "/api/notifications", token: token).json["notifications"] as? [[String: Any]] ?? []
            let anomalies = notes.filter { $0["kind"] as? String == "health-anomaly" }.compactMap { $0["text"] as? String }
            #expect(anomalies.count == 1 && anomalies.first?.contains("on 2026-11-20 at 03:0") == true, "\(anomalies)")
        }
    }
}
