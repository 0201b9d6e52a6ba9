import ArgumentParser
import HeartworkCore

/// `--max-hr-formula` values.
enum MaxHeartRateFormulaArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case gellish, fox, tanaka, measured

    static var defaultValueDescription: String { "gellish" }
}

/// Builds a zone profile from command-line values, with the choice of HRmax method.
/// `--max-hr` alone implies `measured`; `measured` without `--max-hr` is an error.
func zoneProfile(
    ageYears: Double?,
    restingHeartRate: Double,
    formula: MaxHeartRateFormulaArgument?,
    measuredMaximum: Double?,
    optionPrefix: String = ""
) throws -> (profile: ZoneProfile, method: MaximumHeartRateMethod) {
    let method: MaximumHeartRateMethod
    switch (formula, measuredMaximum) {
    case (.measured?, let bpm?), (nil, let bpm?):
        method = .measured(beatsPerMinute: bpm)
    case (.measured?, nil):
        throw CommandFailure("--\(optionPrefix)max-hr-formula measured needs --\(optionPrefix)max-hr N (your measured maximum in bpm)")
    case (let named?, let bpm?):
        throw CommandFailure(
            "--\(optionPrefix)max-hr \(bpm.formattedForDisplay) is a measured maximum; it cannot be combined with --\(optionPrefix)max-hr-formula \(named.rawValue)")
    case (.gellish?, nil), (nil, nil): method = .gellish
    case (.fox?, nil): method = .fox
    case (.tanaka?, nil): method = .tanaka
    }
    if case .measured(let bpm) = method, ageYears == nil {
        return (try ZoneProfile(restingHeartRate: restingHeartRate, maximumHeartRate: bpm), method)
    }
    guard let ageYears else {
        throw CommandFailure("--\(optionPrefix)age is needed to estimate the maximum heart rate (or give --\(optionPrefix)max-hr)")
    }
    return (try ZoneProfile(ageYears: ageYears, restingHeartRate: restingHeartRate, maximumHeartRateMethod: method), method)
}

extension Double {
    /// Up to three decimals without trailing zeros, for messages and tables (Core's formatter).
    var formattedForDisplay: String { formattedForMessage }
}

extension Double {
    /// 1000.0, 781.25, 812.5: RR intervals as physiologists write them.
    var formattedWithAtLeastOneDecimal: String {
        let text = formattedForDisplay
        return text.contains(".") ? text : text + ".0"
    }
}
