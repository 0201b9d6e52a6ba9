import Crypto
import Foundation
import HeartworkStore
import Logging
import NIOCore
import Synchronization

/// HeartMate's push notifications (seed 000 F35) as Web Push (RFC 8030, 8291, 8292): a user
/// turns them on per browser (a subscription), and what the inbox tells them of friend
/// requests, challenges and results also reaches the browsers whose Heartwork page is closed.
///
/// The VAPID key pair is made on first use and kept in the database, so every instance on
/// one database signs with the same key (browsers subscribed through one instance get pushes
/// from any). Each push is one job per device on the queue: a 2xx answer delivers; 404 and 410
/// (the subscription is gone) delete the subscription; 429, 5xx and network failures are
/// retried (30 s, 1 min, 2 min … up to 5 attempts); another 4xx is logged and dropped.
public struct PushService: Sendable {
    let store: HeartworkStore
    /// The same SSRF rule as webhooks: private and loopback endpoints only when the operator
    /// allows them (`--allow-private-webhooks`).
    let policy: WebhookPolicy
    /// The VAPID `sub` claim: how a push service reaches the operator.
    let contact: String
    let logger: Logger
    /// The VAPID key once read: it never changes after the first start, so a delivery reads
    /// the database for it once per process, not once per push.
    let cachedKey = KeyCache()

    final class KeyCache: Sendable {
        let key = Mutex<VAPIDKey?>(nil)
    }

    /// Devices a user may have notifications on at once.
    public static let deviceLimit = 10
    public static let retry = RetryStrategy(attempts: 5, first: 30, maximum: 3600)
    /// How long a push service keeps an undelivered message (seconds).
    public static let timeToLive = 86_400
    /// The inbox kinds that are pushed (seed 000 F35: friend requests and their acceptance,
    /// challenges, their answers, and results — a forfeit, the seed's "ended early", is a result),
    /// and the tag each carries (one notification per tag stays on screen: the newest).
    public static let tags: [String: String] = [
        "friend-request": "friend-request", "friend-accepted": "friend-accepted", "match-invitation": "match-invitation",
        "match-accepted": "match-answer", "match-declined": "match-answer", "match-result": "match-result", "ghost-raced": "match-result",
    ]
    static let titles: [String: String] = [
        "friend-request": "Friend request", "friend-accepted": "Friend request accepted", "match-invitation": "Challenge",
        "match-accepted": "Challenge accepted", "match-declined": "Challenge declined", "match-result": "Match result",
        "ghost-raced": "Ghost race",
    ]

    public init(store: HeartworkStore, policy: WebhookPolicy, contact: String, logger: Logger) {
        self.store = store
        self.policy = policy
        self.contact = contact
        self.logger = logger
    }

    /// The server's VAPID key, made and stored on first use.
    public func key(now: Date = Date()) async throws -> VAPIDKey {
        if let known = cachedKey.key.withLock({ $0 }) { return known }
        let fresh = VAPIDKey.generate()
        let stored = try await store.push.vapidKey(
            candidate: VAPIDKeyRecord(privateKey: Base64URL.encode(fresh.rawPrivateKey), publicKey: fresh.publicKey, createdAt: now))
        guard let raw = Base64URL.decode(stored.privateKey), let key = try? VAPIDKey(rawPrivateKey: raw) else {
            throw AppError(.unavailable, "the stored VAPID key cannot be read")
        }
        cachedKey.key.withLock { $0 = key }
        return key
    }

    /// The browser's `applicationServerKey`: the public key, base64url.
    public func publicKey() async throws -> String {
        try await key().publicKey
    }

    /// Turns notifications on for one browser (the fields of its `PushSubscription.toJSON()`).
    /// The same endpoint again renews its keys.
    /// `session`: the signed-in session's token hash; the subscription lasts as long as it.
    public func subscribe(
        _ user: UserRecord, endpoint: String, p256dh: String, auth: String, session: String? = nil, now: Date = Date()
    ) async throws -> PushSubscriptionRecord {
        let checked = try checkEndpoint(endpoint)
        guard let point = Base64URL.decode(p256dh), point.count == 65, point.first == 0x04,
            (try? P256.KeyAgreement.PublicKey(x963Representation: point)) != nil
        else {
            throw AppError.invalid("p256dh is the browser's P-256 public key: 65 bytes, uncompressed, base64url", field: "keys.p256dh")
        }
        guard let secret = Base64URL.decode(auth), secret.count == 16 else {
            throw AppError.invalid("auth is the browser's 16-byte secret, base64url", field: "keys.auth")
        }
        let record = PushSubscriptionRecord(
            userID: user.id, endpoint: checked, p256dh: Base64URL.encode(point), auth: Base64URL.encode(secret), createdAt: now, sessionHash: session)
        guard let stored = try await store.push.subscribe(record, limit: Self.deviceLimit) else {
            throw AppError.conflict("notifications are on for \(Self.deviceLimit) devices already: turn them off on one first")
        }
        return stored
    }

    /// Turns notifications off for one browser ("not found" unless it is the user's).
    public func unsubscribe(_ user: UserRecord, endpoint: String) async throws {
        guard try await store.push.unsubscribe(userID: user.id, endpoint: endpoint.trimmingCharacters(in: .whitespaces)) else {
            throw AppError.notFound("push subscription")
        }
    }

    /// The user's devices with notifications on, oldest first.
    public func list(_ user: UserRecord) async throws -> [PushSubscriptionRecord] {
        try await store.push.subscriptions(userID: user.id)
    }

    /// An https URL with a host (http only where private addresses are allowed: a local test
    /// push service); private and loopback hosts refused unless allowed, as for webhooks.
    func checkEndpoint(_ text: String) throws(AppError) -> String {
        let trimmed = try policy.check(text, field: "endpoint")
        if URL(string: trimmed)?.scheme?.lowercased() != "https" && !policy.allowPrivateAddresses {
            throw AppError.invalid("a push endpoint is an https:// URL", field: "endpoint")
        }
        return trimmed
    }

    // MARK: - Delivery

    /// What the service worker shows (`sw.js`): small JSON, well under the 4 KB a push may carry.
    public struct Payload: Codable, Sendable, Equatable {
        public var title: String
        public var body: String
        public var link: String
        public var tag: String
    }

    /// One push to one device: the job's parameters.
    public struct PushJob: JobParameters {
        public static let jobName = "web-push"
        public var subscriptionID: String
        public var payload: Payload
    }

    var jobDefinitions: [JobDefinition] {
        [JobDefinition(PushJob.self, retry: Self.retry, timeLimit: .seconds(60)) { job, _ in try await deliver(job) }]
    }

    /// The payload for an inbox notice of a pushed kind; nil for the others.
    public static func payload(kind: String, text: String, link: String?) -> Payload? {
        guard let tag = tags[kind] else { return nil }
        return Payload(title: titles[kind] ?? "Heartwork", body: String(text.prefix(500)), link: link ?? "/", tag: tag)
    }

    /// Queues the notice for each of the user's devices (nothing when the kind is not pushed
    /// or the user has none). Never fails the caller: a push that cannot be queued is dropped.
    func notify(_ userID: String, kind: String, text: String, link: String?, now: Date = Date()) async {
        guard let payload = Self.payload(kind: kind, text: text, link: link) else { return }
        do {
            for subscription in try await store.push.subscriptions(userID: userID) {
                // The session that turned it on has ended (signed out, everywhere, a new password,
                // expired): the browser may be someone else's now; nothing more goes to it.
                if let hash = subscription.sessionHash {
                    let session = try await store.sessions.find(tokenHash: hash)
                    guard let session, session.revokedAt == nil, session.expiresAt > now else {
                        try await store.push.delete(id: subscription.id)
                        continue
                    }
                }
                try await store.jobs.enqueue(
                    Jobs.record(
                        PushJob(subscriptionID: subscription.id, payload: payload), userID: userID, attempts: Self.retry.attempts, runAfter: now, now: now))
            }
        } catch {
            logger.warning("push not queued", metadata: ["user": "\(userID)", "error": "\(String(reflecting: error))"])
        }
    }

    /// Why a push is to be tried again.
    struct NotDelivered: Error, CustomStringConvertible {
        let description: String
    }

    /// One attempt; throws when it should be retried.
    func deliver(_ job: PushJob, now: Date = Date()) async throws {
        guard let subscription = try await store.push.subscription(id: job.subscriptionID) else { return }
        guard let url = URL(string: subscription.endpoint), url.host != nil, let audience = VAPIDKey.audience(of: url),
            let uaPublic = Base64URL.decode(subscription.p256dh), let auth = Base64URL.decode(subscription.auth)
        else {
            try await store.push.delete(id: subscription.id)
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try WebPushMessage.encrypt(try encoder.encode(job.payload), uaPublic: uaPublic, auth: auth)
        let key = try await key(now: now)
        let headers = [
            ("Authorization", key.authorization(audience: audience, subject: contact, now: now)), ("TTL", String(Self.timeToLive)),
            ("Content-Encoding", "aes128gcm"), ("Content-Type", "application/octet-stream"), ("Urgency", "normal"),
        ]
        let status: Int
        switch await policy.post(url, headers: headers, body: ByteBuffer(bytes: body)) {
        case .refused(let why):
            logger.info("push endpoint refused", metadata: ["subscription": "\(subscription.id)", "reason": "\(why)"])
            return
        case .unreachable: throw NotDelivered(description: "the push service could not be reached")
        case .status(let answered): status = answered
        }
        switch status {
        case 200..<300: return
        case 403, 404, 410:
            // The browser unsubscribed or the subscription expired (404, 410), or it was made
            // for another VAPID key (403, RFC 8292 §4.2): it will never work again; the browser
            // subscribes anew when its user turns notifications on.
            logger.info("push subscription removed", metadata: ["subscription": "\(subscription.id)", "status": "\(status)"])
            try await store.push.delete(id: subscription.id)
        case 429, 500..<600:
            throw NotDelivered(description: "the push service answered \(status)")
        default:
            logger.warning("push refused", metadata: ["subscription": "\(subscription.id)", "status": "\(status)"])
        }
    }
}
