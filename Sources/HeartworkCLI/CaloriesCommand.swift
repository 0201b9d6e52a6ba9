import ArgumentParser
import HeartworkCore

struct CaloriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calories",
        abstract: "Energy burned from average heart rate (Keytel et al. 2005).",
        discussion: """
            Example:
              heartwork calories --sex male --weight-kg 70 --age 24 --avg-hr 150 --minutes 30
              heartwork calories --sex female --weight-lb 145 --age 31 --avg-hr 142 --minutes 45 --format json
            """
    )

    @Option(help: "male or female (the equation is sex-specific).")
    var sex: Sex

    @Option(name: .customLong("weight-kg"), help: "Body mass in kilograms.")
    var weightKilograms: Double?

    @Option(name: .customLong("weight-lb"), help: "Body mass in pounds (converted to kilograms).")
    var weightPounds: Double?

    @Option(help: "Age in years (10–100).")
    var age: Double

    @Option(name: .customLong("avg-hr"), help: "Average heart rate in bpm.")
    var averageHeartRate: Double

    @Option(help: "Duration in minutes.")
    var minutes: Double

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func run() throws {
        print(try render())
    }

    func render() throws -> String {
        let kilograms: Double
        switch (weightKilograms, weightPounds) {
        case (let kg?, nil): kilograms = kg
        case (nil, let pounds?): kilograms = BodyMass.kilograms(fromPounds: pounds)
        case (nil, nil): throw CommandFailure("give the body mass with --weight-kg or --weight-lb")
        case (.some, .some): throw CommandFailure("give the body mass once: --weight-kg or --weight-lb, not both")
        }
        guard BodyMass.plausibleKilograms.contains(kilograms) else {
            throw CommandFailure("body mass \(kilograms.formattedForDisplay) kg is outside 20–350 kg")
        }
        guard PhysiologicalLimits.ageYears.contains(age) else {
            throw CommandFailure(PhysiologyError.ageOutOfRange(age).description)
        }
        guard PhysiologicalLimits.plausibleHeartRate.contains(averageHeartRate) else {
            throw CommandFailure("average heart rate \(averageHeartRate.formattedForDisplay) bpm is outside 20–250 bpm")
        }
        guard minutes.isFinite, minutes >= 0, minutes <= 7 * 24 * 60 else {
            throw CommandFailure("duration \(minutes) minutes is outside 0 to one week")
        }
        let kilocalories = KeytelEnergy.kilocalories(
            sex: sex, averageBPM: averageHeartRate, weightKilograms: kilograms, ageYears: age, hours: minutes / 60)
        let report = CaloriesReport(
            kilocalories: kilocalories.rounded(toPlaces: 2), sex: sex.rawValue,
            weightKilograms: kilograms.rounded(toPlaces: 3), ageYears: age,
            averageHeartRate: averageHeartRate, minutes: minutes, method: "Keytel et al. 2005")
        switch format {
        case .json: return try JSONOutput.render(report)
        case .table:
            return """
                Energy  \(kilocalories.formatted(places: 2)) kcal
                        (\(sex.rawValue), \(kilograms.formattedForDisplay) kg, \(age.formattedForDisplay) years, \
                average \(averageHeartRate.formattedForDisplay) bpm for \(minutes.formattedForDisplay) min; Keytel et al. 2005)
                """
        }
    }
}

struct CaloriesReport: Encodable {
    let kilocalories: Double
    let sex: String
    let weightKilograms: Double
    let ageYears: Double
    let averageHeartRate: Double
    let minutes: Double
    let method: String
}

extension Sex: ExpressibleByArgument {}
