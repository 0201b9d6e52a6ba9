import Foundation
import HeartworkCore
import HeartworkStore
import Hummingbird

/// PATCH /api/me: every field optional; a field that is present is changed, and `null`
/// clears the optional ones (date of birth, sex, height, measured maximum).
struct ProfileUpdateRequest: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case fullName, email, status, dateOfBirth, sex, heightMeters, maxHeartRateMethod, measuredMaxHeartRate, units
    }

    var fullName: String?
    var email: String?
    var status: String?
    var dateOfBirth: String??
    var sex: String??
    var heightMeters: Double??
    var maxHeartRateMethod: String?
    var measuredMaxHeartRate: Double??
    var units: String?

    init() {}

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fullName = try container.decodeIfPresent(String.self, forKey: .fullName)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        status = try container.decodeIfPresent(String.self, forKey: .status)
        dateOfBirth = try container.decodeClearable(String.self, forKey: .dateOfBirth)
        sex = try container.decodeClearable(String.self, forKey: .sex)
        heightMeters = try container.decodeClearable(Double.self, forKey: .heightMeters)
        maxHeartRateMethod = try container.decodeIfPresent(String.self, forKey: .maxHeartRateMethod)
        measuredMaxHeartRate = try container.decodeClearable(Double.self, forKey: .measuredMaxHeartRate)
        units = try container.decodeIfPresent(String.self, forKey: .units)
    }

    /// Applies the changes to `user`, validating each field.
    func apply(to user: inout UserRecord, now: Date = Date()) throws {
        if let fullName {
            let trimmed = fullName.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...100).contains(trimmed.count) else { throw APIError.invalid("the full name must have 1–100 characters", field: "fullName") }
            user.fullName = trimmed
        }
        if let email {
            guard EmailAddress.isValid(email) else { throw APIError.invalid("'\(email)' is not an e-mail address", field: "email") }
            user.email = email
        }
        if let status {
            guard status.count <= 280 else { throw APIError.invalid("a status has at most 280 characters", field: "status") }
            user.status = status
        }
        if let dateOfBirth {
            if let text = dateOfBirth {
                guard let day = ISODay.parse(text), let age = ProfileFacts.age(dateOfBirth: text, at: now),
                      day < now, PhysiologicalLimits.ageYears.contains(Double(age)) else {
                    throw APIError.invalid("'\(text)' is not a birth date (yyyy-mm-dd) for an age of 10–100 years", field: "dateOfBirth")
                }
            }
            user.dateOfBirth = dateOfBirth
        }
        if let sex {
            if let text = sex, Sex(rawValue: text) == nil {
                throw APIError.invalid("sex is male or female (or null to leave it unset)", field: "sex")
            }
            user.sex = sex.flatMap(Sex.init(rawValue:))
        }
        if let heightMeters {
            if let value = heightMeters, !(0.5...2.6).contains(value) {
                throw APIError.invalid("height is in metres, 0.5–2.6", field: "heightMeters")
            }
            user.heightMeters = heightMeters
        }
        if let measuredMaxHeartRate {
            if let value = measuredMaxHeartRate, !PhysiologicalLimits.maximumHeartRate.contains(value) {
                throw APIError.invalid("a measured maximum heart rate is 100–250 bpm", field: "measuredMaxHeartRate")
            }
            user.measuredMaxHeartRate = measuredMaxHeartRate
        }
        if let maxHeartRateMethod {
            guard ["gellish", "fox", "tanaka", "measured"].contains(maxHeartRateMethod) else {
                throw APIError.invalid("the method is gellish, fox, tanaka or measured", field: "maxHeartRateMethod")
            }
            user.maxHeartRateMethod = maxHeartRateMethod
        }
        if user.maxHeartRateMethod == "measured" && user.measuredMaxHeartRate == nil {
            throw APIError.invalid("the measured method needs measuredMaxHeartRate", field: "measuredMaxHeartRate")
        }
        if let units {
            guard ["metric", "imperial"].contains(units) else { throw APIError.invalid("units are metric or imperial", field: "units") }
            user.units = units
        }
    }
}

extension KeyedDecodingContainer {
    /// Absent → nil (leave as is); null → .some(nil) (clear); value → .some(value).
    func decodeClearable<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T?? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) { return .some(nil) }
        return .some(try decode(T.self, forKey: key))
    }
}

struct SettingsUpdateRequest: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case autoShareWorkouts, maxSharedWorkouts }
    var autoShareWorkouts: Bool?
    var maxSharedWorkouts: Int?

    init(autoShareWorkouts: Bool?, maxSharedWorkouts: Int?) {
        self.autoShareWorkouts = autoShareWorkouts
        self.maxSharedWorkouts = maxSharedWorkouts
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        autoShareWorkouts = try container.decodeIfPresent(Bool.self, forKey: .autoShareWorkouts)
        maxSharedWorkouts = try container.decodeIfPresent(Int.self, forKey: .maxSharedWorkouts)
    }

    func apply(to user: inout UserRecord) throws {
        if let autoShareWorkouts { user.autoShareWorkouts = autoShareWorkouts }
        if let maxSharedWorkouts {
            guard (0...500).contains(maxSharedWorkouts) else { throw APIError.invalid("keep 0–500 shared workouts", field: "maxSharedWorkouts") }
            user.maxSharedWorkouts = maxSharedWorkouts
        }
    }
}

/// POST /api/me/weights: kilograms or pounds (converted at the edge), optional time.
struct WeightEntryRequest: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case kilograms, pounds, measuredAt }
    let kilograms: Double
    let measuredAt: Date?

    init(kilograms: Double, measuredAt: Date?) {
        self.kilograms = kilograms
        self.measuredAt = measuredAt
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kilograms = try container.decodeIfPresent(Double.self, forKey: .kilograms)
        let pounds = try container.decodeIfPresent(Double.self, forKey: .pounds)
        switch (kilograms, pounds) {
        case (let value?, nil): self.kilograms = value
        case (nil, let value?): self.kilograms = BodyMass.kilograms(fromPounds: value)
        case (nil, nil): throw APIError.invalid("give kilograms or pounds", field: "kilograms")
        case (.some, .some): throw APIError.invalid("give kilograms or pounds, not both", field: "pounds")
        }
        measuredAt = try container.decodeIfPresent(Date.self, forKey: .measuredAt)
    }

    func validate() throws {
        guard BodyMass.plausibleKilograms.contains(kilograms) else {
            throw APIError.invalid("a body mass is 20–350 kg", field: "kilograms")
        }
    }
}

struct RestingHeartRateRequest: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case bpm, measuredAt }
    let bpm: Double
    let measuredAt: Date?

    init(bpm: Double, measuredAt: Date?) {
        self.bpm = bpm
        self.measuredAt = measuredAt
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bpm = try container.decode(Double.self, forKey: .bpm)
        measuredAt = try container.decodeIfPresent(Date.self, forKey: .measuredAt)
    }

    func validate() throws {
        guard PhysiologicalLimits.restingHeartRate.contains(bpm) else {
            throw APIError.invalid("a resting heart rate is 25–150 bpm", field: "bpm")
        }
    }
}

struct MeasurementResponse: ResponseEncodable {
    let id: String
    let measuredAt: Date
    let value: Double

    init(_ measurement: MeasurementEntry) {
        id = measurement.id
        measuredAt = measurement.measuredAt
        value = measurement.value
    }
}

struct MeasurementListResponse: ResponseEncodable {
    let unit: String
    let entries: [MeasurementResponse]
}
