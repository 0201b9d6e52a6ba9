import Foundation
import HeartworkApp
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// Web Push (docs/PROTOCOL.md "Web Push"): the server's VAPID public key, and the caller's
/// browsers with notifications on — added with the browser's `PushSubscription.toJSON()`,
/// listed (origin and time only), removed by endpoint.
struct PushRoutes {
    let services: HeartworkServices

    func register(on signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("push/key", use: getPushKey)
        signedIn.post("push/subscriptions", use: postPushSubscriptions)
        signedIn.get("push/subscriptions", use: getPushSubscriptions)
        signedIn.delete("push/subscriptions", use: deletePushSubscriptions)
    }

    /// GET /api/push/key
    func getPushKey(_ request: Request, context: AuthenticatedContext) async throws -> PushKeyResponse {
        PushKeyResponse(publicKey: try await services.push.publicKey())
    }

    /// POST /api/push/subscriptions
    func postPushSubscriptions(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await RequestBody.jsonObject(request, allowed: ["endpoint", "expirationTime", "keys"], limit: 8 * 1024)
        let endpoint = try body.string("endpoint")
        let keys = try JSONObjectReader(try body.required("keys"), path: body.path("keys"), allowed: ["p256dh", "auth"])
        let stored = try await services.push.subscribe(
            context.user, endpoint: endpoint, p256dh: try keys.string("p256dh"), auth: try keys.string("auth"), session: context.identity.session.tokenHash)
        return try APIJSON.response(PushSubscriptionResponse(stored), status: .created)
    }

    /// GET /api/push/subscriptions
    func getPushSubscriptions(_ request: Request, context: AuthenticatedContext) async throws -> PushSubscriptionListResponse {
        PushSubscriptionListResponse(subscriptions: try await services.push.list(context.user).map(PushSubscriptionResponse.init))
    }

    /// DELETE /api/push/subscriptions
    func deletePushSubscriptions(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let body = try await RequestBody.jsonObject(request, allowed: ["endpoint"], limit: 8 * 1024)
        try await services.push.unsubscribe(context.user, endpoint: try body.string("endpoint"))
        return .noContent
    }
}

struct PushKeyResponse: ResponseEncodable {
    /// The VAPID public key, base64url (65 bytes, uncompressed P-256): the browser's
    /// `applicationServerKey`.
    let publicKey: String
}

/// A browser with notifications on, as its owner sees it: the push service's origin and when
/// it was turned on (not the endpoint's path, nor the keys).
struct PushSubscriptionResponse: ResponseEncodable {
    let id: String
    let service: String
    let createdAt: Date

    init(_ record: PushSubscriptionRecord) {
        id = record.id
        service = URL(string: record.endpoint).flatMap(VAPIDKey.audience(of:)) ?? ""
        createdAt = record.createdAt
    }
}

struct PushSubscriptionListResponse: ResponseEncodable {
    let subscriptions: [PushSubscriptionResponse]
}
