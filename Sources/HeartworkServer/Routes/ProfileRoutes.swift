import Foundation
import HeartworkStore
import Hummingbird

/// The caller's own profile, photo, measurement histories and settings.
struct ProfileRoutes {
    let services: AppServices
    static let maximumPhotoBytes = 5 * 1024 * 1024

    func register(on api: RouterGroup<AppRequestContext>) {
        api.get("me") { _, context -> ProfileResponse in
            try await services.profile(of: try context.requireIdentity().user)
        }
        api.patch("me") { request, context -> ProfileResponse in
            var user = try context.requireIdentity().user
            let body = try await JSONBody.decode(ProfileUpdateRequest.self, from: request, limit: 64 * 1024)
            try body.apply(to: &user)
            try await services.save(user)
            return try await services.profile(of: user)
        }
        api.put("me/photo") { request, context -> HTTPResponse.Status in
            let user = try context.requireIdentity().user
            let buffer = try await JSONBody.collect(request, limit: Self.maximumPhotoBytes)
            let bytes = Data(buffer: buffer)
            guard let contentType = ImageKind.detect(bytes) else {
                throw APIError(.unsupportedMediaType, "Unsupported image", detail: "a profile photo must be a PNG or JPEG image (checked by content)", field: "body")
            }
            try await services.store.users.setPhoto(userID: user.id, contentType: contentType, data: bytes)
            services.sessionCache.forget(userID: user.id)
            return .noContent
        }
        api.get("users/:userID/photo") { _, context -> Response in
            let identity = try context.requireIdentity()
            let userID = try context.parameters.require("userID")
            guard try await services.canSee(userID, from: identity),
                  let photo = try await services.store.users.photo(userID: userID) else { throw APIError.notFound("photo") }
            var headers = HTTPFields()
            headers[.contentType] = photo.contentType
            headers[.cacheControl] = "private, max-age=60"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: photo.data)))
        }
        registerHistory(on: api, path: "me/weights", unit: "kg", body: WeightEntryRequest.self,
                        read: { try await services.store.users.weights(userID: $0) },
                        add: { try await services.store.users.addWeight(userID: $0, $1) })
        registerHistory(on: api, path: "me/resting-heart-rates", unit: "bpm", body: RestingHeartRateRequest.self,
                        read: { try await services.store.users.restingHeartRates(userID: $0) },
                        add: { try await services.store.users.addRestingHeartRate(userID: $0, $1) })
        api.get("me/settings") { _, context -> SettingsResponse in
            SettingsResponse(try context.requireIdentity().user)
        }
        api.put("me/settings") { request, context -> SettingsResponse in
            var user = try context.requireIdentity().user
            let body = try await JSONBody.decode(SettingsUpdateRequest.self, from: request, limit: 16 * 1024)
            try body.apply(to: &user)
            try await services.save(user)
            return SettingsResponse(user)
        }
    }
}

/// A new entry for one of the profile's dated histories (weight, resting heart rate).
protocol MeasurementEntryRequest: Decodable {
    var value: Double { get }
    var measuredAt: Date? { get }
    func validate() throws
}

extension WeightEntryRequest: MeasurementEntryRequest {
    var value: Double { kilograms }
}

extension RestingHeartRateRequest: MeasurementEntryRequest {
    var value: Double { bpm }
}

extension ProfileRoutes {
    /// GET lists the history, POST adds a validated entry (now, unless it says when).
    func registerHistory<Body: MeasurementEntryRequest>(
        on api: RouterGroup<AppRequestContext>, path: RouterPath, unit: String, body: Body.Type,
        read: @escaping @Sendable (String) async throws -> [MeasurementEntry],
        add: @escaping @Sendable (String, MeasurementEntry) async throws -> Void
    ) {
        api.get(path) { _, context -> MeasurementListResponse in
            let user = try context.requireIdentity().user
            return MeasurementListResponse(unit: unit, entries: try await read(user.id).map(MeasurementResponse.init))
        }
        api.post(path) { request, context -> EditedResponse<MeasurementResponse> in
            let user = try context.requireIdentity().user
            let body = try await JSONBody.decode(Body.self, from: request, limit: 16 * 1024)
            try body.validate()
            let entry = MeasurementEntry(measuredAt: body.measuredAt ?? Date(), value: body.value)
            try await add(user.id, entry)
            return EditedResponse(status: .created, response: MeasurementResponse(entry))
        }
    }
}

/// Image types recognised by their first bytes, not by file name or declared type.
enum ImageKind {
    static func detect(_ bytes: Data) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) && bytes.count > 24 { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) && bytes.count > 4 { return "image/jpeg" }
        return nil
    }
}
