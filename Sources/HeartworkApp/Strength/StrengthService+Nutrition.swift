import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

extension StrengthService {
    public struct NutritionView: Sendable {
        public let goal: StrengthGoal
        public let lifestyle: Lifestyle
        /// True while the user has not picked a lifestyle: `lifestyle` is the default (low
        /// active), and pages say it is assumed (issue 25).
        public let lifestyleAssumed: Bool
        public let sex: Sex?
        public let ageYears: Int?
        public let heightMeters: Double?
        public let weightKilograms: Double?
        /// Profile fields still needed ("sex", "dateOfBirth", "height", "weight").
        public let missing: [String]
        public let targets: NutritionTargets?
    }

    /// The signed-in user's daily energy and macros (seed-002 §3.1–§3.2), recomputed on every
    /// request from the profile (sex, age in whole years, height) and the latest weight, as
    /// the seed's nutrition screen did.
    public func nutrition(for user: UserRecord, now: Date = Date()) async throws -> NutritionView {
        let settings = try await settings(for: user, now: now)
        let age = user.dateOfBirth.map { $0.wholeYears(until: CalendarDay(now)) }
        let weight = try await store.measurements.latest(userID: user.id, kind: .weight, atOrBefore: now)?.value
        var missing = [String]()
        if user.sex == nil { missing.append("sex") }
        if age == nil { missing.append("dateOfBirth") }
        if user.heightMeters == nil { missing.append("height") }
        if weight == nil { missing.append("weight") }
        var targets: NutritionTargets?
        if let sex = user.sex, let age, let height = user.heightMeters, let weight {
            targets = NutritionTargets(sex: sex, ageYears: age, heightMeters: height, weightKilograms: weight, lifestyle: settings.lifestyle, goal: settings.goal)
        }
        return NutritionView(
            goal: settings.goal, lifestyle: settings.lifestyle, lifestyleAssumed: !settings.lifestyleChosen, sex: user.sex, ageYears: age, heightMeters: user.heightMeters,
            weightKilograms: weight, missing: missing, targets: targets)
    }
}

extension StrengthService {
    /// The newest deliveries of the user's motivation webhook (for their settings page).
    public func webhookDeliveries(for user: UserRecord, limit: Int = 10) async throws -> [WebhookDeliveryRecord] {
        try await store.strength.webhookDeliveries(userID: user.id, limit: limit)
    }
}
