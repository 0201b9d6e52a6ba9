import Foundation
import HeartworkApp
import HeartworkCore
import Hummingbird

/// The caller's own profile, photo, settings and measurement histories, and the photos of
/// their friends.
struct ProfileRoutes {
    let services: HeartworkServices

    func register(on api: RouterGroup<AuthenticatedContext>) {
        api.get("me", use: getMe)
        api.patch("me", use: patchMe)
        api.put("me/photo", use: putMePhoto)
        api.get("users/:userID/photo", use: getUsersUserIDPhoto)
        api.get("me/settings", use: getMeSettings)
        api.put("me/settings", use: putMeSettings)
        // The first API's names for the two histories, and the general path every kind has.
        registerHistory(on: api, path: "me/weights", kind: .weight, generic: false)
        registerHistory(on: api, path: "me/resting-heart-rates", kind: .restingHeartRate, generic: false)
        for kind in MeasurementKind.allCases {
            registerHistory(on: api, path: RouterPath("me/measurements/\(kind.rawValue)"), kind: kind, generic: true)
        }
    }

    /// GET /api/me
    func getMe(_ request: Request, context: AuthenticatedContext) async throws -> ProfileResponse {
        ProfileResponse(try await services.profiles.profile(userID: context.user.id))
    }

    /// PATCH /api/me
    func patchMe(_ request: Request, context: AuthenticatedContext) async throws -> ProfileResponse {
        let changes = try ProfileUpdateRequest.changes(try await RequestBody.jsonObject(request, allowed: ProfileUpdateRequest.fields))
        return ProfileResponse(try await services.profiles.update(userID: context.user.id, changes))
    }

    /// PUT /api/me/photo
    func putMePhoto(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await PhotoHTTP.put(request, limit: ProfileService.maximumPhotoBytes) { try await services.profiles.setPhoto(userID: context.user.id, bytes: $0) }
    }

    /// GET /api/users/:userID/photo
    func getUsersUserIDPhoto(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        PhotoHTTP.response(
            try await services.profiles.photo(of: try context.parameters.require("userID"), viewer: context.user), cacheControl: "private, max-age=60")
    }

    /// GET /api/me/settings
    func getMeSettings(_ request: Request, context: AuthenticatedContext) async throws -> SettingsResponse {
        SettingsResponse(context.user)
    }

    /// PUT /api/me/settings
    func putMeSettings(_ request: Request, context: AuthenticatedContext) async throws -> SettingsResponse {
        let changes = try SettingsUpdateRequest.changes(try await RequestBody.jsonObject(request, allowed: SettingsUpdateRequest.fields))
        return SettingsResponse(try await services.profiles.updateSettings(userID: context.user.id, changes))
    }

    /// GET lists the history (oldest first), POST adds an entry, DELETE removes one.
    private func registerHistory(on api: RouterGroup<AuthenticatedContext>, path: RouterPath, kind: MeasurementKind, generic: Bool) {
        api.get(path) { _, context -> MeasurementListResponse in
            let entries = try await services.profiles.measurements(userID: context.user.id, kind: kind)
            return MeasurementListResponse(kind: kind.rawValue, unit: kind.unit, entries: entries.map(MeasurementResponse.init))
        }
        api.post(path) { request, context -> EditedResponse<MeasurementResponse> in
            let body = try await RequestBody.jsonObject(request, allowed: MeasurementEntryRequest.fields(for: kind, generic: generic), limit: 16 * 1024)
            let entry = try MeasurementEntryRequest(body, kind: kind, generic: generic)
            let stored = try await services.profiles.addMeasurement(
                userID: context.user.id, kind: kind, value: entry.value, measuredAt: entry.measuredAt, valueField: entry.valueField)
            return EditedResponse(status: .created, response: MeasurementResponse(stored))
        }
        api.delete(RouterPath("\(path)/:measurementID")) { _, context -> HTTPResponse.Status in
            try await services.profiles.deleteMeasurement(userID: context.user.id, kind: kind, id: try context.parameters.require("measurementID"))
            return .noContent
        }
    }
}
