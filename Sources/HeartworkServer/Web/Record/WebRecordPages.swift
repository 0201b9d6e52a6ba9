import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkModel
import Hummingbird

/// Recording a workout live (`/record`, issue 23): the page record.js runs. It keeps the
/// recording in the browser and sends it through `/api/recordings` (docs/API.md).
struct WebRecordPages {
    let services: HeartworkServices
    let pages: PageRenderer

    func register(on router: RouterGroup<AuthenticatedContext>) {
        router.get("record", use: getRecord)
    }

    /// GET /record
    func getRecord(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let profile = try await services.profiles.profile(of: context.user)
        let sensors = (try? await services.live.sensors(of: context.user)) ?? []
        var model = RecordPage(
            sensors: sensors.map { RecordPage.Sensor(id: $0.id, name: $0.name ?? $0.address) }, hasSensors: !sensors.isEmpty)
        if profile.zoneProfile != nil, let resting = profile.restingHeartRate, let maximum = profile.maximumHeartRate {
            model.restingHeartRate = Int(resting.rounded())
            model.maximumHeartRate = Int(maximum.rounded())
        }
        if let sex = profile.user.sex, let weight = profile.weightKilograms, let age = profile.ageYears {
            model.sex = sex.rawValue
            model.weightKilograms = String(format: "%.1f", weight)
            model.ageYears = age
        }
        model.hasZones = model.restingHeartRate != nil
        model.hasEnergy = model.sex != nil
        return pages.page("record", title: "Record a workout", model: model, request: request, identity: context.identity)
    }
}

/// record.mustache: the strap choices and the anchors the live figures need.
struct RecordPage: Sendable {
    struct Sensor: Sendable {
        let id: String
        let name: String
    }

    /// The user's gateway straps (followed through the live feed).
    let sensors: [Sensor]
    let hasSensors: Bool
    /// Zone anchors, when the profile has both.
    var restingHeartRate: Int?
    var maximumHeartRate: Int?
    var hasZones = false
    /// Keytel's inputs, when the profile has all three.
    var sex: String?
    var weightKilograms: String?
    var ageYears: Int?
    var hasEnergy = false
}
