import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore
import HeartworkModel
import Hummingbird

/// The profile: facts, photo, zones, weight chart and histories.
struct WebProfilePages {
    let services: HeartworkServices
    let pages: PageRenderer

    struct ProfileForm: Decodable {
        let fullName: String?, email: String?, status: String?, dateOfBirth: String?, sex: String?, height: String?
        let maxHeartRateMethod: String?, measuredMaxHeartRate: String?, units: String?, timeZone: String?
        /// Today's weight (in the user's units) and resting heart rate, added to their histories when typed.
        let weight: String?, bpm: String?
    }

    func register(on router: RouterGroup<AuthenticatedContext>) {
        let pages = pages
        router.get("profile", use: getProfile)
        router.post("profile", use: postProfile)
        registerMeasurementForm(
            on: router, path: "profile/weights", kind: .weight, field: "weight", prompt: "enter your weight",
            anchor: "weight-history", notice: .weightAdded)
        registerMeasurementForm(
            on: router, path: "profile/resting-heart-rates", kind: .restingHeartRate, field: "bpm",
            prompt: "enter your resting heart rate", anchor: "resting-history", notice: .restingAdded)
    }

    /// GET /profile
    func getProfile(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        pages.page("profile", title: "Your profile", model: try await profileModel(context.user.id), request: request, identity: context.identity)
    }

    /// POST /profile
    func postProfile(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(ProfileForm.self, from: request, requiringFields: true)
        do {
            // Mistakes in what was typed and in what it means, all at once, before anything is saved.
            let (edit, typingErrors) = changes(form, units: context.user.units)
            var errors = typingErrors
            func measurement(_ text: String?, field: String) -> Double? {
                do { return try WebForm.number(text, field: field) } catch {
                    if let error = error as? AppError { errors += error.allFieldErrors }
                }
                return nil
            }
            // The weight is typed in the units the page showed (its label says kg or lb), like
            // the height: a units change in the same save applies from the next page on.
            let weight = measurement(form.weight, field: "weight").map { context.user.units == .imperial ? BodyMass.kilograms(fromPounds: $0) : $0 }
            let resting = measurement(form.bpm, field: "bpm")
            do { _ = try services.profiles.check(edit) } catch {
                guard let error = error as? AppError else { throw error }
                errors += error.allFieldErrors
            }
            if !errors.isEmpty { throw AppError.invalid(errors) }
            _ = try await services.profiles.save(userID: context.user.id, edit, weightKilograms: weight, restingHeartRate: resting)
            return pages.redirect(to: "/profile", notice: .profileSaved)
        } catch {
            // (`catch let error as AppError` here crashes Swift 6.3's SILGen in a method.)
            guard let error = error as? AppError else { throw error }
            // The form comes back as it was typed, every mistake next to its field.
            var model = try await profileModel(context.user.id)
            typed(form, into: &model)
            return pages.page(
                "profile", title: "Your profile", model: model, errors: PageRenderer.formErrors(error), request: request,
                identity: context.identity, status: Problem(error).status)
        }
    }

    /// A one-field form that adds a measurement now (a weight in the user's units).
    private func registerMeasurementForm(
        on router: RouterGroup<AuthenticatedContext>, path: RouterPath, kind: MeasurementKind, field: String, prompt: String,
        anchor: String, notice: Notice
    ) {
        router.post(path) { request, context -> Response in
            let form = try await WebForm.decode([String: String].self, from: request)
            do {
                guard let typed = try WebForm.number(form[field], field: field) else { throw AppError.invalid(prompt, field: field) }
                let value = kind == .weight && context.user.units == .imperial ? BodyMass.kilograms(fromPounds: typed) : typed
                _ = try await services.profiles.addMeasurement(userID: context.user.id, kind: kind, value: value, measuredAt: nil, valueField: field)
                return pages.redirect(to: "/profile#\(anchor)", notice: notice)
            } catch let error as AppError {
                var model = try await profileModel(context.user.id)
                if field == "weight" { model.form.weight = form[field] ?? "" } else { model.form.bpm = form[field] ?? "" }
                return pages.page(
                    "profile", title: "Your profile", model: model, errors: PageRenderer.formErrors(error), request: request,
                    identity: context.identity, status: Problem(error).status)
            }
        }
    }

    /// The form's fields as a profile edit, and the fields that could not be read: a field
    /// the form sent blank clears its value, a field it did not send at all stays as it is.
    /// Height is in centimetres, or inches in imperial units.
    private func changes(_ form: ProfileForm, units: UnitSystem) -> (ProfileChanges, [AppError.FieldError]) {
        var changes = ProfileChanges()
        var errors = [AppError.FieldError]()
        changes.fullName = form.fullName
        changes.email = form.email
        changes.status = form.status
        func clearable<T: Sendable & Hashable>(_ text: String?, _ read: (String) throws -> T) -> FieldUpdate<T>? {
            guard let text else { return nil }
            guard let value = WebForm.nonEmpty(text) else { return .clear }
            do {
                return .set(try read(value))
            } catch let error as AppError {
                errors += error.allFieldErrors
            } catch {
                errors.append(.init(field: "form", detail: "\(error)"))
            }
            return nil
        }
        func closed<T>(_ text: String?, _ read: (String) throws -> T) -> T? {
            guard let text else { return nil }
            do { return try read(text) } catch let error as AppError { errors += error.allFieldErrors } catch {}
            return nil
        }
        changes.dateOfBirth = clearable(form.dateOfBirth) { try InputParsing.calendarDay($0, field: "dateOfBirth") }
        changes.sex = clearable(form.sex) { try InputParsing.oneOf($0, Sex.self, field: "sex", what: "sex") }
        changes.heightMeters = clearable(form.height) { text in
            let value = try WebForm.number(text, field: "heightMeters") ?? 0
            return units == .imperial ? value * 0.0254 : value / 100
        }
        changes.measuredMaxHeartRate = clearable(form.measuredMaxHeartRate) { try WebForm.number($0, field: "measuredMaxHeartRate") ?? 0 }
        changes.maxHeartRateSource = closed(form.maxHeartRateMethod) {
            try InputParsing.oneOf($0, MaximumHeartRateSource.self, field: "maxHeartRateMethod", what: "the method")
        }
        changes.units = closed(form.units) { try InputParsing.oneOf($0, UnitSystem.self, field: "units", what: "units") }
        changes.timeZone = clearable(form.timeZone) { $0 }
        return (changes, errors)
    }

    /// What was typed, to show again: the text fields and the choices in the menus.
    private func typed(_ form: ProfileForm, into model: inout ProfilePage) {
        model.form = .init(
            fullName: form.fullName ?? "", email: form.email ?? "", status: form.status ?? "", dateOfBirth: form.dateOfBirth ?? "",
            height: form.height ?? "", measuredMaxHeartRate: form.measuredMaxHeartRate ?? "",
            weight: form.weight ?? "", bpm: form.bpm ?? "")
        if let sex = form.sex {
            model.isMale = sex == "male"
            model.isFemale = sex == "female"
            model.noSex = sex != "male" && sex != "female"
        }
        if let units = form.units {
            model.metric = units != "imperial"
            model.imperial = units == "imperial"
        }
        if let method = form.maxHeartRateMethod { model.methods = Self.methods(selected: method) }
        if let zone = form.timeZone {
            model.timeZones = Self.timeZoneNames(including: zone.isEmpty ? nil : zone).map { .init(name: $0, selected: $0 == zone) }
            model.noTimeZone = zone.isEmpty
        }
    }

    static func methods(selected: String) -> [ProfilePage.Method] {
        [
            ("gellish", "206.9 − 0.67 × age (Gellish)"), ("fox", "220 − age (Fox)"), ("tanaka", "208 − 0.7 × age (Tanaka)"), ("measured", "Measured"),
        ].map { .init(value: $0.0, label: $0.1, selected: selected == $0.0) }
    }

    /// The zones to choose from: the system's list, plus the user's own when the list lacks it
    /// (browsers report `UTC` and `Etc/…` names that Foundation's list leaves out).
    static func timeZoneNames(including own: String?) -> [String] {
        var names = TimeZone.knownTimeZoneIdentifiers
        if let own, !names.contains(own) { names.append(own) }
        return names.sorted()
    }

    /// The profile lists at most this many shared workouts (the workouts page has them all).
    static let sharedWorkoutsShown = 20

    private func profileModel(_ userID: String) async throws -> ProfilePage {
        let profile = try await services.profiles.profile(userID: userID)
        let user = profile.user
        let weights = try await services.profiles.measurements(userID: user.id, kind: .weight)
        let restings = try await services.profiles.measurements(userID: user.id, kind: .restingHeartRate)
        let imperial = user.units == .imperial
        let zone = TimeZones.zone(user.timeZone)
        let heightText = user.heightMeters.map { imperial ? String(format: "%.0f", $0 / 0.0254) : String(format: "%.0f", $0 * 100) } ?? ""
        var model = ProfilePage(
            id: user.id, username: user.username, status: user.status,
            hasStatus: !user.status.isEmpty, initial: String(user.fullName.prefix(1)).uppercased(), displayName: user.fullName,
            form: .init(
                fullName: user.fullName, email: user.email, status: user.status, dateOfBirth: user.dateOfBirth?.description ?? "",
                height: heightText, measuredMaxHeartRate: user.measuredMaxHeartRate.map { String(format: "%.0f", $0) } ?? ""),
            isMale: user.sex == .male, isFemale: user.sex == .female, noSex: user.sex == nil,
            metric: !imperial, imperial: imperial, weightUnit: imperial ? "lb" : "kg", heightUnit: imperial ? "in" : "cm",
            heightText: Formatting.height(user.heightMeters, units: user.units),
            ageYears: profile.ageYears.map(String.init) ?? "–",
            maxHeartRate: Formatting.number(profile.maximumHeartRate, decimals: 0, unit: "bpm"),
            restingHeartRate: Formatting.number(profile.restingHeartRate, decimals: 0, unit: "bpm"),
            hasPhoto: user.hasPhoto, photoURL: "/api/users/\(user.id)/photo",
            weightChart: WorkoutCharts.weights(weights, units: user.units, zone: TimeZones.zone(user.timeZone))?.svg ?? "",
            weights: weights.reversed().prefix(10).map { entry in
                .init(day: Formatting.day(entry.measuredAt, zone: zone), value: Formatting.weight(entry.value, units: user.units))
            },
            hasWeights: !weights.isEmpty,
            restings: restings.reversed().prefix(10).map { .init(day: Formatting.day($0.measuredAt, zone: zone), value: String(format: "%.0f", $0.value)) },
            hasRestings: !restings.isEmpty,
            lastWeight: weights.last.map { Formatting.weight($0.value, units: user.units) } ?? "",
            lastResting: restings.last.map { String(format: "%.0f bpm", $0.value) } ?? "",
            timeZones: Self.timeZoneNames(including: user.timeZone).map { .init(name: $0, selected: $0 == user.timeZone) },
            noTimeZone: user.timeZone == nil,
            methods: Self.methods(selected: user.maxHeartRateSource.rawValue))
        let shared = try await services.profiles.sharedWorkouts(of: user, page: Page(limit: Self.sharedWorkoutsShown))
        model.workouts = shared.map { WebWorkoutPages.row($0, user: user) }
        model.hasWorkouts = !shared.isEmpty
        model.sharedCount = shared.count == Self.sharedWorkoutsShown ? "the newest \(shared.count)" : Formatting.count(shared.count, "workout")
        if let zones = profile.zoneProfile {
            let thresholds = zones.reserveZoneThresholds
            model.zones = ReserveZone.allCases.dropFirst().enumerated().map { index, zone in
                .init(
                    name: zone.label, from: String(format: "%.0f", thresholds[index]),
                    to: index + 1 < 4 ? String(format: "%.0f", thresholds[index + 1]) : "maximum", class: "zone-\(zone.identifier)")
            }
            model.hasZones = true
        }
        return model
    }
}
