import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// PATCH /api/me: every field optional; a field that is present is changed, and `null`
/// clears the optional facts (date of birth, sex, height, measured maximum). `null` for a
/// field that cannot be empty is refused.
enum ProfileUpdateRequest {
    static let fields = [
        "fullName", "email", "status", "dateOfBirth", "sex", "heightMeters", "maxHeartRateMethod", "measuredMaxHeartRate", "units", "timeZone",
    ]

    static func changes(_ body: JSONObjectReader) throws -> ProfileChanges {
        var changes = ProfileChanges()
        changes.fullName = try body.optionalString("fullName")
        changes.email = try body.optionalString("email")
        changes.status = try body.optionalString("status")
        changes.heightMeters = try body.clearable("heightMeters", JSONObjectReader.double)
        changes.measuredMaxHeartRate = try body.clearable("measuredMaxHeartRate", JSONObjectReader.double)
        changes.dateOfBirth = try body.clearable("dateOfBirth", JSONObjectReader.string)?.map {
            try InputParsing.calendarDay($0, field: "dateOfBirth")
        }
        changes.sex = try body.clearable("sex", JSONObjectReader.string)?.map { try InputParsing.oneOf($0, Sex.self, field: "sex", what: "sex") }
        changes.maxHeartRateSource = try body.optionalString("maxHeartRateMethod").map {
            try InputParsing.oneOf($0, MaximumHeartRateSource.self, field: "maxHeartRateMethod", what: "the method")
        }
        changes.units = try body.optionalString("units").map { try InputParsing.oneOf($0, UnitSystem.self, field: "units", what: "units") }
        changes.timeZone = try body.clearable("timeZone", JSONObjectReader.string)
        return changes
    }
}

/// PUT /api/me/settings.
enum SettingsUpdateRequest {
    static let fields = ["autoShareWorkouts", "maxSharedWorkouts"]

    static func changes(_ body: JSONObjectReader) throws(JSONFieldError) -> SettingsChanges {
        SettingsChanges(autoShareWorkouts: try body.optionalBool("autoShareWorkouts"), maxSharedWorkouts: try body.optionalInteger("maxSharedWorkouts"))
    }
}
