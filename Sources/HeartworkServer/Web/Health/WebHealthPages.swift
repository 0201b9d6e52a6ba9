import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// Daily health in the web app (issue 11; docs/DAILY-HEALTH.md): Today (recovery, strain so
/// far, readiness with its reasons, the night's rating, marks), the week (RISE's evaluation
/// with weekly averages, and training load), heart-rate history over a day, 7 days and 30
/// days with steps, and the Apple Health import (the upload runs in the page's script with a
/// progress bar; the API does the work).
struct WebHealthPages {
    let services: HeartworkServices
    let pages: PageRenderer

    var daily: DailyHealthService { services.daily }

    struct RatingForm: Decodable { let quality: String?, date: String? }
    struct MarkForm: Decodable { let mark: String?, date: String? }
    struct SleepTimeForm: Decodable { let bedTime: String?, wakeTime: String?, date: String? }
    struct FoodForm: Decodable { let label: String? }
    struct SettingsForm: Decodable { let stepThreshold: String?, inactivityTime: String?, inactivityAlerts: String?, anomalyAlerts: String? }

    func register(on router: RouterGroup<AuthenticatedContext>) {
        router.get("today", use: getToday)
        router.post("today/sleep-quality", use: postTodaySleepQuality)
        router.post("today/sleep-time", use: postTodaySleepTime)
        router.post("today/sleep-time/clear", use: postTodaySleepTimeClear)
        router.post("today/settings", use: postTodaySettings)
        router.post("today/mark", use: postTodayMark)
        router.get("health/week", use: getHealthWeek)
        router.get("health/history", use: getHealthHistory)
        router.get("food", use: getFood)
        router.post("food", use: postFood)
        router.get("health/import", use: getHealthImport)
    }

    /// GET /today
    func getToday(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let user = context.user
        let today = daily.today(for: user)
        let day = try InputParsing.optionalDay(request.uri.queryParameters.get("date"), field: "date") ?? today
        let summary = try await daily.day(day, for: user)
        let zone = TimeZones.zone(user.timeZone)
        var model = Self.dayModel(summary, day: day, today: today, zone: zone)
        let editable = daily.canRateSleep(day, summary: summary)
        model.canRate = summary.hasData && editable && summary.sleep != nil
        model.ratings = (1...10).map { .init(value: $0, selected: $0 == (summary.sleep?.quality ?? 8)) }
        if editable {
            let offset = TimeZone(secondsFromGMT: summary.utcOffsetSeconds) ?? zone
            model.sleepTime = .init(
                bed: summary.sleep?.bedTime.map { HealthCharts.clock($0, zone: offset) } ?? "23:00",
                wake: summary.sleep?.wakeTime.map { HealthCharts.clock($0, zone: offset) } ?? "07:00",
                canClear: summary.sleep?.timeSource == "entered")
        }
        model.showRecovery = summary.sleep != nil || model.sleepTime != nil
        model.imports = try await daily.imports(for: user).prefix(1).map { Self.importRow($0, zone: zone) }
        let settings = try await daily.settings(for: user)
        model.settings = .init(
            stepThreshold: settings.stepThreshold, inactivityTime: String(format: "%02d:%02d", settings.inactivityMinute / 60, settings.inactivityMinute % 60),
            inactivityAlerts: settings.inactivityAlerts, anomalyAlerts: settings.anomalyAlerts)
        if let arrival = try await services.sync.arrivals(for: user, limit: 1).first {
            model.lastArrival = Self.arrivalLine(arrival, zone: zone, now: Date())
        }
        model.neverImported = model.imports.isEmpty && !summary.hasData && model.lastArrival == nil
        return pages.page("today", title: day == today ? "Today" : Formatting.day(day), model: model, request: request, identity: context.identity)
    }

    /// "Last sync today at 10:42 from Health Auto Export (Anna’s iPhone): 1,204 new samples, data up to 10:40."
    static func arrivalLine(_ arrival: SyncArrivalRecord, zone: TimeZone, now: Date) -> String {
        let when = Formatting.dateTime(arrival.receivedAt, zone: zone)
        var line = "Last sync \(when) from \(arrival.source) (\(arrival.tokenName)): "
        let added = arrival.samplesAdded + arrival.workoutsAdded
        line +=
            added == 0
            ? "nothing new (\(Formatting.count(arrival.samplesAlready, "sample")) already here)"
            : Formatting.count(arrival.samplesAdded, "new sample")
                + (arrival.workoutsAdded > 0 ? ", " + Formatting.count(arrival.workoutsAdded, "new workout") : "")
        if let newest = arrival.newestSampleAt { line += ", data up to \(Formatting.dateTime(newest, zone: zone))" }
        if arrival.leftOut > 0 { line += "; \(arrival.leftOut) left out" }
        return line + "."
    }

    /// POST /today/sleep-quality
    func postTodaySleepQuality(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(RatingForm.self, from: request, requiringFields: true)
        let day = try InputParsing.optionalDay(form.date, field: "date") ?? daily.today(for: context.user)
        guard let quality = form.quality.flatMap({ Int($0) }) else { throw AppError.invalid("choose a quality from 1 to 10", field: "quality") }
        _ = try await daily.setSleepQuality(quality, day: day, for: context.user)
        return pages.redirect(to: "/today?date=\(day)")
    }

    /// POST /today/sleep-time: the night's bed and wake time, set by hand.
    func postTodaySleepTime(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(SleepTimeForm.self, from: request, requiringFields: true)
        let day = try InputParsing.optionalDay(form.date, field: "date") ?? daily.today(for: context.user)
        let bed = try InputParsing.minuteOfDay(form.bedTime, field: "bedTime")
        let wake = try InputParsing.minuteOfDay(form.wakeTime, field: "wakeTime")
        _ = try await daily.setSleepTime(bedMinute: bed, wakeMinute: wake, day: day, for: context.user)
        return pages.redirect(to: "/today?date=\(day)")
    }

    /// POST /today/sleep-time/clear: back to the recorded night.
    func postTodaySleepTimeClear(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(SleepTimeForm.self, from: request, requiringFields: true)
        let day = try InputParsing.optionalDay(form.date, field: "date") ?? daily.today(for: context.user)
        _ = try await daily.clearSleepTime(day: day, for: context.user)
        return pages.redirect(to: "/today?date=\(day)")
    }

    /// POST /today/settings
    func postTodaySettings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(SettingsForm.self, from: request, requiringFields: true)
        var settings = try await daily.settings(for: context.user)
        guard let threshold = form.stepThreshold.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw AppError.invalid("a number of steps", field: "stepThreshold")
        }
        let minute = try InputParsing.minuteOfDay(form.inactivityTime, field: "inactivityTime")
        settings.stepThreshold = threshold
        settings.inactivityMinute = minute
        settings.inactivityAlerts = form.inactivityAlerts != nil
        settings.anomalyAlerts = form.anomalyAlerts != nil
        _ = try await daily.updateSettings(settings, for: context.user)
        return pages.redirect(to: "/today")
    }

    /// POST /today/mark
    func postTodayMark(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(MarkForm.self, from: request, requiringFields: true)
        let day = try InputParsing.optionalDay(form.date, field: "date") ?? daily.today(for: context.user)
        guard let text = form.mark else { throw AppError.invalid("a day is marked sick, traveling or none", field: "mark") }
        let mark = try InputParsing.dayMark(text, field: "mark")
        _ = try await daily.setMark(mark, day: day, for: context.user)
        return pages.redirect(to: "/today?date=\(day)")
    }

    /// GET /health/week
    func getHealthWeek(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let user = context.user
        let today = daily.today(for: user)
        let end = try InputParsing.optionalDay(request.uri.queryParameters.get("end"), field: "end") ?? today
        let start = end.adding(days: -6)
        let days = try await daily.days(from: start, through: end, for: user)
        let labels = days.map { day -> String in
            guard let date = CalendarDay(iso: day.date) else { return day.date }
            return Self.weekday(date)
        }
        let recovery = days.map { $0.sleep?.recoveryPercent }
        let strain = days.map { $0.rise?.maximumStrain }
        // Days without a workout have no workout intensity (not 0: they are left out of the average).
        let intensity = days.map { day in day.rise?.workouts.map(\.intensity).max() }
        let model = HealthWeekPage(
            from: Formatting.day(start), to: Formatting.day(end),
            previous: "/health/week?end=\(end.adding(days: -7))", next: end < today ? "/health/week?end=\(end.adding(days: 7))" : "",
            hasNext: end < today,
            recoveryChart: HealthCharts.dayBars(
                title: "Recovery (%)", id: "recovery", labels: labels, values: recovery, maximum: 100, unit: "",
                color: "#009e73", average: RISE.weeklyAverage(recovery), reference: 100),
            strainChart: HealthCharts.dayBars(
                title: "Strain (0–10, the day's highest)", id: "strain", labels: labels, values: strain, maximum: 10, unit: "",
                color: "#d55e00", average: RISE.weeklyAverage(strain)),
            intensityChart: HealthCharts.dayLine(
                title: "Workout intensity (0–10)", id: "intensity", labels: labels, values: intensity, maximum: 10,
                color: "#0b6bcb"),
            averages: [
                .init(name: "Recovery", value: RISE.weeklyAverage(recovery).map { "\(Formatting.number($0)) %" } ?? "–"),
                .init(name: "Strain", value: RISE.weeklyAverage(strain).map { Formatting.number($0, decimals: 1) } ?? "–"),
            ],
            days: days.map { day in
                .init(
                    date: CalendarDay(iso: day.date).map(Formatting.day) ?? day.date, href: "/today?date=\(day.date)", hasData: day.hasData,
                    recovery: day.sleep?.recoveryPercent.map { "\(Formatting.number($0)) %" } ?? "–",
                    strain: day.rise.map { Formatting.number($0.maximumStrain, decimals: 1) } ?? "–",
                    workouts: day.rise?.workouts.count ?? 0,
                    readiness: Self.statusLabel(day.readiness.status), readinessClass: "status-\(day.readiness.status.rawValue)",
                    acute: Formatting.number(day.load.acute), chronic: Formatting.number(day.load.chronic),
                    ratio: day.load.ratio.map { Formatting.number($0, decimals: 2) } ?? "–")
            },
            load: days.last.map { day in
                .init(
                    acute: Formatting.number(day.load.acute), chronic: Formatting.number(day.load.chronic), balance: Formatting.number(day.load.balance),
                    ratio: day.load.ratio.map { Formatting.number($0, decimals: 2) } ?? "–", advice: Self.loadAdvice(day.load))
            })
        return pages.page("health-week", title: "Your week's health", model: model, request: request, identity: context.identity)
    }

    /// GET /health/history
    func getHealthHistory(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let user = context.user
        let today = daily.today(for: user)
        // The seed's rolling windows: the last 24 h, 7 × 24 h or 30 × 24 h up to now.
        let window = request.uri.queryParameters.get("range").flatMap { DailyHealthService.HistoryWindow(rawValue: String($0)) } ?? .day
        let count = window.days
        let history = try await daily.heartRateHistory(for: user, window: window)
        let zone = TimeZones.zone(user.timeZone)
        let title = "Heart rate, the \(window.label.lowercased())"
        let chart = HealthCharts.heartRate(history, title: title, id: "history", zone: zone)
        let days = try await daily.days(from: today.adding(days: -29), through: today, for: user)
        let steps = days.suffix(count == 1 ? 7 : count)
        let stepValues = steps.map { $0.steps.map(Double.init) }
        let model = HealthHistoryPage(
            ranges: DailyHealthService.HistoryWindow.allCases.map { option in
                .init(href: "/health/history?range=\(option.rawValue)", label: option.label, current: option == window)
            },
            title: title, heading: title, window: Self.windowText(history, zone: zone), hasData: !history.bins.isEmpty,
            chart: chart.svg,
            minimum: history.minimum.map { Formatting.number($0) } ?? "–", maximum: history.maximum.map { Formatting.number($0) } ?? "–",
            average: history.average.map { Formatting.number($0) } ?? "–",
            stepsChart: HealthCharts.dayBars(
                title: "Steps a day", id: "steps", labels: steps.map { CalendarDay(iso: $0.date).map { count > 7 ? String($0.day) : Self.weekday($0) } ?? "" },
                values: stepValues, maximum: 10_000, unit: "", color: "#56b4e9",
                average: RISE.weeklyAverage(stepValues), averageLabel: "average"),
            forecast: Self.forecastModel(try await daily.heartRateForecast(for: user), zone: zone))
        return pages.page("health-history", title: "Heart-rate history", model: model, request: request, identity: context.identity)
    }

    /// The history page's forecast section: the chart, the flagged stretches in words, and
    /// how the expected range is made with the user's own settings (or why there is none).
    static func forecastModel(_ forecast: DailyHealthService.HeartRateForecast?, zone: TimeZone) -> HealthHistoryPage.Forecast {
        guard let forecast else {
            return .init(
                available: false, chart: "", stretches: [], hasStretches: false, help: "",
                missing: "No expected range yet: it is learnt from your heart rate at rest in the 7 days before the last 24 hours, "
                    + "and they hold too little (a few hours at rest are enough). Import your watch's data, or come back after a few days of wearing it.")
        }
        let minutes = Int(forecast.intervalSeconds / 60)
        let stretches = forecast.stretches.map { stretch in
            HealthHistoryPage.Forecast.Stretch(
                time: "\(HealthCharts.clock(stretch.start, zone: zone))–\(HealthCharts.clock(stretch.end, zone: zone))",
                reason: stretch.reason.prefix(1).uppercased() + stretch.reason.dropFirst())
        }
        let help =
            "The blue line is your heart rate, averaged over \(minutes) minutes at a time. The grey band is what Heartwork expected at rest: "
            + "a model learnt from your own heart rate in the 7 days before predicts each \(minutes) minutes from the \(forecast.order) before, "
            + "give or take \(Formatting.number(forecast.bandSD, decimals: forecast.bandSD.rounded() == forecast.bandSD ? 0 : 1)) times its usual error (±\(Formatting.number(forecast.band, decimals: 1)) bpm). "
            + "Times with steps, a workout or sleep are left out, gaps in the line: moving explains a higher heart rate, sleep a lower one. "
            + "An orange dot is outside the band; \(forecast.consecutive) or more in a row (\(forecast.consecutive * minutes) minutes) make an unusual stretch, shaded orange, "
            + "which Heartwork tells you about when anomaly alerts are on. An unusual stretch is not a diagnosis: illness, stress, caffeine or a hot room raise the heart rate too."
        return .init(
            available: true, chart: ForecastCharts.svg(forecast, title: "Your heart rate and the expected range, the last 24 hours", id: "forecast", zone: zone).svg,
            stretches: stretches, hasStretches: !stretches.isEmpty, help: help, missing: "")
    }

    /// "Wed 25 Nov 2026, 14:05 CET – Thu 26 Nov 2026, 14:05 CET": the window the history shows, where the user is.
    static func windowText(_ history: DailyHealthService.HeartRateHistory, zone: TimeZone) -> String {
        "\(Formatting.dateTime(history.from, zone: zone)) – \(Formatting.dateTime(history.to, zone: zone))"
    }

    /// GET /food
    func getFood(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        pages.page("food", title: "Food label", model: FoodPage(canReadPhotos: LabelReader.tesseract != nil, text: ""), request: request, identity: context.identity)
    }

    /// POST /food
    func postFood(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(FoodForm.self, from: request)
        let text = String((form.label ?? "").prefix(20_000))
        var model = FoodPage(canReadPhotos: LabelReader.tesseract != nil, text: text)
        do {
            model.label = Self.labelModel(try LabelReader.read(Array(text.utf8)))
            return pages.page("food", title: "Food label", model: model, request: request, identity: context.identity)
        } catch {
            // (`catch let failure as LabelReader.Failure` here crashes Swift 6.3's SILGen.)
            guard let failure = error as? LabelReader.Failure else { throw error }
            model.error = failure.description
            model.hasError = true
            return pages.page("food", title: "Food label", model: model, request: request, identity: context.identity, status: .unprocessableContent)
        }
    }

    /// GET /health/import
    func getHealthImport(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let imports = try await daily.imports(for: context.user)
        let zone = TimeZones.zone(context.user.timeZone)
        return pages.page(
            "health-import", title: "Import from Apple Health or Gadgetbridge",
            model: HealthImportPage(
                imports: imports.map { Self.importRow($0, zone: zone) }, hasImports: !imports.isEmpty
            ), request: request, identity: context.identity)
    }

    // MARK: models

    static func labelModel(_ label: NutritionLabel) -> FoodPage.Label {
        func amount(_ value: Double?, _ unit: String) -> String? { value.map { "\(trimmed($0)) \(unit)" } }
        let rows: [(String, String?)] = [
            ("Calories", amount(label.calories, "kcal")), ("Fat", amount(label.totalFatGrams, "g")), ("Saturated fat", amount(label.saturatedFatGrams, "g")),
            ("Trans fat", amount(label.transFatGrams, "g")), ("Cholesterol", amount(label.cholesterolMilligrams, "mg")), ("Sodium", amount(label.sodiumMilligrams, "mg")),
            ("Carbohydrate", amount(label.carbohydrateGrams, "g")), ("Fibre", amount(label.fiberGrams, "g")), ("Sugars", amount(label.sugarsGrams, "g")),
            ("Added sugars", amount(label.addedSugarsGrams, "g")), ("Protein", amount(label.proteinGrams, "g")),
        ]
        return FoodPage.Label(
            servingSize: label.servingSize ?? "", unhealthy: label.unhealthy,
            heading: label.basis != "serving" ? "Per \(label.basis)" : label.servingSize.map { "Per serving (\($0))" } ?? "Per serving",
            reasons: label.reasons.joined(separator: "; "),
            rows: rows.compactMap { name, value in value.map { .init(name: name, value: $0) } })
    }

    static func weekday(_ day: CalendarDay) -> String {
        ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((day.daysSinceEpoch % 7) + 7) % 7]
    }

    static func statusLabel(_ status: Readiness.Status) -> String {
        switch status {
        case .ready: "Ready"
        case .normal: "Normal"
        case .strained: "Strained"
        case .unknown: "Not known yet"
        case .sick: "Sick"
        case .traveling: "Traveling"
        }
    }

    /// At most two decimals, no trailing zeros.
    static func trimmed(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A readiness input as people read it (issue 41: "ln SDNN 4.16 · your band not yet known ·
    /// Not known yet"): HRV in milliseconds (the band is worked out on its logarithm, as the
    /// seeds say, and shown back in ms), whole numbers, the band only once it is known, and
    /// "still learning" for a measure without one.
    static func readinessInput(_ input: Readiness.Input) -> TodayPage.Input {
        let hrv = input.name.hasPrefix("ln ")
        let measure = input.name.replacingOccurrences(of: "ln ", with: "")
        let show = { (value: Double) in hrv ? Formatting.number(exp(value)) : Formatting.number(value) }
        let unit = hrv ? "ms" : "bpm"
        return .init(
            name: hrv ? "HRV (\(measure))" : "Resting heart rate", value: input.value.map { "\(show($0)) \(unit)" } ?? "–",
            band: input.band.map { "\(show($0.low))–\(show($0.high)) \(unit)" } ?? "", hasBand: input.band != nil,
            status: input.status == .unknown ? "still learning your normal" : Self.statusLabel(input.status),
            statusClass: "status-\(input.status.rawValue)", reason: input.reason.prefix(1).uppercased() + input.reason.dropFirst())
    }

    static func loadAdvice(_ load: DailySummary.Workload) -> String {
        guard let ratio = load.ratio else { return "No training load yet: it builds from your workouts' heart rate." }
        if let days = load.historyDays, days < TrainingLoad.minimumHistoryDays {
            let first = days == 0 ? "today" : days == 1 ? "yesterday" : "\(days) days ago"
            return "Your training load is still being learnt: the ratio says something once you have 4 weeks of workouts behind you (your first was \(first))."
        }
        if ratio > 1.5 { return "This week's load is well above what you are used to (ratio above 1.5): a higher risk of overdoing it." }
        if ratio < 0.8 { return "This week's load is below what you are used to (ratio under 0.8): you are fresh, or losing fitness." }
        return "This week's load is in line with what you are used to (ratio 0.8–1.5)."
    }

    /// An import as the page lists it, in the user's time zone: what it added, what was
    /// already here, what it left out and why.
    static func importRow(_ record: HealthImportRecord, zone: TimeZone) -> HealthImportRow {
        let states: [HealthImportRecord.State: String] = [
            .receiving: "arriving", .queued: "waiting", .running: "importing", .done: "done", .failed: "stopped",
        ]
        return HealthImportRow(
            state: states[record.state] ?? record.state.rawValue, done: record.state == .done, failed: record.state == .failed,
            created: Formatting.dateTime(record.createdAt, zone: zone),
            outcome: Self.outcome(record), error: record.error ?? "",
            days: record.firstDay.flatMap { first in record.lastDay.map { "\(Formatting.day(first)) – \(Formatting.day($0))" } } ?? "",
            firstDay: record.firstDay?.description ?? "")
    }

    /// "1,652 new samples; 2 workouts added, 1 already here, 1 left out: no heart rate was
    /// recorded during it".
    static func outcome(_ record: HealthImportRecord) -> String {
        func count(_ value: some BinaryInteger, _ noun: String) -> String { Formatting.count(value, noun) }
        var parts = ["\(count(record.samplesAdded, "new sample"))"]
        var workouts = ["\(count(record.workoutsAdded, "workout")) added"]
        if record.workoutsDuplicate > 0 { workouts.append("\(record.workoutsDuplicate) already here") }
        let skipped = record.workoutsSkipped.values.reduce(0, +)
        if skipped > 0 {
            let reasons = record.workoutsSkipped.sorted { $0.value > $1.value }.map { "\($0.key)\($0.value > 1 ? " (\($0.value))" : "")" }
            workouts.append("\(skipped) left out: \(reasons.joined(separator: "; "))")
        }
        parts.append(workouts.joined(separator: ", "))
        // What the owner and body samples did, and what was not read.
        let body = record.body
        var bodyParts = [String]()
        if !body.profileFilled.isEmpty {
            let names = ["dateOfBirth": "birth date", "sex": "sex", "heightMeters": "height"]
            bodyParts.append("profile filled: \(body.profileFilled.map { names[$0] ?? $0 }.joined(separator: ", "))")
        }
        if body.weightsAdded > 0 { bodyParts.append(count(body.weightsAdded, "weight") + " added") }
        if body.heightsAdded > 0 { bodyParts.append(count(body.heightsAdded, "height") + " added") }
        for (reason, number) in body.leftOut.sorted(by: { $0.value > $1.value }) { bodyParts.append("\(number) left out: \(reason)") }
        if !bodyParts.isEmpty { parts.append(bodyParts.joined(separator: ", ")) }
        let notRead = record.recordsSkipped.values.reduce(0, +)
        if notRead > 0 { parts.append("\(count(notRead, "record")) of \(count(record.recordsSkipped.count, "type")) Heartwork does not read") }
        return parts.joined(separator: "; ")
    }

    static func dayModel(_ summary: DailySummary, day: CalendarDay, today: CalendarDay, zone: TimeZone) -> TodayPage {
        var model = TodayPage(
            date: day.description, dateLabel: Formatting.day(day), isToday: day == today,
            previous: "/today?date=\(day.adding(days: -1))", next: day < today ? "/today?date=\(day.adding(days: 1))" : "", hasNext: day < today,
            hasData: summary.hasData,
            readiness: Self.statusLabel(summary.readiness.status), readinessClass: "status-\(summary.readiness.status.rawValue)",
            readinessReason: summary.readiness.reason.prefix(1).uppercased() + summary.readiness.reason.dropFirst(),
            inputs: summary.readiness.inputs.map(Self.readinessInput),
            marks: [("none", "A normal day"), ("sick", "Sick"), ("traveling", "Traveling")].map { key, label in
                .init(value: key, label: label, selected: (summary.mark ?? "none") == key)
            },
            steps: summary.steps.map { Formatting.number(Double($0)) } ?? "–",
            resting: summary.restingHeartRate.map { "\(Formatting.number($0)) bpm" } ?? "–",
            hrv: summary.hrvSDNNMilliseconds.map { "\(Formatting.number($0)) ms" } ?? "–",
            maximumHeartRate: summary.maximumHeartRate.map { Formatting.number($0) } ?? "–",
            load: .init(
                trimp: Formatting.number(summary.load.trimp), acute: Formatting.number(summary.load.acute), chronic: Formatting.number(summary.load.chronic),
                ratio: summary.load.ratio.map { Formatting.number($0, decimals: 2) } ?? "–", advice: Self.loadAdvice(summary.load)))
        if let mark = summary.mark {
            model.marked = mark == "sick" ? "You marked this day sick." : "You marked this day traveling."
        }
        if let sleep = summary.sleep {
            // The night's clock times where it was slept (the day's offset).
            let local = TimeZone(secondsFromGMT: summary.utcOffsetSeconds) ?? zone
            let span = sleep.bedTime.flatMap { bed in sleep.wakeTime.map { "\(HealthCharts.clock(bed, zone: local))–\(HealthCharts.clock($0, zone: local))" } }
            let percent = sleep.recoveryPercent ?? 0
            model.sleep = .init(
                recovery: sleep.recoveryPercent.map { Formatting.number($0) } ?? "–",
                recoveryBar: Self.meter(percent, of: max(100, percent), label: "Recovery", color: "#009e73", mark: percent > 100 ? 100 : nil),
                inBed: Formatting.number(sleep.inBedHours, decimals: 1), asleep: sleep.asleepHours.map { Formatting.number($0, decimals: 1) } ?? "",
                hasAsleep: sleep.asleepHours != nil, quality: sleep.quality, estimated: sleep.qualitySource == "estimated",
                span: span, timeSet: sleep.timeSource == "entered",
                recorded: sleep.recordedInBedHours.map { "\(Formatting.number($0, decimals: 1)) h recorded" }, overHundred: percent > 100)
        }
        if let rise = summary.rise {
            model.rise = .init(
                strain: Formatting.number(rise.strain, decimals: 1), maximumStrain: Formatting.number(rise.maximumStrain, decimals: 1),
                strainBar: Self.meter(rise.maximumStrain, of: 10, label: "Strain", color: "#d55e00"),
                elevatedIntensity: Formatting.number(rise.elevatedIntensity, decimals: 1), elevatedHours: Formatting.number(rise.elevatedHours, decimals: 1),
                inactiveHours: Formatting.number(rise.inactiveHours, decimals: 1), workouts: rise.workouts.count)
        }
        model.intensity = Self.intensityModel(summary, isToday: day == today, zone: zone)
        if let heart = summary.heartRate {
            model.heart = .init(minimum: Formatting.number(heart.minimum), maximum: Formatting.number(heart.maximum), average: Formatting.number(heart.average))
        }
        return model
    }

    /// A horizontal gauge (SVG: the page's style policy allows no inline styles); `mark` draws
    /// a line across it there (recovery above 100 %: where 100 % is).
    static func meter(_ value: Double, of maximum: Double, label: String, color: String, mark: Double? = nil) -> String {
        let share = max(0, min(1, value / maximum))
        let line = mark.map { m in
            let x = Int((300 * max(0, min(1, m / maximum))).rounded())
            return "<rect x=\"\(max(0, x - 1))\" y=\"0\" width=\"2\" height=\"14\" fill=\"#1f2933\"/>"
        }
        let name = mark == nil ? "of \(Formatting.number(maximum))" : "(100 % marked)"
        return
            "<svg class=\"gauge\" viewBox=\"0 0 300 14\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"\(label) \(Formatting.number(value, decimals: 1)) \(name)\">"
            + "<rect x=\"0\" y=\"0\" width=\"300\" height=\"14\" rx=\"7\" fill=\"#e4e7eb\"/><rect x=\"0\" y=\"0\" width=\"\(Int((300 * share).rounded()))\" height=\"14\" rx=\"7\" fill=\"\(color)\"/>"
            + (line ?? "") + "</svg>"
    }

    /// RISE's Intensity view: the seed's header (resting, current and the day's highest heart
    /// rate), the zones on the 6-month maximum in bpm, and up to 10 workouts (the seed's list),
    /// each shaded darker blue the higher its intensity.
    static func intensityModel(_ summary: DailySummary, isToday: Bool, zone: TimeZone) -> TodayPage.Intensity? {
        guard summary.heartRate != nil || summary.rise != nil else { return nil }
        let bpm = { (value: Double?) in value.map { "\(Formatting.number($0)) bpm" } ?? "–" }
        let workouts = summary.rise?.workouts ?? []
        let shown = workouts.prefix(RISE.listedWorkouts).map { w in
            let shade = Int(max(0, min(10, w.intensity)).rounded())
            return TodayPage.Intensity.Workout(
                name: w.name.capitalized, href: "/workouts/\(w.id)", intensity: Formatting.number(w.intensity, decimals: 1),
                points: Formatting.number(w.points), minutes: w.minutesInZones.map { Formatting.number($0) }.joined(separator: " / "),
                shadeClass: "shade-\(shade)" + (shade >= 5 ? " on-dark" : ""))
        }
        let maximum = summary.maximumHeartRate
        let zones = IntensityZone.allCases.filter { $0 != .rest }.map { z -> TodayPage.Intensity.Zone in
            let low = z.lowerPercentOfMaximum ?? 0
            let next = IntensityZone(rawValue: z.rawValue + 1)?.lowerPercentOfMaximum
            let percent = next.map { "\(Formatting.number(low))–\(Formatting.number($0)) %" } ?? "\(Formatting.number(low)) % and up"
            let beats =
                maximum.map { m in
                    let from = Int((low / 100 * m).rounded(.up))
                    return next.map { " (\(from)–\(Int(($0 / 100 * m).rounded(.up)) - 1) bpm)" } ?? " (\(from) bpm and up)"
                } ?? ""
            return .init(name: z.displayName, range: percent + beats, points: z.pointsPerMinute, one: z.pointsPerMinute == 1)
        }
        let latest = summary.heartRate?.latest
        let at = summary.heartRate?.latestAt.map { HealthCharts.clock($0, zone: TimeZone(secondsFromGMT: summary.utcOffsetSeconds) ?? zone) }
        return TodayPage.Intensity(
            resting: bpm(summary.restingHeartRate), current: bpm(latest),
            currentLabel: (isToday ? "Now" : "Last reading") + (at.map { ", \($0)" } ?? ""),
            highest: bpm(summary.heartRate?.maximum), workouts: shown, hasWorkouts: !shown.isEmpty,
            more: workouts.count > shown.count ? "and \(workouts.count - shown.count) more this day (the list shows \(RISE.listedWorkouts), as RISE did)" : nil,
            zones: zones, maximum: bpm(maximum))
    }
}
