import Foundation
import HeartworkCharts
import HeartworkCore
import HeartworkStore
import Hummingbird

/// The profile: facts, photo, weight chart and histories.
struct WebProfilePages {
    let services: AppServices

    func register(on router: Router<AppRequestContext>) {
        let pages = services.pages
        router.get("profile") { request, context -> Response in
            let identity = try context.requireIdentity()
            var values = try await profileValues(identity.user)
            values["welcome"] = request.uri.queryParameters.get("welcome") != nil
            return pages.page("profile", title: "Your profile", values: values, identity: identity)
        }
        router.post("profile") { request, context -> Response in
            let identity = try context.requireIdentity()
            let form = try await FormData.read(request)
            var user = identity.user
            var update = ProfileUpdateRequest()
            update.fullName = form["fullName"]
            update.email = form["email"]
            update.status = form["status"]
            update.dateOfBirth = .some(nonEmpty(form["dateOfBirth"]))
            update.sex = .some(nonEmpty(form["sex"]))
            update.units = form["units"]
            update.maxHeartRateMethod = form["maxHeartRateMethod"]
            do {
                update.heightMeters = .some(try number(form["heightCentimeters"], field: "heightCentimeters").map { $0 / 100 })
                update.measuredMaxHeartRate = .some(try number(form["measuredMaxHeartRate"], field: "measuredMaxHeartRate"))
                try update.apply(to: &user)
                try await services.save(user)
                return PageRenderer.redirect(to: "/profile")
            } catch let problem as APIError {
                var values = try await profileValues(identity.user)
                values["error"] = problem.detail
                return pages.page("profile", title: "Your profile", values: values, identity: identity, status: problem.status)
            }
        }
        router.post("profile/weights") { request, context -> Response in
            let identity = try context.requireIdentity()
            let form = try await FormData.read(request)
            do {
                guard let value = try number(form["weight"], field: "weight") else { throw APIError.invalid("enter your weight", field: "weight") }
                let kilograms = identity.user.units == "imperial" ? BodyMass.kilograms(fromPounds: value) : value
                let entry = WeightEntryRequest(kilograms: kilograms, measuredAt: nil)
                try entry.validate()
                try await services.store.users.addWeight(userID: identity.user.id, MeasurementEntry(measuredAt: Date(), value: kilograms))
                return PageRenderer.redirect(to: "/profile#weight-history")
            } catch let problem as APIError {
                var values = try await profileValues(identity.user)
                values["weightError"] = problem.detail
                return pages.page("profile", title: "Your profile", values: values, identity: identity, status: problem.status)
            }
        }
        router.post("profile/resting-heart-rates") { request, context -> Response in
            let identity = try context.requireIdentity()
            let form = try await FormData.read(request)
            do {
                guard let bpm = try number(form["bpm"], field: "bpm") else { throw APIError.invalid("enter your resting heart rate", field: "bpm") }
                try RestingHeartRateRequest(bpm: bpm, measuredAt: nil).validate()
                try await services.store.users.addRestingHeartRate(userID: identity.user.id, MeasurementEntry(measuredAt: Date(), value: bpm))
                return PageRenderer.redirect(to: "/profile#resting-history")
            } catch let problem as APIError {
                var values = try await profileValues(identity.user)
                values["restingError"] = problem.detail
                return pages.page("profile", title: "Your profile", values: values, identity: identity, status: problem.status)
            }
        }
    }

    private func profileValues(_ user: UserRecord) async throws -> [String: Any] {
        let profile = try await services.profile(of: user)
        let weights = try await services.store.users.weights(userID: user.id)
        let restings = try await services.store.users.restingHeartRates(userID: user.id)
        let imperial = user.units == "imperial"
        var values: [String: Any] = [
            "id": user.id, "username": user.username, "fullName": user.fullName, "email": user.email, "status": user.status,
            "hasStatus": !user.status.isEmpty, "initial": String(user.fullName.prefix(1)).uppercased(),
            "dateOfBirth": user.dateOfBirth ?? "", "heightCentimeters": user.heightMeters.map { String(format: "%.0f", $0 * 100) } ?? "",
            "measuredMaxHeartRate": user.measuredMaxHeartRate.map { String(format: "%.0f", $0) } ?? "",
            "isMale": user.sex == .male, "isFemale": user.sex == .female, "noSex": user.sex == nil,
            "metric": !imperial, "imperial": imperial, "weightUnit": imperial ? "lb" : "kg",
            "ageYears": profile.ageYears.map(String.init) ?? "–",
            "maxHeartRate": Formatting.number(profile.maxHeartRate.bpm, decimals: 0, unit: "bpm"),
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
        for method in ["gellish", "fox", "tanaka", "measured"] { values["method_\(method)"] = user.maxHeartRateMethod == method }
        if let resting = profile.restingHeartRate, let maximum = profile.maxHeartRate.bpm,
           let zones = try? ZoneProfile(restingHeartRate: resting, maximumHeartRate: maximum) {
            let thresholds = zones.reserveZoneThresholds
            values["zones"] = ReserveZone.allCases.dropFirst().enumerated().map { index, zone in
                ["name": zone.displayName, "from": String(format: "%.0f", thresholds[index]),
                 "to": index + 1 < 4 ? String(format: "%.0f", thresholds[index + 1]) : "max", "swatch": "zone-\(zone.identifier)"]
            }
            values["hasZones"] = true
        }
        return values
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }

    private func number(_ text: String?, field: String) throws -> Double? {
        guard let text = nonEmpty(text) else { return nil }
        guard let value = Double(text.replacingOccurrences(of: ",", with: ".")), value.isFinite else {
            throw APIError.invalid("'\(text)' is not a number", field: field)
        }
        return value
    }
}
