import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// A new entry of a measurement history. The generic form is `{"value", "measuredAt"}`;
/// weights also take `kilograms` or `pounds` (converted at the edge) and resting heart
/// rates `bpm`, as the first API had them.
struct MeasurementEntryRequest {
    let value: Double
    let valueField: String
    let measuredAt: Date?

    static func fields(for kind: MeasurementKind, generic: Bool) -> [String] {
        if generic { return ["value", "measuredAt"] }
        switch kind {
        case .weight: return ["kilograms", "pounds", "measuredAt"]
        case .restingHeartRate: return ["bpm", "measuredAt"]
        case .height: return ["value", "measuredAt"]
        }
    }

    init(_ body: JSONObjectReader, kind: MeasurementKind, generic: Bool) throws {
        measuredAt = try body.optionalString("measuredAt").map { try InputParsing.dateTime($0, field: "measuredAt") }
        if generic || kind != .weight {
            valueField = generic || kind == .height ? "value" : "bpm"
            value = try body.double(valueField)
            return
        }
        switch (try body.optionalDouble("kilograms"), try body.optionalDouble("pounds")) {
        case (let kilograms?, nil): (value, valueField) = (kilograms, "kilograms")
        case (nil, let pounds?): (value, valueField) = (BodyMass.kilograms(fromPounds: pounds), "pounds")
        case (nil, nil): throw JSONFieldError(.missing, path: "kilograms", "give kilograms or pounds")
        case (.some, .some): throw JSONFieldError(.invalidValue, path: "pounds", "give kilograms or pounds, not both")
        }
    }
}

struct MeasurementResponse: ResponseEncodable {
    let id: String
    let measuredAt: Date
    let value: Double
    /// Where an imported value came from ("Apple Health: iPhone"); absent for a value you entered.
    let source: String?

    init(_ measurement: MeasurementRecord) {
        id = measurement.id
        measuredAt = measurement.measuredAt
        value = measurement.value
        source = measurement.source
    }
}

struct MeasurementListResponse: ResponseEncodable {
    let kind: String
    let unit: String
    let entries: [MeasurementResponse]
}
