import Foundation
import Hummingbird

/// Reads and decodes request bodies, turning every failure into a problem naming the field.
enum JSONBody {
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        try checkMediaType(request)
        let buffer = try await collect(request, limit: limit)
        do {
            return try JSONCoding.decoder.decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw problem(error)
        }
    }

    /// The body's bytes, for the fast parser; the same media-type and size checks.
    static func bytes(_ request: Request, limit: Int) async throws -> [UInt8] {
        try checkMediaType(request)
        var buffer = try await collect(request, limit: limit)
        return buffer.readBytes(length: buffer.readableBytes) ?? []
    }

    static func checkMediaType(_ request: Request) throws {
        let contentType = request.headers[.contentType] ?? ""
        guard contentType.isEmpty || contentType.lowercased().hasPrefix("application/json") else {
            throw APIError(.unsupportedMediaType, "Unsupported media type", detail: "send the body as application/json, not \(contentType)")
        }
    }

    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch {
            throw APIError(.contentTooLarge, "Body too large", detail: "the request body is larger than \(limit / 1024 / 1024) MB")
        }
    }

    static func problem(_ error: DecodingError) -> APIError {
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return .badRequest("the body is not valid JSON: \(underlyingMessage(context))", field: nil)
            }
            return .invalid(context.debugDescription, field: path(context.codingPath))
        case .keyNotFound(let key, let context):
            return .invalid("this field is required", field: path(context.codingPath + [key]))
        case .typeMismatch(let type, let context):
            return .badRequest("expected \(describe(type))", field: path(context.codingPath))
        case .valueNotFound(let type, let context):
            return .badRequest("expected \(describe(type)), found null", field: path(context.codingPath))
        @unknown default:
            return .badRequest("the body could not be read", field: nil)
        }
    }

    /// `track[3].lat` from a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "body" : text
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type, is Int64.Type: "a number"
        case is Bool.Type: "true or false"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }

    private static func underlyingMessage(_ context: DecodingError.Context) -> String {
        if let underlying = context.underlyingError as NSError? {
            return underlying.userInfo[NSDebugDescriptionErrorKey] as? String ?? underlying.localizedDescription
        }
        return context.debugDescription
    }
}

/// A coding key for any field name, to find the ones a DTO does not know.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// Unknown fields are an error, not silently dropped: a typo must not lose data.
    func rejectUnknownKeys<Key: CodingKey & CaseIterable>(_ keys: Key.Type) throws {
        let container = try self.container(keyedBy: AnyCodingKey.self)
        let known = Set(Key.allCases.map(\.stringValue))
        if let unknown = container.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw APIError.invalid(
                "unknown field; accepted: \(Key.allCases.map(\.stringValue).sorted().joined(separator: ", "))",
                field: JSONBody.path(codingPath + [unknown]))
        }
    }
}
