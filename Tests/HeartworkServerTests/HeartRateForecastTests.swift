import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import Testing

@testable import HeartworkServer

/// Issue 25, seed 003's heart-rate prediction shown (F9, §3.1: an AR model "requested to
/// predict" the heart rate; the rule is our own, `HeartRateAnomalyDetector`): the last 24
/// hours against the band the model expected, with the stretches it flags, on the history page.
@Suite("Heart-rate forecast on the history page")
struct HeartRateForecastTests {
    /// 8 days of heart rate every 5 minutes up to `now` (UTC): about 60 bpm at rest with a
    /// daily swing and noise, a 30-minute rise to 95 at rest 6 hours before `now`, and one to
    /// 110 during a walk (steps) 10 hours before it.
    struct Week {
        let now: Date
        let rise: ClosedRange<Date>
        let walk: ClosedRange<Date>
        let heart: [HealthSample]
        let steps: [HealthSample]

        init(now: Date) {
            self.now = now
            let rise = now.addingTimeInterval(-6 * 3600)
            self.rise = rise...rise.addingTimeInterval(1800)
            let walk = now.addingTimeInterval(-10 * 3600)
            self.walk = walk...walk.addingTimeInterval(1800)
            var random = SplitMix64(seed: 25)
            var heart = [HealthSample]()
            var time = now.addingTimeInterval(-8 * 86_400)
            while time < now {
                var bpm = 60 + 4 * sin(time.timeIntervalSince1970 / 86_400 * 2 * .pi) + random.nextGaussian()
                if self.rise.contains(time) && time < self.rise.upperBound { bpm = 95 }
                if self.walk.contains(time) && time < self.walk.upperBound { bpm = 110 }
                heart.append(HealthSample(kind: .heartRate, start: time, end: time, utcOffsetSeconds: 0, value: (bpm * 10).rounded() / 10, source: "Watch"))
                time = time.addingTimeInterval(300)
            }
            self.heart = heart
            steps = [HealthSample(kind: .steps, start: walk, end: walk.addingTimeInterval(1800), utcOffsetSeconds: 0, value: 3000, source: "Watch")]
        }
    }

    /// The band is the forecast ± k·σ (k = 3, the default), the rise at rest is the one stretch
    /// flagged, from its first slot to its last; the walk is a gap (steps explain it).
    @Test(arguments: TestDatabase.all)
    func theBandAndTheFlaggedStretch(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (id, _) = try await server.signUp("forecast")
            let user = try #require(try await server.store.users.find(id: id))
            let week = Week(now: Date(timeIntervalSince1970: 1_794_999_900))  // a multiple of 5 minutes
            _ = try await server.store.health.add(userID: user.id, week.heart + week.steps, now: week.now)

            let forecast = try #require(try await server.services.daily.heartRateForecast(for: user, now: week.now))
            #expect(forecast.from == week.now.addingTimeInterval(-86_400) && forecast.to == week.now)
            #expect(forecast.slots.count == 288 && forecast.intervalSeconds == 300)
            #expect(forecast.slots.first?.start == forecast.from)
            #expect(forecast.bandSD == 3 && forecast.order == 3 && forecast.consecutive == 3)
            // σ of the noise is about 1 bpm (floor 1), so the band is 3 to 6 bpm each side.
            #expect(forecast.band >= 3 && forecast.band < 6, "band ±\(forecast.band)")
            for slot in forecast.slots {
                if let expected = slot.expected {
                    #expect(slot.low == expected - forecast.band && slot.high == expected + forecast.band)
                    if let observed = slot.observed { #expect(slot.outside == (abs(observed - expected) > forecast.band)) }
                }
            }
            #expect(forecast.stretches.count == 1)
            let stretch = try #require(forecast.stretches.first)
            #expect(stretch.start == week.rise.lowerBound && stretch.end == week.rise.upperBound)
            #expect(stretch.reason.contains("above") && stretch.reason.contains("95 bpm for 30 min"))
            let during = { (range: ClosedRange<Date>) in forecast.slots.filter { $0.start >= range.lowerBound && $0.start < range.upperBound } }
            #expect(during(week.rise).count == 6 && during(week.rise).allSatisfy { $0.outside && $0.observed == 95 })
            #expect(during(week.walk).count == 6 && during(week.walk).allSatisfy { $0.observed == nil && !$0.outside })
            // Outside the rise, nothing else is outside for 3 slots in a row.
            #expect(forecast.slots.filter(\.outside).count < 12)

            // The chart's data: the band breaks at the walk (two ribbons), the stretch is shaded.
            let chart = ForecastCharts.chart(forecast, title: "t")
            #expect(chart.bands.count == 2, "\(chart.bands.count) ribbons")
            #expect(chart.flagged == [18.0...18.5])
            #expect(chart.measured.count == 2)
            #expect(chart.outside.count >= 6)
            #expect(chart.yDomain.lowerBound <= 50 && chart.yDomain.upperBound >= 100)

            // Without a week before, there is no model and nothing to show.
            let (otherID, _) = try await server.signUp("newcomer")
            let newcomer = try #require(try await server.store.users.find(id: otherID))
            _ = try await server.store.health.add(userID: newcomer.id, Array(week.heart.suffix(200)), now: week.now)
            #expect(try await server.services.daily.heartRateForecast(for: newcomer, now: week.now) == nil)
        }
    }

    /// The page draws the chart with its legend and help in words, lists the stretch with its
    /// clock time, and says what is missing when there is no model; only the user's own data.
    @Test func theHistoryPageShowsTheForecast() async throws {
        try await ServerHarness.run { server in
            let (id, _) = try await server.signUp("pageforecast")
            let now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 300).rounded(.down) * 300)
            let week = Week(now: now)
            _ = try await server.store.health.add(userID: id, week.heart + week.steps, now: now)
            _ = try await server.signUp("stranger")

            let (cookie, _) = try await server.webSession("pageforecast")
            var headers = HTTPFields()
            headers[.cookie] = cookie
            let page = try await server.request(.get, "/health/history", headers: headers)
            #expect(page.status == .ok)
            let text = page.text
            #expect(text.contains("The last 24 hours against what was expected"))
            #expect(text.contains("expected range") && text.contains("unusual stretch") && text.contains("your heart rate"))
            #expect(text.contains("<polygon"), "the band is drawn")
            let clock = HealthCharts.clock(week.rise.lowerBound, zone: .gmt) + "–" + HealthCharts.clock(week.rise.upperBound, zone: .gmt)
            #expect(text.contains("<strong>\(clock)</strong>"), "the stretch \(clock) is listed")
            #expect(text.contains("give or take 3 times its usual error"))
            #expect(text.contains("id=\"forecast-help\""))

            let (strangerCookie, _) = try await server.webSession("stranger")
            var strangerHeaders = HTTPFields()
            strangerHeaders[.cookie] = strangerCookie
            let empty = try await server.request(.get, "/health/history", headers: strangerHeaders)
            #expect(empty.status == .ok)
            #expect(empty.text.contains("No expected range yet"))
            #expect(!empty.text.contains(clock))
        }
    }

    /// The demo's account (nights at rest, days of steps) has a forecast to show, and its
    /// nights, recorded as sleep, are gaps: a sleeping heart's fall is no unusual stretch (before,
    /// the whole night, 23:00–05:00, was flagged as 56 bpm below an expected 71).
    @Test func theDemoHasAForecast() async throws {
        try await ServerHarness.run { server in
            let login = try await DemoData.seed(into: server.services, weeks: 2)
            let user = try #require(try await server.store.users.find(username: login.username))
            let forecast = try await server.services.daily.heartRateForecast(for: user)
            #expect(forecast != nil)
            if let forecast {
                #expect(forecast.slots.filter { $0.expected != nil }.count > 50, "\(forecast.slots.filter { $0.expected != nil }.count) slots forecast")
                #expect(forecast.stretches.allSatisfy { $0.end.timeIntervalSince($0.start) < 2 * 3600 }, "\(forecast.stretches.map(\.reason))")
                #expect(!forecast.stretches.contains { $0.reason.contains("below") && $0.end.timeIntervalSince($0.start) >= 3600 })
            }
        }
    }

    /// A workout that ended before the grid starts (the forecast asks for a day more of
    /// workouts than it tests) marks no slot active; one inside marks its own slots only.
    @Test func aWorkoutBeforeTheGridMarksNothing() {
        let detector = HeartRateAnomalyDetector()
        let readings = stride(from: 0.0, to: 3600, by: 60).map { TimedHeartRate(timeSeconds: $0, beatsPerMinute: 60) }
        let before = detector.resample(heartRate: readings, activeSpans: [-7200 ... -3600], from: 0, to: 3600)
        #expect(before.count == 12 && before.allSatisfy { $0 == 60 })
        let inside = detector.resample(heartRate: readings, activeSpans: [-600...900], from: 0, to: 3600)
        #expect(inside.prefix(4).allSatisfy { $0 == nil } && inside.dropFirst(4).allSatisfy { $0 == 60 })
    }

    /// The chart's own data from slots: gaps break the band and the line; one slot alone is a
    /// ribbon as wide as the slot.
    @Test func theChartBreaksAtGaps() {
        let slots = [
            ForecastChart.Slot(x: 0, observed: 60, low: 55, high: 65, outside: false),
            ForecastChart.Slot(x: 1, observed: 61, low: 56, high: 66, outside: false),
            ForecastChart.Slot(x: 2, observed: nil, low: nil, high: nil, outside: false),
            ForecastChart.Slot(x: 3, observed: 90, low: 57, high: 67, outside: true),
            ForecastChart.Slot(x: 4, observed: 62, low: nil, high: nil, outside: false),
        ]
        let chart = ForecastChart(title: "t", slots: slots, slotWidth: 1, flagged: [3...4], xDomain: 0...5)
        #expect(chart.bands.count == 2)
        #expect(chart.bands[0].lower.map(\.y) == [55, 56] && chart.bands[0].upper.map(\.x) == [0.5, 1.5])
        #expect(chart.bands[1].lower.map(\.x) == [3, 4] && chart.bands[1].upper.map(\.y) == [67, 67])
        #expect(chart.measured.map(\.count) == [2, 2])
        #expect(chart.outside == [ChartPoint(x: 3.5, y: 90)])
        #expect(chart.yDomain == 50...95)
        var svg = SVGDocument(width: 320, height: 300, title: "t")
        chart.chart.draw(in: Frame(x: 0, y: 0, width: 320, height: 300), on: &svg)
        #expect(svg.rendered.contains("<polygon") && svg.rendered.contains("unusual stretch"))
    }
}
