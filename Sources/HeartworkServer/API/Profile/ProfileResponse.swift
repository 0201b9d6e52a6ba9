import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// The signed-in user's own profile and settings.
struct ProfileResponse: ResponseEncodable {
    struct MaximumHeartRate: Encodable {
        let method: String
        let measured: Double?
        /// The value in use: measured, or estimated from age.
        let bpm: Double?
    }

    let id: String
    let username: String
    let fullName: String
    let email: String
    let status: String
    let dateOfBirth: String?
    let ageYears: Int?
    let sex: String?
    let heightMeters: Double?
    let weightKilograms: Double?
    let restingHeartRate: Double?
    let maxHeartRate: MaximumHeartRate
    let units: String
    let timeZone: String?
    let hasPhoto: Bool
    let photoURL: String?
    let settings: SettingsResponse
    let createdAt: Date

    init(_ profile: Profile) {
        let user = profile.user
        id = user.id
        username = user.username
        fullName = user.fullName
        email = user.email
        status = user.status
        dateOfBirth = user.dateOfBirth?.description
        ageYears = profile.ageYears
        sex = user.sex?.rawValue
        heightMeters = user.heightMeters
        weightKilograms = profile.weightKilograms
        restingHeartRate = profile.restingHeartRate
        maxHeartRate = MaximumHeartRate(method: user.maxHeartRateSource.rawValue, measured: user.measuredMaxHeartRate, bpm: profile.maximumHeartRate)
        units = user.units.rawValue
        timeZone = user.timeZone
        hasPhoto = user.hasPhoto
        photoURL = user.hasPhoto ? "/api/users/\(user.id)/photo" : nil
        settings = SettingsResponse(user)
        createdAt = user.createdAt
    }
}

struct SettingsResponse: ResponseEncodable {
    let autoShareWorkouts: Bool
    let maxSharedWorkouts: Int

    init(_ user: UserRecord) {
        autoShareWorkouts = user.autoShareWorkouts
        maxSharedWorkouts = user.maxSharedWorkouts
    }
}
