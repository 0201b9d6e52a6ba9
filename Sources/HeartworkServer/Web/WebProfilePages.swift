import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore
import HeartworkStore
import Hummingbird

/// The profile: facts, photo, weight chart and histories.
struct WebProfilePages {
    let services: HeartworkServices
    let pages: PageRenderer

    struct ProfileForm: Decodable {
        let fullName: String?, email: String?, status: String?, dateOfBirth: String?, sex: String?
        let heightCentimeters: String?, maxHeartRateMethod: String?, measuredMaxHeartRate: String?, units: String?
    }

    func register(on router: RouterGroup<AuthenticatedContext>) {
        let pages = pages
        router.get("profile") { request, context -> Response in
            var values = try await profileValues(context.user.id)
            values["welcome"] = request.uri.queryParameters.get("welcome") != nil
            return pages.page("profile", title: "Your profile", values: values, identity: context.identity)
        }
        router.post("profile") { request, context -> Response in
            let form = try await WebForm.decode(ProfileForm.self, from: request)
            do {
                _ = try await services.profiles.update(userID: context.user.id, try changes(form))
                return PageRenderer.redirect(to: "/profile")
            } catch let error as AppError {
                return try await errorPage(context, key: "error", error)
            }
        }
        registerMeasurementForm(on: router, path: "profile/weights", kind: .weight, field: "weight", prompt: "enter your weight",
                                anchor: "weight-history", errorKey: "weightError")
        registerMeasurementForm(on: router, path: "profile/resting-heart-rates", kind: .restingHeartRate, field: "bpm",
                                prompt: "enter your resting heart rate", anchor: "resting-history", errorKey: "restingError")
    }

    /// A one-field form that adds a measurement now (a weight in the user's units).
    private func registerMeasurementForm(
        on router: RouterGroup<AuthenticatedContext>, path: RouterPath, kind: MeasurementKind, field: String, prompt: String,
        anchor: String, errorKey: String
    ) {
        router.post(path) { request, context -> Response in
            let form = try await WebForm.decode([String: String].self, from: request)
            do {
                guard let typed = try WebForm.number(form[field], field: field) else { throw AppError.invalid(prompt, field: field) }
                let value = kind == .weight && context.user.units == .imperial ? BodyMass.kilograms(fromPounds: typed) : typed
                _ = try await services.profiles.addMeasurement(userID: context.user.id, kind: kind, value: value, measuredAt: nil, valueField: field)
                return PageRenderer.redirect(to: "/profile#\(anchor)")
            } catch let error as AppError {
                return try await errorPage(context, key: errorKey, error)
            }
        }
    }

    /// The form's fields as a profile edit: a field the form sent blank clears its value, a
    /// field it did not send at all stays as it is.
    private func changes(_ form: ProfileForm) throws -> ProfileChanges {
        var changes = ProfileChanges()
        changes.fullName = form.fullName
        changes.email = form.email
        changes.status = form.status
        func clearable<T>(_ text: String?, _ read: (String) throws -> T) rethrows -> FieldUpdate<T>? {
            guard let text else { return nil }
            guard let value = WebForm.nonEmpty(text) else { return .clear }
            return .set(try read(value))
        }
        changes.dateOfBirth = try clearable(form.dateOfBirth) { try InputParsing.calendarDay($0, field: "dateOfBirth") }
        changes.sex = try clearable(form.sex) { try InputParsing.oneOf($0, Sex.self, field: "sex", what: "sex") }
        changes.heightMeters = try clearable(form.heightCentimeters) { try WebForm.number($0, field: "heightCentimeters").map { $0 / 100 } ?? 0 }
        changes.measuredMaxHeartRate = try clearable(form.measuredMaxHeartRate) { try WebForm.number($0, field: "measuredMaxHeartRate") ?? 0 }
        changes.maxHeartRateSource = try form.maxHeartRateMethod.map {
            try InputParsing.oneOf($0, MaximumHeartRateSource.self, field: "maxHeartRateMethod", what: "the method")
        }
        changes.units = try form.units.map { try InputParsing.oneOf($0, UnitSystem.self, field: "units", what: "units") }
        return changes
    }

    private func errorPage(_ context: AuthenticatedContext, key: String, _ error: AppError) async throws -> Response {
        var values = try await profileValues(context.user.id)
        values[key] = error.detail
        return pages.page("profile", title: "Your profile", values: values, identity: context.identity, status: Problem(error).status)
    }

    private func profileValues(_ userID: String) async throws -> [String: Any] {
        let profile = try await services.profiles.profile(userID: userID)
        let user = profile.user
        let weights = try await services.profiles.measurements(userID: user.id, kind: .weight)
        let restings = try await services.profiles.measurements(userID: user.id, kind: .restingHeartRate)
        let imperial = user.units == .imperial
        var values: [String: Any] = [
            "id": user.id, "username": user.username, "fullName": user.fullName, "email": user.email, "status": user.status,
            "hasStatus": !user.status.isEmpty, "initial": String(user.fullName.prefix(1)).uppercased(),
            "dateOfBirth": user.dateOfBirth?.description ?? "", "heightCentimeters": user.heightMeters.map { String(format: "%.0f", $0 * 100) } ?? "",
            "measuredMaxHeartRate": user.measuredMaxHeartRate.map { String(format: "%.0f", $0) } ?? "",
            "isMale": user.sex == .male, "isFemale": user.sex == .female, "noSex": user.sex == nil,
            "metric": !imperial, "imperial": imperial, "weightUnit": imperial ? "lb" : "kg",
            "ageYears": profile.ageYears.map(String.init) ?? "–",
            "maxHeartRate": Formatting.number(profile.maximumHeartRate, decimals: 0, unit: "bpm"),
            "restingHeartRate": Formatting.number(profile.restingHeartRate, decimals: 0, unit: "bpm"),
            "hasPhoto": user.hasPhoto, "photoURL": "/api/users/\(user.id)/photo",
            "weightChart": weights.isEmpty ? "" : WorkoutCharts.weights(weights, imperial: imperial),
            "weights": weights.reversed().prefix(10).map { entry in
                ["day": Formatting.day(entry.measuredAt),
                 "value": String(format: "%.1f", imperial ? BodyMass.pounds(fromKilograms: entry.value) : entry.value)]
            },
            "hasWeights": !weights.isEmpty,
            "restings": restings.reversed().prefix(10).map { ["day": Formatting.day($0.measuredAt), "value": String(format: "%.0f", $0.value)] },
        ]
        for source in MaximumHeartRateSource.allCases { values["method_\(source.rawValue)"] = user.maxHeartRateSource == source }
        if let zones = profile.zoneProfile {
            let thresholds = zones.reserveZoneThresholds
            values["zones"] = ReserveZone.allCases.dropFirst().enumerated().map { index, zone in
                ["name": zone.displayName, "from": String(format: "%.0f", thresholds[index]),
                 "to": index + 1 < 4 ? String(format: "%.0f", thresholds[index + 1]) : "max", "swatch": "zone-\(zone.identifier)"]
            }
            values["hasZones"] = true
        }
        return values
    }
}
