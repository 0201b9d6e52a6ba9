import Foundation
import Hummingbird
import HeartworkStore
import Logging

/// Who is asking: the signed-in user and the session their credentials belong to.
public struct Identity: Sendable {
    public let user: UserRecord
    public let session: SessionRecord
    /// True when the credentials came in a cookie (then unsafe methods need the CSRF token).
    public let viaCookie: Bool
}

/// The per-request context: Hummingbird's core storage plus the caller's identity.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: Identity?
    /// The peer's IP address, for throttling failed sign-ins per address.
    public let remoteAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        identity = nil
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    public var requestDecoder: JSONDecoder { JSONCoding.decoder }
    public var responseEncoder: JSONEncoder { JSONCoding.encoder }

    /// The signed-in user, or 401.
    public func requireIdentity() throws -> Identity {
        guard let identity else { throw APIError.unauthorized }
        return identity
    }
}

/// JSON as the API speaks it: ISO 8601 dates with optional fractional seconds.
enum JSONCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = parseISO8601(text) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date-time such as 2026-11-21T07:30:00Z")
        }
        return decoder
    }()

    static func parseISO8601(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }
}
