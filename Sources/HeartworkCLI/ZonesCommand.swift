import ArgumentParser
import HeartworkCore

struct ZonesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zones",
        abstract: "Heart-rate zones from age and resting heart rate (Karvonen).",
        discussion: """
            HeartMate's five zones by heart-rate reserve (none < 60 %, low, moderate, high, \
            red line ≥ 90 %) and RISE's four intensity zones by % of maximum heart rate.

            Example:
              heartwork zones --age 24 --resting-hr 65
              heartwork zones --age 24 --resting-hr 65 --max-hr-formula tanaka --format json
              heartwork zones --resting-hr 52 --max-hr 188
            """
    )

    @Option(help: "Age in years (10–100).")
    var age: Double?

    @Option(name: .customLong("resting-hr"), help: "Resting heart rate in bpm.")
    var restingHR: Double

    @Option(
        name: .customLong("max-hr-formula"),
        help: "Maximum heart rate: gellish (206.9 − 0.67·age), fox (220 − age), tanaka (208 − 0.7·age) or measured.")
    var maxHRFormula: MaxHeartRateFormulaArgument?

    @Option(name: .customLong("max-hr"), help: "Measured maximum heart rate in bpm (implies --max-hr-formula measured).")
    var maxHR: Double?

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func run() throws {
        print(try render())
    }

    func render() throws -> String {
        let (profile, method) = try zoneProfile(
            ageYears: age, restingHeartRate: restingHR, formula: maxHRFormula, measuredMaximum: maxHR)
        let report = ZonesReport(profile: profile, method: method, ageYears: age)
        switch format {
        case .json: return try JSONOutput.render(report)
        case .table: return report.table
        }
    }
}

/// What `heartwork zones` prints.
struct ZonesReport: Encodable {
    struct Zone: Encodable {
        let zone: String
        let fromBPM: Double?
        let toBPM: Double?
        let fromPercent: Double?
        let toPercent: Double?
    }

    let ageYears: Double?
    let restingHeartRate: Double
    let maximumHeartRate: Double
    let maximumHeartRateFormula: String
    let heartRateReserve: Double
    /// Karvonen thresholds at 60, 70, 80, 90 and 100 % of heart-rate reserve.
    let thresholdsBPM: [Double]
    let reserveZones: [Zone]
    let intensityZones: [Zone]

    init(profile: ZoneProfile, method: MaximumHeartRateMethod, ageYears: Double?) {
        self.ageYears = ageYears
        restingHeartRate = profile.restingHeartRate
        maximumHeartRate = profile.maximumHeartRate.rounded(toPlaces: 3)
        maximumHeartRateFormula = method.name
        heartRateReserve = profile.heartRateReserve.rounded(toPlaces: 3)
        let thresholds = profile.reserveZoneThresholds.map { $0.rounded(toPlaces: 3) }
        thresholdsBPM = thresholds
        reserveZones = ReserveZone.allCases.map { zone in
            let index = zone.rawValue
            return Zone(
                zone: zone.identifier,
                fromBPM: index == 0 ? nil : thresholds[index - 1],
                toBPM: index < 4 ? thresholds[index] : nil,
                fromPercent: index == 0 ? nil : zone.percentOfReserve.lowerBound,
                toPercent: index < 4 ? zone.percentOfReserve.upperBound : nil)
        }
        let zones = IntensityZone.allCases
        intensityZones = zones.map { zone in
            let next = zone.rawValue + 1 < zones.count ? zones[zone.rawValue + 1].lowerPercentOfMaximum : nil
            let from = zone.lowerPercentOfMaximum
            return Zone(
                zone: zone.identifier,
                fromBPM: from.map { ($0 / 100 * profile.maximumHeartRate).rounded(toPlaces: 3) },
                toBPM: next.map { ($0 / 100 * profile.maximumHeartRate).rounded(toPlaces: 3) },
                fromPercent: from,
                toPercent: next)
        }
    }

    var table: String {
        var lines = [
            "Maximum heart rate  \(maximumHeartRate.formattedForDisplay) bpm (\(maximumHeartRateFormula))",
            "Resting heart rate  \(restingHeartRate.formattedForDisplay) bpm",
            "Heart-rate reserve  \(heartRateReserve.formattedForDisplay) bpm",
            "",
            "HeartMate zones (% of heart-rate reserve)",
        ]
        lines.append(zoneTable(reserveZones, unit: "% HRR", names: ReserveZone.allCases.map(\.label)))
        lines.append("")
        lines.append("RISE intensity zones (% of maximum heart rate)")
        lines.append(zoneTable(intensityZones, unit: "% max", names: IntensityZone.allCases.map(\.displayName)))
        return lines.joined(separator: "\n")
    }

    private func zoneTable(_ zones: [Zone], unit: String, names: [String]) -> String {
        var table = TextTable(header: ["Zone", unit, "From bpm", "Below bpm"], rightAligned: [2, 3])
        for (zone, name) in zip(zones, names) {
            let percent =
                switch (zone.fromPercent, zone.toPercent) {
                case (nil, let to?): "< \(to.formattedForDisplay)"
                case (let from?, nil): "≥ \(from.formattedForDisplay)"
                case (let from?, let to?): "\(from.formattedForDisplay)–\(to.formattedForDisplay)"
                case (nil, nil): ""
                }
            table.rows.append([
                name, percent,
                zone.fromBPM.map { $0.formatted(places: 3) } ?? "",
                zone.toBPM.map { $0.formatted(places: 3) } ?? "",
            ])
        }
        return table.render()
    }
}
