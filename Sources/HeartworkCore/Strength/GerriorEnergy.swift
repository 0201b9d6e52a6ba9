/// Daily energy needs as Pocket PT computes them (seed-002 §3.1–§3.2, Fig. 7.5 and 7.6;
/// PRODUCT.md: "Gerrior TEE exactly as the seed's code, height in metres, age in whole
/// years"). Gerrior J, Juan W, Basiotis P, "An Easy Approach to Calculating Estimated Energy
/// Requirements", Prev Chronic Dis 2006;3(4):A129:
///
///     men:   TEE = 864 − 9.72 × age + PA × (14.2 × weight + 503 × height)
///     women: TEE = 387 − 7.31 × age + PA × (10.9 × weight + 660.7 × height)
///
/// age in years, weight in kg, height in metres; PA by lifestyle (men 1.0 / 1.12 / 1.27 /
/// 1.54, women 1.0 / 1.14 / 1.27 / 1.45).
public enum GerriorEnergy {
    public static func physicalActivity(_ lifestyle: Lifestyle, sex: Sex) -> Double {
        switch (lifestyle, sex) {
        case (.sedentary, _): 1.0
        case (.lowActive, .male): 1.12
        case (.lowActive, .female): 1.14
        case (.active, _): 1.27
        case (.highActive, .male): 1.54
        case (.highActive, .female): 1.45
        }
    }

    public static func totalEnergyExpenditure(sex: Sex, ageYears: Int, heightMeters: Double, weightKilograms: Double, lifestyle: Lifestyle) -> Double {
        let pa = physicalActivity(lifestyle, sex: sex)
        switch sex {
        case .male: return 864 - (9.72 * Double(ageYears)) + pa * ((14.2 * weightKilograms) + (503 * heightMeters))
        case .female: return 387 - (7.31 * Double(ageYears)) + pa * (10.9 * weightKilograms + 660.7 * heightMeters)
        }
    }
}

/// Daily intake and macronutrients for a goal, as the seed's code (seed-002 §3.2, Fig. 7.6):
///
/// - weight loss: calories = TEE − weight × 7.5; protein = Int(weight × 2.7) g;
///   fat = Int(calories × 0.225 / 9) g; carbs = (Int(calories) − (9 fat + 4 protein)) / 4,
///   integer division;
/// - muscle maintenance: the same split on calories = TEE;
/// - mass gain: calories = TEE × 1.15; protein = Int(cal × 0.3 / 4), carbs = Int(cal × 0.55 / 4),
///   fat = Int(cal × 0.15 / 9).
///
/// Heartwork's one departure: carbohydrate is never below 0 g (see `warnings`).
public struct NutritionTargets: Sendable, Hashable, Codable {
    public var totalEnergyExpenditure: Double
    public var calories: Double
    public var proteinGrams: Int
    public var fatGrams: Int
    public var carbohydrateGrams: Int
    /// Set when the seed's rules do not fit the person: protein at 2.7 g per kg of *total*
    /// body weight can exceed the energy left after fat (a heavy person losing weight), which
    /// would make carbohydrate negative; Heartwork shows 0 g and says why (our rule).
    public var warnings: [String] = []

    // The seed's constants, named so that the pages explaining them (the goals page, the
    // nutrition page) read them from here and cannot drift.

    /// Weight loss takes `weight × weightLossFraction × 1000` kcal a day off (0.75 % of the
    /// body weight, in grams: 7.5 kcal per kilogram).
    public static let weightLossFraction = 0.0075
    /// kcal taken off a day per kilogram of body weight for weight loss (7.5).
    public static var weightLossKilocaloriesPerKilogram: Double { weightLossFraction * 1000 }
    /// Weight loss and maintenance: protein per kilogram of body weight, fat's share of energy.
    public static let proteinGramsPerKilogram = 2.7
    public static let fatShare = 0.225
    /// Mass gain: the energy factor (TEE × 1.15) and the shares of that energy.
    public static let massGainFactor = 1.15
    public static let massGainProteinShare = 0.3
    public static let massGainCarbohydrateShare = 0.55
    public static let massGainFatShare = 0.15

    public init(totalEnergyExpenditure tee: Double, weightKilograms weight: Double, goal: StrengthGoal) {
        totalEnergyExpenditure = tee
        switch goal {
        case .weightLoss, .muscleMaintenance:
            var daily = tee
            if goal == .weightLoss { daily -= (weight * Self.weightLossFraction) * 1000 }
            calories = daily
            let protein = Self.truncated(weight * Self.proteinGramsPerKilogram)
            let fat = Self.truncated((daily * Self.fatShare) / 9)
            let carbs = Self.truncated(daily) - ((fat * 9) + (protein * 4))
            proteinGrams = protein
            fatGrams = fat
            carbohydrateGrams = max(0, carbs / 4)
            if carbs < 0 {
                warnings.append(
                    "protein at 2.7 g per kg of body weight and fat at 22.5 % already exceed this intake, so no energy is left for carbohydrate; ask a dietitian for targets that fit you"
                )
            }
        case .massGain:
            let daily = tee * Self.massGainFactor
            calories = daily
            proteinGrams = Self.truncated(daily * Self.massGainProteinShare / 4)
            carbohydrateGrams = Self.truncated(daily * Self.massGainCarbohydrateShare / 4)
            fatGrams = Self.truncated(daily * Self.massGainFatShare / 9)
        }
    }

    public init(sex: Sex, ageYears: Int, heightMeters: Double, weightKilograms: Double, lifestyle: Lifestyle, goal: StrengthGoal) {
        self.init(
            totalEnergyExpenditure: GerriorEnergy.totalEnergyExpenditure(
                sex: sex, ageYears: ageYears, heightMeters: heightMeters, weightKilograms: weightKilograms, lifestyle: lifestyle),
            weightKilograms: weightKilograms, goal: goal)
    }

    /// Swift's `Int(x)` truncation, without trapping on values no person has (the callers
    /// check plausibility; this keeps a NaN or a huge number from ending the process).
    static func truncated(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        return Int(max(-1e15, min(1e15, value)).rounded(.towardZero))
    }
}
