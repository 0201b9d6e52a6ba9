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

    /// Every address `host` resolves to must be public (unless allowed).
    func checkResolved(host: String) -> String? {
        guard !allowPrivateAddresses else { return nil }
        let addresses = NetworkAddress.resolve(host)
        guard !addresses.isEmpty else { return "the host \(host) does not resolve" }
        if addresses.contains(where: NetworkAddress.isPrivate) { return "the host \(host) resolves to a private or loopback address" }
        return nil
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

    static func isPrivate(_ bytes: [UInt8]) -> Bool {
        if bytes.count == 4 {
            let a = bytes[0], b = bytes[1]
            return a == 0 || a == 10 || a == 127 || (a == 169 && b == 254) || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168)
                || (a == 100 && (64...127).contains(b)) || a >= 224
        }
        guard bytes.count == 16 else { return true }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff { return isPrivate(Array(bytes[12..<16])) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) { return true }  // :: and ::1
        return (bytes[0] & 0xfe) == 0xfc || (bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0x80) || bytes[0] == 0xff
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

/// Delivers queued webhooks: POST with the signature, 10 s timeout, no redirects followed;
/// a 2xx answer delivers; otherwise retried after 30 s, 1 min, 2 min … (doubling, at most
/// 6 h), given up after 8 attempts. Every instance runs one; a delivery is claimed before it
/// is sent, so two instances do not send the same one.
public struct WebhookDeliverer: Service {
    let store: HeartworkStore
    let policy: WebhookPolicy
    let interval: Duration
    let logger: Logger
    public static let maximumAttempts = 8

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                _ = await deliverDue()
                do { try await Task.sleep(for: interval) } catch { return }
            }
        }
    }

    /// One pass over what is due; returns how many were attempted.
    public func deliverDue(now: Date = Date()) async -> Int {
        let due: [WebhookDeliveryRecord]
        do { due = try await store.strength.dueWebhooks(now: now, limit: 20) } catch {
            logger.warning("webhook queue unreadable", metadata: ["error": "\(error)"])
            return 0
        }
        var attempted = 0
        for var delivery in due {
            do {
                guard try await store.strength.claimWebhook(delivery, until: now.addingTimeInterval(120)) else { continue }
                attempted += 1
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
            } catch {
                logger.warning("webhook delivery not recorded", metadata: ["error": "\(error)"])
            }
        }
        return attempted
    }

    public static func backoff(afterAttempt attempt: Int) -> TimeInterval {
        min(6 * 3600, 30 * pow(2, Double(max(0, attempt - 1))))
    }

    /// nil when delivered; otherwise why not.
    func send(_ delivery: WebhookDeliveryRecord, secret: String) async -> String? {
        guard let url = URL(string: delivery.url), let host = url.host else { return "the URL is not valid" }
        if let refused = policy.checkResolved(host: host) { return refused }
        let timestamp = Int(Date().timeIntervalSince1970)
        var request = HTTPClientRequest(url: delivery.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Heartwork-Webhook/1")
        request.headers.add(name: "X-Heartwork-Delivery", value: delivery.id)
        request.headers.add(name: "X-Heartwork-Timestamp", value: String(timestamp))
        request.headers.add(name: "X-Heartwork-Signature", value: WebhookPayload.signature(secret: secret, timestamp: timestamp, body: delivery.body))
        request.body = .bytes(ByteBuffer(string: delivery.body))
        // Redirects are not followed: a redirect could lead the server into its own network
        // past the address check above.
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                configuration: .init(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(10))))
        let outcome: String?
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            outcome = (200..<300).contains(Int(response.status.code)) ? nil : "answered \(response.status.code)"
        } catch {
            outcome = "\(error)"
        }
        try? await client.shutdown()
        return outcome
    }
}

