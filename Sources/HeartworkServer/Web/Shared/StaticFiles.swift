import Foundation
import HeartworkApp
import Hummingbird

/// /static/app.css and /static/app.js, embedded in the binary, cached by the browser for an hour;
/// /static/exercises/NAME.svg, the exercise pictures (`StrengthPictures`), for a day.
enum StaticFiles {
    static func register(on router: Router<AppRequestContext>) {
        router.get("static/exercises/:file") { _, context -> Response in
            let name = try context.parameters.require("file")
            guard let bytes = StrengthPictures.files[name] else { throw AppError.notFound("picture") }
            var headers = HTTPFields()
            headers[.contentType] = "image/svg+xml"
            headers[.cacheControl] = "public, max-age=86400"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.get("static/:file") { _, context -> Response in
            let name = try context.parameters.require("file")
            guard let file = EmbeddedResources.staticFiles[name] else { throw AppError.notFound("file") }
            var headers = HTTPFields()
            headers[.contentType] = file.contentType
            headers[.cacheControl] = "public, max-age=3600"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
    }
}
