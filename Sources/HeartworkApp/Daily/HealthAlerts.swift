import Foundation
import HeartworkCore
import HeartworkStore
import Logging
import ServiceLifecycle

extension DailyHealthService {
    /// Notification kinds of daily health.
    public static let inactivityAlert = "health-inactivity"
    public static let anomalyAlert = "health-anomaly"

    public func settings(for user: UserRecord) async throws -> HealthSettingsRecord {
        try await store.daily.settings(userID: user.id)
    }

    /// Changes the settings, every value checked; a changed source order works out every day
    /// again (in the background), since it changes which samples stand.
    public func updateSettings(_ settings: HealthSettingsRecord, for user: UserRecord, now: Date = Date()) async throws -> HealthSettingsRecord {
        var errors = [AppError.FieldError]()
        func check(_ ok: Bool, _ field: String, _ detail: String) { if !ok { errors.append(.init(field: field, detail: detail)) } }
        check((0...100_000).contains(settings.stepThreshold), "stepThreshold", "a number of steps from 0 to 100000")
        check((0..<1440).contains(settings.inactivityMinute), "inactivityTime", "a time of day such as 18:00")
        check((1...12).contains(settings.order), "order", "p is a whole number from 1 to 12")
        check(settings.bandSD.isFinite && (1...6).contains(settings.bandSD), "bandSD", "k is from 1 to 6 residual standard deviations")
        check((1...24).contains(settings.consecutive), "consecutive", "a run is 1 to 24 readings")
        check((1...60).contains(settings.intervalMinutes), "intervalMinutes", "the interval is 1 to 60 minutes")
        check(settings.sourceOrder.count <= 20, "sourceOrder", "at most 20 sources")
        for (index, source) in settings.sourceOrder.enumerated() {
            check(
                !source.isEmpty && source.count <= 100 && !source.unicodeScalars.contains { $0.properties.generalCategory == .control },
                "sourceOrder[\(index)]", "a source's name as the export gives it (1–100 characters)")
        }
        if !errors.isEmpty { throw AppError.invalid(errors) }
        let previous = try await store.daily.settings(userID: user.id)
        var stored = settings
        stored.updatedAt = now
        try await store.daily.putSettings(userID: user.id, stored)
        if previous.sourceOrder != stored.sourceOrder, let range = try await store.daily.dataRange(userID: user.id) {
            try await queueRecompute(userID: user.id, from: range.first, now: now)
        }
        return stored
    }

    /// Looks for anomalies in `day`'s resting-state heart rate and tells the user of each new
    /// one (our own design, docs/DAILY-HEALTH.md): the user's heart rate of the day and the 7
    /// days before it, on the settings' grid, with slots of steps (each sample's count spread
    /// over the time it covers) or workouts as gaps; an AR(p) model fitted on the 7 days
    /// before the day, never on the day itself (issue 24); runs on the day that leave the k·σ
    /// band.
    func checkAnomalies(_ user: UserRecord, day: CalendarDay, offset: Int, settings: HealthSettingsRecord, now: Date) async throws {
        guard settings.anomalyAlerts else { return }
        let dayStart = day.start(utcOffsetSeconds: offset)
        let start = day.adding(days: -7).start(utcOffsetSeconds: offset)
        let tested = try await anomalyForecast(
            user, start: start, testingFrom: dayStart, end: min(dayStart.addingTimeInterval(86_400), now), settings: settings)
        guard let tested else { return }
        let dayOffset = dayStart.timeIntervalSince(start)
        for anomaly in tested.forecast.anomalies {
            let at = start.addingTimeInterval(anomaly.startSeconds)
            guard try await store.daily.claimAlert(userID: user.id, key: "anomaly:\(Int(at.timeIntervalSince1970))", now: now) else { continue }
            let clock = String(format: "%02d:%02d", (Int(anomaly.startSeconds - dayOffset) / 3600) % 24, (Int(anomaly.startSeconds - dayOffset) / 60) % 60)
            await inbox?.tell(
                user.id, kind: Self.anomalyAlert, text: "Unusual heart rate on \(day) at \(clock): \(anomaly.reason)",
                link: "/today?date=\(day)", actorID: nil, now: now)
        }
    }

    /// The detector's forecast over `start..<end` with the model fitted on the slots before
    /// `testingFrom` (on the settings' grid, slot 0 at `start`); nil when those do not hold
    /// enough resting heart rate to fit one. Steps (each sample's count spread over the time
    /// it covers), workouts and time in bed or asleep make their slots gaps.
    func anomalyForecast(
        _ user: UserRecord, start: Date, testingFrom: Date, end: Date, settings: HealthSettingsRecord
    ) async throws -> (detector: HeartRateAnomalyDetector, forecast: HeartRateAnomalyDetector.Forecast)? {
        let detector = HeartRateAnomalyDetector(
            order: settings.order, bandSD: settings.bandSD, consecutive: settings.consecutive,
            intervalSeconds: Double(settings.intervalMinutes * 60))
        guard end > start else { return nil }
        // Samples are kept by local day: a day more on each side covers any UTC offset.
        let (firstDay, lastDay) = (CalendarDay(start).adding(days: -1), CalendarDay(end).adding(days: 1))
        let priority = HealthSourcePriority(order: settings.sourceOrder)
        let heart = priority.resolve(try await store.health.samples(userID: user.id, kind: .heartRate, from: firstDay, through: lastDay))
        let steps = priority.resolve(try await store.health.samples(userID: user.id, kind: .steps, from: firstDay, through: lastDay))
        let workouts = try await workouts.all(for: user, from: start.addingTimeInterval(-86_400), to: end)
        // Time in bed or asleep is a gap like a workout: the detector watches the heart at rest
        // while awake, and a sleeping heart's normal fall (20 bpm and more within the hour)
        // would otherwise be flagged as a night-long stretch below the forecast.
        let sleep = try await store.health.samples(userID: user.id, kind: .sleep, from: firstDay, through: lastDay)
        let seconds = { (date: Date) in date.timeIntervalSince(start) }
        let series = detector.resample(
            heartRate: heart.map { TimedHeartRate(timeSeconds: seconds($0.start), beatsPerMinute: $0.value) },
            steps: steps.map { (seconds($0.start), seconds($0.end), $0.value) },
            activeSpans: workouts.map { seconds($0.startedAt)...seconds($0.startedAt.addingTimeInterval(Double($0.metrics.durationSeconds))) }
                + sleep.filter { $0.end > $0.start }.map { seconds($0.start)...seconds($0.end) },
            from: 0, to: seconds(end))
        // The first tested slot is the first that starts at or after `testingFrom`.
        let slot = Int((seconds(testingFrom) / detector.intervalSeconds).rounded(.up))
        return detector.forecast(series, start: 0, testingFrom: slot).map { (detector, $0) }
    }

    /// The last 24 hours' heart rate against the detector's forecast (issue 25: seed 003's
    /// "last day", F5, as the history page shows it): the model fitted on the 7 × 24 hours
    /// before them, as the daily check fits it on the 7 days before a day; each slot's mean,
    /// what the model expected and its band; the stretches it flags. The grid is aligned to
    /// the interval (a 5-minute grid starts on a multiple of 5 minutes).
    public struct HeartRateForecast: Sendable {
        public struct Slot: Sendable, Hashable {
            public var start: Date
            /// The slot's mean heart rate; nil when there is none or activity explains it.
            public var observed: Double?
            /// What the model expected one step ahead, and its band (expected ± k·σ); nil
            /// in a gap and for the first p slots after one.
            public var expected: Double?
            public var low: Double?
            public var high: Double?
            public var outside: Bool
        }

        public struct Stretch: Sendable, Hashable {
            public var start: Date
            public var end: Date
            public var reason: String
        }

        public var from: Date
        public var to: Date
        public var intervalSeconds: Double
        /// k·σ in bpm.
        public var band: Double
        public var order: Int
        public var bandSD: Double
        public var consecutive: Int
        public var slots: [Slot]
        public var stretches: [Stretch]
    }

    /// See `HeartRateForecast`; nil when the week before the last 24 hours holds too little
    /// resting heart rate to fit a model.
    public func heartRateForecast(for user: UserRecord, now: Date = Date()) async throws -> HeartRateForecast? {
        let settings = try await store.daily.settings(userID: user.id)
        let interval = Double(max(1, settings.intervalMinutes) * 60)
        let aligned = Date(timeIntervalSince1970: ((now.timeIntervalSince1970 - 86_400) / interval).rounded(.down) * interval)
        let start = aligned.addingTimeInterval(-7 * 86_400)
        guard let (detector, forecast) = try await anomalyForecast(user, start: start, testingFrom: aligned, end: now, settings: settings) else {
            return nil
        }
        let at = { (seconds: Double) in start.addingTimeInterval(seconds) }
        return HeartRateForecast(
            from: aligned, to: now, intervalSeconds: detector.intervalSeconds, band: forecast.band, order: detector.order,
            bandSD: detector.bandSD, consecutive: detector.consecutive,
            slots: forecast.slots.map { slot in
                HeartRateForecast.Slot(
                    start: at(Double(slot.index) * detector.intervalSeconds), observed: slot.observed, expected: slot.forecast,
                    low: slot.forecast.map { $0 - forecast.band }, high: slot.forecast.map { $0 + forecast.band }, outside: slot.outside)
            },
            stretches: forecast.anomalies.map { HeartRateForecast.Stretch(start: at($0.startSeconds), end: at($0.endSeconds), reason: $0.reason) })
    }

    /// Steps older than this at alert time are stale: the alert says when the last arrived
    /// instead of counting them (issue 24). A phone syncing in the background (Health Auto
    /// Export's automations run at most hourly) is within it; a phone left unsynced is not.
    public static let staleStepsSeconds: TimeInterval = 2 * 3600

    /// The inactivity alert of one user, if it is due: past the user's chosen time today,
    /// today's steps (as imported) below the threshold, and not yet told today. A day without
    /// any data says nothing (no data is not inactivity). When no step has arrived for
    /// `staleStepsSeconds` (the latest step sample of today ends earlier), the alert says so
    /// instead of "you had taken N steps" — seed 003 counts today's steps "from local
    /// start-of-day to now" (F7), which a phone that has not synced cannot know; once fresh
    /// steps arrive and are still below the threshold, the usual alert follows.
    public func checkInactivity(_ user: UserRecord, now: Date = Date()) async throws -> Bool {
        let settings = try await store.daily.settings(userID: user.id)
        guard settings.inactivityAlerts else { return false }
        let today = self.today(for: user, now: now)
        let summary = try await day(today, for: user)
        let minute = Int(now.timeIntervalSince(today.start(utcOffsetSeconds: summary.utcOffsetSeconds)) / 60)
        guard summary.hasData, minute >= settings.inactivityMinute, let steps = summary.steps ?? (summary.heartRate != nil ? 0 : nil),
            steps < settings.stepThreshold
        else { return false }
        let time = String(format: "%02d:%02d", settings.inactivityMinute / 60, settings.inactivityMinute % 60)
        let dayStart = today.start(utcOffsetSeconds: summary.utcOffsetSeconds)
        let latest = try await store.health.samples(userID: user.id, kind: .steps, from: today.adding(days: -1), through: today)
            .filter { $0.end > dayStart && $0.start <= now }.map { max($0.start, $0.end) }.max()
        // Fresh is what arrived lately: the newest step, or — for a phone that syncs — the
        // newest sync, which says "no steps since 14:00" means the user sat still.
        let lastSync = try await store.sync.arrivals(userID: user.id, limit: 1).first?.receivedAt
        let freshest = [latest, lastSync.flatMap { $0 > dayStart ? $0 : nil }].compactMap { $0 }.max()
        if freshest.map({ now.timeIntervalSince($0) > Self.staleStepsSeconds }) ?? true {
            guard try await store.daily.claimAlert(userID: user.id, key: "inactivity-stale:\(today)", now: now) else { return false }
            let text: String
            if let latest {
                let minutes = max(0, Int(latest.timeIntervalSince(dayStart) / 60))
                let since = String(format: "%02d:%02d", min(23, minutes / 60), minutes % 60)
                text = "No steps have arrived since \(since) (\(steps) by then, your goal is \(settings.stepThreshold) by \(time)): open Health Auto Export or sync your phone"
            } else {
                text = "No steps have arrived today (your goal is \(settings.stepThreshold) by \(time)): open Health Auto Export or sync your phone"
            }
            await inbox?.tell(user.id, kind: Self.inactivityAlert, text: text, link: "/today", actorID: nil, now: now)
            return true
        }
        guard try await store.daily.claimAlert(userID: user.id, key: "inactivity:\(today)", now: now) else { return false }
        await inbox?.tell(
            user.id, kind: Self.inactivityAlert,
            text: "By \(time) today you had taken \(steps) steps, below your \(settings.stepThreshold): time for a walk?",
            link: "/today", actorID: nil, now: now)
        return true
    }
}

/// Checks whose inactivity alert is due (users with watch data in the last two days): one of
/// the job runner's schedules, every five minutes. With several instances, each alert is
/// still given once (`claimAlert`).
public struct HealthAlertChecker: Sendable {
    let daily: DailyHealthService
    let store: HeartworkStore
    let logger: Logger

    /// One pass; returns how many alerts were given.
    @discardableResult
    public func checkOnce(now: Date = Date()) async -> Int {
        var given = 0
        do {
            for id in try await store.daily.usersWithSamples(since: CalendarDay(now).adding(days: -2)) {
                guard let user = try await store.users.find(id: id) else { continue }
                if try await daily.checkInactivity(user, now: now) { given += 1 }
            }
        } catch {
            logger.warning("inactivity check failed", metadata: ["error": "\(String(reflecting: error))"])
        }
        return given
    }
}
