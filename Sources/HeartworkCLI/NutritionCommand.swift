import ArgumentParser
import HeartworkCore

extension Lifestyle: ExpressibleByArgument {
    public init?(argument: String) { self.init(loose: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension StrengthGoal: ExpressibleByArgument {
    public init?(argument: String) { self.init(loose: argument) }
    public static var allValueStrings: [String] { ["weight-loss", "muscle-maintenance", "mass-gain"] }
}

struct NutritionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nutrition",
        abstract: "Daily energy and macronutrients for a goal (Pocket PT: Gerrior TEE, seed-002 §3.1–3.2).",
        discussion: """
            TEE by Gerrior et al. 2006 exactly as Pocket PT's code (height in metres, age in whole years); weight loss
            takes weight × 7.5 kcal off, mass gain adds 15 %; protein 2.7 g/kg and fat 22.5 % with carbohydrate the rest
            (loss, maintenance), or 30 / 55 / 15 % (mass gain), truncated to whole grams as the seed's code does.

            Example:
              heartwork nutrition --sex male --age 25 --height-m 1.80 --weight-kg 80 --lifestyle active --goal mass-gain
              heartwork nutrition --sex female --age 30 --height-m 1.65 --weight-kg 60 --lifestyle low-active --goal weight-loss --format json
            """
    )

    @Option(help: "male or female (the equations are sex-specific).")
    var sex: Sex

    @Option(help: "Age in whole years (10–100).")
    var age: Int

    @Option(name: .customLong("height-m"), help: "Height in metres (1.0–2.5).")
    var heightMeters: Double

    @Option(name: .customLong("weight-kg"), help: "Body mass in kilograms.")
    var weightKilograms: Double

    @Option(help: "sedentary, low-active, active or high-active.")
    var lifestyle: Lifestyle

    @Option(help: "weight-loss, muscle-maintenance or mass-gain.")
    var goal: StrengthGoal

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func run() throws {
        print(try render())
    }

    func render() throws -> String {
        guard (10...100).contains(age) else { throw CommandFailure("age \(age) is outside 10–100 years") }
        guard heightMeters.isFinite, (1.0...2.5).contains(heightMeters) else {
            throw CommandFailure("height \(heightMeters.formattedForDisplay) m is outside 1.0–2.5 m (give metres: 1.80, not 180)")
        }
        guard weightKilograms.isFinite, BodyMass.plausibleKilograms.contains(weightKilograms) else {
            throw CommandFailure("body mass \(weightKilograms.formattedForDisplay) kg is outside 20–350 kg")
        }
        let targets = NutritionTargets(sex: sex, ageYears: age, heightMeters: heightMeters, weightKilograms: weightKilograms, lifestyle: lifestyle, goal: goal)
        let report = NutritionReport(
            totalEnergyExpenditure: targets.totalEnergyExpenditure.rounded(toPlaces: 4), calories: targets.calories.rounded(toPlaces: 4),
            proteinGrams: targets.proteinGrams, fatGrams: targets.fatGrams, carbohydrateGrams: targets.carbohydrateGrams,
            sex: sex.rawValue, ageYears: age, heightMeters: heightMeters, weightKilograms: weightKilograms,
            lifestyle: lifestyle.rawValue, physicalActivity: GerriorEnergy.physicalActivity(lifestyle, sex: sex), goal: goal.rawValue,
            method: "Gerrior et al. 2006 TEE; Pocket PT goal and macronutrient rules", warnings: targets.warnings)
        switch format {
        case .json: return try JSONOutput.render(report)
        case .table:
            return TextTable(
                header: ["", "value"],
                rows: [
                    ["TEE", "\(targets.totalEnergyExpenditure.formatted(places: 1)) kcal/day"],
                    ["Intake (\(goal.displayName.lowercased()))", "\(targets.calories.formatted(places: 1)) kcal/day"],
                    ["Protein", "\(targets.proteinGrams) g"],
                    ["Fat", "\(targets.fatGrams) g"],
                    ["Carbohydrate", "\(targets.carbohydrateGrams) g"],
                ]
            ).render() + "\n(\(sex.rawValue), \(age) years, \(heightMeters.formattedForDisplay) m, \(weightKilograms.formattedForDisplay) kg, "
                + "\(lifestyle.displayName.lowercased()), PA \(GerriorEnergy.physicalActivity(lifestyle, sex: sex).formattedForDisplay); Gerrior et al. 2006)"
                + targets.warnings.map { "\nNote: \($0)." }.joined()
        }
    }
}

struct NutritionReport: Encodable {
    let totalEnergyExpenditure: Double
    let calories: Double
    let proteinGrams: Int
    let fatGrams: Int
    let carbohydrateGrams: Int
    let sex: String
    let ageYears: Int
    let heightMeters: Double
    let weightKilograms: Double
    let lifestyle: String
    let physicalActivity: Double
    let goal: String
    let method: String
    let warnings: [String]
}
