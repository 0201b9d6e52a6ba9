import Foundation
import HeartworkApp
import HeartworkModel
import Hummingbird

/// Phone sync (docs/DAILY-HEALTH.md "Phone sync"): the caller's sync tokens (create — the
/// token is in that answer only —, list, revoke), and `POST /api/sync/health-auto-export`,
/// which takes a sync token alone.
struct SyncRoutes {
    let services: HeartworkServices
    /// Shared with workout uploads: how many large bodies are read at once.
    let uploads: WorkGate
    let senders: PerUserUploads

    func register(public api: RouterGroup<AppRequestContext>, signedIn: RouterGroup<AuthenticatedContext>) {
        api.post("sync/health-auto-export", use: postSyncHealthAutoExport)
        signedIn.post("sync-tokens", use: postSyncTokens)
        signedIn.get("sync-tokens", use: getSyncTokens)
        signedIn.delete("sync-tokens/:tokenID", use: deleteSyncTokensTokenID)
        signedIn.get("sync/arrivals", use: getSyncArrivals)
    }

    /// POST /api/sync/health-auto-export
    func postSyncHealthAutoExport(_ request: Request, context: AppRequestContext) async throws -> Response {
        // The token before the body: a wrong one costs the server nothing.
        guard let secret = BearerToken.from(request.headers), let (token, user) = try await services.sync.authenticate(token: secret) else {
            throw Problem(
                .unauthorized, "Not a sync token",
                detail: "send a sync token (hws_…, created on the settings page) as the header Authorization: Bearer hws_…")
        }
        if let type = RequestBody.mediaType(request), type != "application/json" {
            throw Problem(.unsupportedMediaType, "Unsupported media type", detail: "send Health Auto Export's JSON format (Content-Type: application/json), not \(type)")
        }
        // The body arrives first (a slow sender holds only their own places), then takes one of
        // the server's places to be read and stored.
        let answer = try await senders.run(user.id) {
            let bytes = try await RequestBody.bytes(request, limit: HealthSyncService.maximumBodyBytes)
            return try await uploads.run { try await services.sync.receiveHealthAutoExport(bytes, token: token, user: user) }
        }
        return try APIJSON.response(SyncAnswerResponse(answer))
    }

    /// POST /api/sync-tokens
    func postSyncTokens(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await RequestBody.jsonObject(request, allowed: ["name"], limit: 4 * 1024)
        let created = try await services.sync.createToken(name: try body.string("name"), for: context.user)
        var response = try APIJSON.response(SyncTokenResponse(created.token, token: created.secret), status: .created)
        response.headers[.location] = "/api/sync-tokens/\(created.token.id)"
        return response
    }

    /// GET /api/sync-tokens
    func getSyncTokens(_ request: Request, context: AuthenticatedContext) async throws -> SyncTokenListResponse {
        SyncTokenListResponse(tokens: try await services.sync.tokens(for: context.user).map { SyncTokenResponse($0) })
    }

    /// DELETE /api/sync-tokens/:tokenID
    func deleteSyncTokensTokenID(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await services.sync.revokeToken(try context.parameters.require("tokenID"), of: context.user)
        return .noContent
    }

    /// GET /api/sync/arrivals
    func getSyncArrivals(_ request: Request, context: AuthenticatedContext) async throws -> SyncArrivalListResponse {
        SyncArrivalListResponse(arrivals: try await services.sync.arrivals(for: context.user, limit: 20).map(SyncArrivalResponse.init))
    }
}

/// A sync token as its owner sees it; `token` only in the answer that created it.
struct SyncTokenResponse: ResponseEncodable {
    let id: String
    let name: String
    let createdAt: Date
    let lastUsedAt: Date?
    let token: String?

    init(_ record: SyncTokenRecord, token: String? = nil) {
        id = record.id
        name = record.name
        createdAt = record.createdAt
        lastUsedAt = record.lastUsedAt
        self.token = token
    }
}

struct SyncTokenListResponse: ResponseEncodable {
    let tokens: [SyncTokenResponse]
}

struct SyncArrivalResponse: ResponseEncodable {
    let receivedAt: Date
    let source: String
    let tokenName: String
    let samplesAdded: Int
    let samplesAlready: Int
    let workoutsAdded: Int
    let leftOut: Int
    let newestSampleAt: Date?

    init(_ record: SyncArrivalRecord) {
        receivedAt = record.receivedAt
        source = record.source
        tokenName = record.tokenName
        samplesAdded = record.samplesAdded
        samplesAlready = record.samplesAlready
        workoutsAdded = record.workoutsAdded
        leftOut = record.leftOut
        newestSampleAt = record.newestSampleAt
    }
}

struct SyncArrivalListResponse: ResponseEncodable {
    let arrivals: [SyncArrivalResponse]
}

/// What a sync did: `added` (new samples by metric, new workouts), `already` (sent before and
/// unchanged; `updated`: sent before with another value, now replaced), `leftOut` (by why),
/// what was read, and the days being recomputed.
struct SyncAnswerResponse: ResponseEncodable {
    struct Added: Encodable {
        let samples: Int
        let byMetric: [String: Int]
        let workouts: Int
        let weights: Int
        let heights: Int
    }

    struct Already: Encodable {
        let samples: Int
        let workouts: Int
    }

    struct LeftOut: Encodable {
        let why: String
        let count: Int
    }

    let added: Added
    let updated: Int
    let already: Already
    let leftOut: [LeftOut]
    let entriesRead: [String: Int]
    let fieldsNotUsed: [String: Int]
    let profileFilled: [String]
    let firstDay: String?
    let lastDay: String?
    let newestSampleAt: Date?
    /// True when the touched days are queued for recomputation (Today follows within seconds).
    let recomputing: Bool

    init(_ answer: HealthSyncService.Answer) {
        let addedSamples = answer.samplesAdded.values.reduce(0, +)
        added = Added(
            samples: addedSamples, byMetric: answer.samplesAdded, workouts: answer.workoutsAdded, weights: answer.body.weightsAdded,
            heights: answer.body.heightsAdded)
        updated = answer.samplesUpdated
        already = Already(samples: answer.samplesAlready, workouts: answer.workoutsAlready)
        var leftOut = answer.leftOut.map { LeftOut(why: $0.key, count: $0.value) }
        for (why, count) in answer.body.leftOut { leftOut.append(LeftOut(why: "weight/height: \(why)", count: count)) }
        self.leftOut = leftOut.sorted { ($0.count, $1.why) > ($1.count, $0.why) }
        entriesRead = answer.entries
        fieldsNotUsed = answer.fieldsNotUsed
        profileFilled = answer.body.profileFilled
        firstDay = answer.firstDay?.description
        lastDay = answer.lastDay?.description
        newestSampleAt = answer.newestSampleAt
        recomputing = answer.firstDay != nil && (addedSamples + answer.samplesUpdated + answer.workoutsAdded > 0 || answer.body.changedAnything)
    }
}
