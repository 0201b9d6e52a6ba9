import Foundation
import HTTPTypes
import HeartworkApp
import Hummingbird
import NIOCore

/// A photo over HTTP, the same for a user, a player and a team: the upload read up to its
/// limit and handed to the App, which checks the image (one it refuses is 415 and says why);
/// the download with its own content type, never cached by anyone but the browser.
enum PhotoHTTP {
    static func put(_ request: Request, limit: Int, store: ([UInt8]) async throws -> Void) async throws -> HTTPResponse.Status {
        let bytes = try await RequestBody.bytes(request, limit: limit)
        do {
            try await store(bytes)
        } catch let error as AppError where error.kind == .invalid {
            throw Problem(.unsupportedMediaType, "Unsupported image", detail: error.detail, field: error.field)
        }
        return .noContent
    }

    static func response(_ photo: (contentType: String, data: Data), cacheControl: String = "private, no-cache") -> Response {
        var headers = HTTPFields()
        headers[.contentType] = photo.contentType
        headers[.cacheControl] = cacheControl
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: photo.data)))
    }
}
