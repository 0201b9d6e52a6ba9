import Foundation
import HeartworkApp
import HeartworkFormats
import Hummingbird

/// Request bodies: collected up to a limit, checked for their media type, and read as JSON
/// by Formats' strict reader (one path for every request; errors name the field).
enum RequestBody {
    static let smallJSONLimit = 64 * 1024
    /// Bodies larger than this are parsed on a thread of their own, never on the few threads
    /// of the cooperative pool every request shares (issue 40: sign-ins of 63 kB bodies of
    /// 6,400 keys, 16 a second, held the victims' p99 at 107 ms in a debug build when parsed
    /// on the pool; the parsers are linear, and 16 KiB takes well under a millisecond).
    static let inlineParseBytes = 16 * 1024

    static func bytes(_ request: Request, limit: Int) async throws -> [UInt8] {
        var buffer = try await collect(request, limit: limit)
        return buffer.readBytes(length: buffer.readableBytes) ?? []
    }

    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch {
            throw Problem(.contentTooLarge, "Body too large", detail: "the request body is larger than \(describe(bytes: limit))")
        }
    }

    /// The body as a JSON object with only the `allowed` members.
    static func jsonObject(_ request: Request, allowed: [String], limit: Int = smallJSONLimit) async throws -> JSONObjectReader {
        try checkJSONMediaType(request)
        let bytes = try await bytes(request, limit: limit)
        do {
            if bytes.count > inlineParseBytes {
                return try await Blocking.run { () throws(JSONFieldError) -> JSONObjectReader in try JSONObjectReader(parsing: bytes, allowed: allowed) }
            }
            return try JSONObjectReader(parsing: bytes, allowed: allowed)
        } catch let error as JSONFieldError {
            throw Problem(error)
        }
    }

    /// The Content-Type without its parameters, lower-cased (`text/plain; charset=utf-8` →
    /// `text/plain`); nil when the header is missing.
    static func mediaType(_ request: Request) -> String? {
        request.headers[.contentType].map(bareMediaType)
    }

    /// A Content-Type header's `type/subtype`, lower-cased, through Hummingbird's `MediaType`
    /// (the one parser of the edge); "" when it is not a media type.
    static func bareMediaType(_ header: String) -> String {
        guard let media = MediaType(from: header) else { return "" }
        return "\(media.type)/\(media.subType)".lowercased()
    }

    /// `application/json` (parameters such as charset allowed), and nothing that merely starts
    /// like it (`application/jsonp`); a body without a Content-Type is not taken as JSON.
    static let notJSONMessage = "The app sent something the server could not read. Reload the page and try again."

    static func checkJSONMediaType(_ request: Request) throws {
        guard let contentType = request.headers[.contentType] else {
            throw Problem(.unsupportedMediaType, "Unsupported media type", detail: "send the body as application/json (the Content-Type header is missing)")
                .withMessage(Self.notJSONMessage)
        }
        guard mediaType(request) == "application/json" else {
            throw Problem(.unsupportedMediaType, "Unsupported media type", detail: "send the body as application/json, not \(contentType)")
                .withMessage(Self.notJSONMessage)
        }
    }

    static func describe(bytes: Int) -> String {
        bytes >= 1024 * 1024 ? "\(bytes / 1024 / 1024) MB" : "\(bytes / 1024) kB"
    }
}

/// A request body read through one iterator, so that what a handler left unread can be read
/// (and dropped) after it: a refused upload's rest is drained so its client sees the answer.
final class OneShotBody: AsyncSequence, @unchecked Sendable {
    typealias Element = ByteBuffer
    private var iterator: Hummingbird.RequestBody.AsyncIterator
    private var finished = false

    init(_ body: Hummingbird.RequestBody) {
        iterator = body.makeAsyncIterator()
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: OneShotBody
        mutating func next() async throws -> ByteBuffer? { try await body.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }

    private func next() async throws -> ByteBuffer? {
        guard !finished else { return nil }
        guard let buffer = try await iterator.next() else {
            finished = true
            return nil
        }
        return buffer
    }

    /// Reads what is left and drops it.
    func discardRest() async throws {
        while try await next() != nil {}
    }
}

/// The one reader of `Authorization: Bearer …` at the edge. HummingbirdAuth's
/// `HTTPFields.bearer` matches only the exact spelling `Bearer `; the scheme is
/// case-insensitive (RFC 9110 §11.1) and gateways in the field send `bearer`, so this one
/// keeps that (docs/ARCHITECTURE.md, "Libraries").
enum BearerToken {
    static func from(_ headers: HTTPFields) -> String? {
        guard let authorization = headers[.authorization], authorization.prefix(7).lowercased() == "bearer " else { return nil }
        return String(authorization.dropFirst(7))
    }

    /// A gateway's token: the bearer header or, for platforms that cannot set headers, `?token=`.
    static func gateway(_ request: Request) -> String? {
        from(request.headers) ?? request.uri.queryParameters.get("token").map { String($0) }
    }
}
