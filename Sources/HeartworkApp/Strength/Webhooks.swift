import AsyncHTTPClient
import Crypto
import Foundation
import HeartworkCore
import HeartworkStore
import Logging
import NIOCore
import ServiceLifecycle

/// Which motivation webhook URLs are accepted: http or https, a host, at most 2,048
/// characters; private, loopback and link-local addresses are refused (a user must not make
/// the server call into its own network) unless the operator allows them
/// (`serve --allow-private-webhooks`). Checked when the URL is set (literal addresses and
/// `localhost`) and again before every delivery (every address the name resolves to).
public struct WebhookPolicy: Sendable {
    public var allowPrivateAddresses: Bool

    public init(allowPrivateAddresses: Bool = false) {
        self.allowPrivateAddresses = allowPrivateAddresses
    }

    public func check(_ text: String, field: String) throws(AppError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= 2048, let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw AppError.invalid("a webhook is an http:// or https:// URL of at most 2048 characters", field: field)
        }
        guard let host = url.host, !host.isEmpty, url.user == nil, url.password == nil else {
            throw AppError.invalid("the webhook URL needs a host and no user name or password in it", field: field)
        }
        if !allowPrivateAddresses {
            var bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
            while bare.hasSuffix(".") { bare.removeLast() }
            if bare == "localhost" || bare.hasSuffix(".localhost") || NetworkAddress.parse(bare).map(NetworkAddress.isPrivate) == true {
                throw AppError.invalid("private, loopback and link-local addresses are refused (the server's operator can allow them)", field: field)
            }
        }
        return trimmed
    }

    /// Where to deliver: `host` resolved once, every address it resolves to checked, and the
    /// first of them the one to connect to (the delivery pins it, so a second lookup cannot
    /// lead elsewhere). `.refused` says why in words that name no port or error code.
    enum Target: Equatable {
        case connect(String)
        case refused(String)
    }

    func target(host: String) -> Target {
        let addresses = NetworkAddress.resolve(host)
        guard let first = addresses.first else { return .refused("the host \(host) does not resolve") }
        if !allowPrivateAddresses, addresses.contains(where: NetworkAddress.isPrivate) {
            return .refused("the host \(host) resolves to a private, reserved or this server's own address")
        }
        return .connect(NetworkAddress.text(first))
    }

    /// What an outside receiver answered to one POST.
    enum Answer {
        /// Not sent: the host is not allowed (`target(host:)`'s words) or the URL has none.
        case refused(String)
        case status(Int)
        /// Sent, but no answer came (no connection, a timeout): the error, for the log.
        case unreachable(any Error)
    }

    /// One POST to an outside receiver, as webhooks and Web Push both send it: the host
    /// resolved and checked here (`target(host:)`, on a thread of its own since the lookup
    /// blocks), the connection pinned to the address checked (`dnsOverride`: TLS still checks
    /// the certificate for the host's name), no redirects (one could lead past the check into
    /// the server's own network), 10 seconds, and at most 64 KiB of the answer read.
    func post(_ url: URL, headers: [(String, String)], body: ByteBuffer) async -> Answer {
        guard let host = url.host else { return .refused("the URL is not valid") }
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let policy = self
        let address: String
        switch await Blocking.run({ policy.target(host: bare) }) {
        case .refused(let why): return .refused(why)
        case .connect(let checked): address = checked
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(body)
        // A client per request, since the override is a client's setting.
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(10)))
        configuration.dnsOverride = [bare: address]
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let answer: Answer
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            answer = .status(Int(response.status.code))
        } catch {
            answer = .unreachable(error)
        }
        try? await client.shutdown()
        return answer
    }
}

/// IPv4 and IPv6 addresses as bytes, and which are not on the public internet.
enum NetworkAddress {
    /// Every spelling an HTTP client may resolve without DNS: dotted quads, and the decimal,
    /// hexadecimal, octal and shortened forms `inet_aton` accepts (`2130706433`, `0x7f.1`).
    static func parse(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_aton(text, &v4) != 0 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// Addresses not on the public internet: every block of IANA's IPv4 and IPv6
    /// special-purpose address registries (RFC 6890 and its updates) and multicast, and the
    /// IPv4 address inside IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96), 6to4
    /// (2002::/16) and Teredo (2001::/32, refused as a whole) forms — `::ffff:127.0.0.1`,
    /// `64:ff9b::7f00:1` and `2002:7f00:1::` are loopback too.
    static func isSpecialPurpose(_ bytes: [UInt8]) -> Bool {
        if bytes.count == 4 { return isSpecialPurposeV4(bytes) }
        guard bytes.count == 16 else { return true }
        func prefix(_ value: [UInt8], bits: Int) -> Bool {
            guard value.count == 16 else { return false }
            for bit in 0..<bits where (bytes[bit / 8] >> (7 - bit % 8)) & 1 != (value[bit / 8] >> (7 - bit % 8)) & 1 { return false }
            return true
        }
        func v6(_ text: String) -> [UInt8] { parse(text) ?? [] }
        // IPv4 inside: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d, and :: and ::1), NAT64, 6to4.
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff { return isSpecialPurposeV4(Array(bytes[12..<16])) }
        if bytes[0..<12].allSatisfy({ $0 == 0 }) { return true }
        if prefix(v6("64:ff9b::"), bits: 96) { return isSpecialPurposeV4(Array(bytes[12..<16])) }
        if prefix(v6("2002::"), bits: 16) { return isSpecialPurposeV4(Array(bytes[2..<6])) }
        let blocks: [(String, Int)] = [
            ("64:ff9b:1::", 48),  // local-use NAT64
            ("100::", 64),  // discard-only
            ("100:0:0:1::", 64),  // dummy prefix
            ("2001::", 23),  // IETF protocol assignments: Teredo, benchmarking, ORCHID…
            ("2001:db8::", 32),  // documentation
            ("2620:4f:8000::", 48),  // AS112 direct delegation
            ("3fff::", 20),  // documentation
            ("5f00::", 16),  // segment routing SIDs
            ("fc00::", 7),  // unique local
            ("fe80::", 10),  // link-local
            ("fec0::", 10),  // site-local (deprecated)
            ("ff00::", 8),  // multicast
        ]
        return blocks.contains { prefix(v6($0.0), bits: $0.1) }
    }

    static func isSpecialPurposeV4(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 4 else { return true }
        let value = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
        let blocks: [(UInt32, UInt32)] = [
            (0x0000_0000, 8),  // "this network"
            (0x0A00_0000, 8),  // private
            (0x6440_0000, 10),  // shared address space (carrier-grade NAT)
            (0x7F00_0000, 8),  // loopback
            (0xA9FE_0000, 16),  // link-local
            (0xAC10_0000, 12),  // private
            (0xC000_0000, 24),  // IETF protocol assignments
            (0xC000_0200, 24),  // TEST-NET-1
            (0xC01F_C400, 24),  // AS112
            (0xC034_C100, 24),  // AMT
            (0xC058_6300, 24),  // 6to4 relay anycast
            (0xC0A8_0000, 16),  // private
            (0xC0AF_3000, 24),  // AS112 direct delegation
            (0xC612_0000, 15),  // benchmarking
            (0xC633_6400, 24),  // TEST-NET-2
            (0xCB00_7100, 24),  // TEST-NET-3
            (0xE000_0000, 4),  // multicast
            (0xF000_0000, 4),  // reserved, and the limited broadcast address
        ]
        return blocks.contains { base, bits in value >> (32 - bits) == base >> (32 - bits) }
    }

    /// Not for webhooks: special-purpose, or one of this host's own addresses.
    static func isPrivate(_ bytes: [UInt8]) -> Bool { isSpecialPurpose(bytes) || isLocal(bytes) }

    /// Whether `bytes` is one of this host's own addresses (any interface).
    static func isLocal(_ bytes: [UInt8]) -> Bool {
        localAddresses().contains(bytes)
    }

    static func localAddresses() -> Set<[UInt8]> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(first) }
        var addresses = Set<[UInt8]>()
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            if let address = entry.pointee.ifa_addr {
                if Int32(address.pointee.sa_family) == AF_INET {
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
                        var a = p.pointee.sin_addr
                        addresses.insert(withUnsafeBytes(of: &a) { Array($0) })
                    }
                } else if Int32(address.pointee.sa_family) == AF_INET6 {
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                        var a = p.pointee.sin6_addr
                        addresses.insert(withUnsafeBytes(of: &a) { Array($0) })
                    }
                }
            }
            cursor = entry.pointee.ifa_next
        }
        return addresses
    }

    /// An address's text, for connecting to it.
    static func text(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let ok = bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) } != nil
        return ok ? String(cString: buffer) : ""
    }

    static func resolve(_ host: String) -> [[UInt8]] {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if let literal = parse(bare) { return [literal] }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(bare, nil, &hints, &result) == 0, let first = result else { return [] }
        defer { freeaddrinfo(first) }
        var out = [[UInt8]]()
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if let address = info.pointee.ai_addr {
                if info.pointee.ai_family == AF_INET {
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
                        var a = p.pointee.sin_addr
                        out.append(withUnsafeBytes(of: &a) { Array($0) })
                    }
                } else if info.pointee.ai_family == AF_INET6 {
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                        var a = p.pointee.sin6_addr
                        out.append(withUnsafeBytes(of: &a) { Array($0) })
                    }
                }
            }
            cursor = info.pointee.ai_next
        }
        return out
    }
}

/// The webhook's JSON body (docs/STRENGTH.md): the seed's Octoblu keys (`reviewText`,
/// `difficultyRating`, `enjoymentRating`, `name`; no phone number — Heartwork sends no SMS)
/// plus what Heartwork adds: the event, the session, the score and the message chosen.
enum WebhookPayload {
    static func body(user: UserRecord, session: StrengthSessionRecord, score: Int, message: String) -> String {
        struct Body: Encodable {
            let event = "strength.session.finished"
            let sessionId: String
            let routine: String
            let name: String
            let reviewText: String
            let enjoymentRating: Int
            let difficultyRating: Int
            let sentimentScore: Int
            let positive: Bool
            let message: String
            let finishedAt: String
            let volumeKg: Double
            let totalReps: Int
            let totalSets: Int
        }
        let formatter = ISO8601DateFormatter()
        let body = Body(
            sessionId: session.id, routine: session.name, name: user.fullName, reviewText: session.review ?? "",
            enjoymentRating: session.enjoyment ?? 0, difficultyRating: session.difficulty ?? 0, sentimentScore: score, positive: score >= 0,
            message: message, finishedAt: formatter.string(from: session.finishedAt ?? session.startedAt),
            volumeKg: session.volumeKilograms ?? 0, totalReps: session.totalReps ?? 0, totalSets: session.totalSets ?? 0)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(body)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// `X-Heartwork-Signature: sha256=` + hex HMAC-SHA256 over `timestamp + "." + body`,
    /// keyed with the user's webhook secret (the hex string's UTF-8 bytes).
    static func signature(secret: String, timestamp: Int, body: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).\(body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    }
}

/// Delivers motivation webhooks as jobs on the queue (`WebhookJob`, one per delivery): POST
/// with the signature, 10 s timeout, no redirects followed; a 2xx answer delivers; otherwise
/// the job fails and the runner retries it after 30 s, 1 min, 2 min … (doubling, at most
/// 6 h), giving up after 8 attempts. The delivery's row keeps its history for the user's
/// settings page; the queue's claim makes sure one worker on one instance sends it.
public struct WebhookDeliverer: Sendable {
    let store: HeartworkStore
    let policy: WebhookPolicy
    let logger: Logger
    /// Eight attempts, 30 s after the first failure, doubling up to six hours (the job
    /// system's one back-off, `RetryStrategy`).
    public static let retry = RetryStrategy(attempts: 8, first: 30, maximum: 6 * 3600)
    public static var maximumAttempts: Int { retry.attempts }

    public init(store: HeartworkStore, policy: WebhookPolicy, logger: Logger) {
        self.store = store
        self.policy = policy
        self.logger = logger
    }

    /// One delivery of a webhook: the job's parameters.
    public struct WebhookJob: JobParameters {
        public static let jobName = "webhook"
        public var deliveryID: String
    }

    /// The failed attempt of a delivery, for the runner to retry.
    struct NotDelivered: Error, CustomStringConvertible {
        let description: String
    }

    var jobDefinitions: [JobDefinition] {
        [JobDefinition(WebhookJob.self, retry: Self.retry, timeLimit: .seconds(60)) { job, _ in try await deliver(job.deliveryID) }]
    }

    /// Stores a delivery and its job together.
    func enqueue(_ delivery: WebhookDeliveryRecord, now: Date) async throws {
        let job = Jobs.record(WebhookJob(deliveryID: delivery.id), userID: delivery.userID, attempts: Self.retry.attempts, runAfter: now, now: now)
        try await store.strength.enqueueWebhook(delivery, job: job)
    }

    /// One attempt: sends the delivery and records how it went; throws when it was not
    /// delivered, so the runner retries it.
    func deliver(_ id: String, now: Date = Date()) async throws {
        guard var delivery = try await store.strength.webhookDelivery(id: id), delivery.deliveredAt == nil, delivery.givenUpAt == nil else { return }
        let secret = try await store.strength.settings(userID: delivery.userID)?.webhookSecret ?? ""
        let failure = await send(delivery, secret: secret)
        delivery.attempts += 1
        if let failure {
            delivery.lastError = String(failure.prefix(300))
            if delivery.attempts >= Self.maximumAttempts {
                delivery.givenUpAt = Date()
            } else {
                delivery.nextAttemptAt = Date().addingTimeInterval(Self.backoff(afterAttempt: delivery.attempts))
            }
        } else {
            delivery.deliveredAt = Date()
            delivery.lastError = nil
        }
        try await store.strength.recordWebhookAttempt(delivery)
        if let failure { throw NotDelivered(description: failure) }
    }

    public static func backoff(afterAttempt attempt: Int) -> TimeInterval {
        retry.delay(afterAttempt: attempt)
    }

    /// nil when delivered; otherwise why not.
    func send(_ delivery: WebhookDeliveryRecord, secret: String) async -> String? {
        guard let url = URL(string: delivery.url) else { return "the URL is not valid" }
        let timestamp = Int(Date().timeIntervalSince1970)
        let headers = [
            ("Content-Type", "application/json"), ("User-Agent", "Heartwork-Webhook/1"), ("X-Heartwork-Delivery", delivery.id),
            ("X-Heartwork-Timestamp", String(timestamp)),
            ("X-Heartwork-Signature", WebhookPayload.signature(secret: secret, timestamp: timestamp, body: delivery.body)),
        ]
        switch await policy.post(url, headers: headers, body: ByteBuffer(string: delivery.body)) {
        case .refused(let why): return why
        case .status(let status): return (200..<300).contains(status) ? nil : "answered \(status)"
        case .unreachable(let error):
            // The user sees what happened, not how (an error code or a port would let them map
            // the server's network); the log keeps the detail.
            logger.info("webhook delivery failed", metadata: ["delivery": "\(delivery.id)", "error": "\(String(reflecting: error))"])
            let text = "\(error)".lowercased()
            return text.contains("timeout") || text.contains("timed out") || text.contains("deadline")
                ? "the receiver did not answer within 10 seconds" : "the receiver could not be reached"
        }
    }
}
