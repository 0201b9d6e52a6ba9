import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

/// gzip for text answers (pages, JSON, SVG, CSS, JavaScript, CSV) when the client accepts it.
///
/// Workout pages are 130–175 kB of inline SVG and compress to about a tenth. The body is
/// compressed as it is written (zlib through CompressNIO, a 16 kB window), so a large JSON
/// stream is never held twice. Small bodies (under 1 kB when the length is known), answers
/// that already carry a `Content-Encoding`, `HEAD`, 204 and 304 are left alone. Every answer
/// of a compressible type says `Vary: Accept-Encoding` so caches keep the two forms apart.
///
/// BREACH does not apply as it usually would: no page carries a secret (the session is a
/// cookie, cross-site requests are refused by origin, not by a token in the page).
struct CompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    static var minimumBytes: Int { 1024 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard Self.isCompressible(response.headers[.contentType]) else { return response }
        response.headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        guard request.method != .head,
            response.status != .noContent, response.status != .notModified,
            response.headers[.contentEncoding] == nil,
            Self.acceptsGzip(request.headers[values: .acceptEncoding]),
            (response.body.contentLength ?? Int.max) >= Self.minimumBytes
        else { return response }
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = nil
        let body = response.body
        response.body = ResponseBody { writer in
            let compressing = try GzipBodyWriter(parent: writer)
            try await body.write(compressing)
        }
        return response
    }

    static func isCompressible(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let media = RequestBody.bareMediaType(contentType)
        return media.hasPrefix("text/") || media == "application/json" || media == "application/problem+json"
            || media == "image/svg+xml" || media == "application/javascript" || media == "application/openmetrics-text"
    }

    /// `gzip` listed without `q=0` (RFC 9110 §12.5.3); `*` counts as well.
    static func acceptsGzip(_ values: [String]) -> Bool {
        for value in values {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
                let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                if quality > 0 { return true }
            }
        }
        return false
    }
}

/// Deflates what the inner body writes and passes the gzip stream on in 16 kB pieces.
struct GzipBodyWriter: ResponseBodyWriter {
    var parent: any ResponseBodyWriter
    let compressor: ZlibCompressor
    var window: ByteBuffer

    init(parent: any ResponseBodyWriter) throws {
        self.parent = parent
        self.compressor = try ZlibCompressor(algorithm: .gzip)
        self.window = ByteBufferAllocator().buffer(capacity: 16 * 1024)
    }

    mutating func write(_ buffer: ByteBuffer) async throws {
        var input = buffer
        while input.readableBytes > 0 {
            if window.writableBytes == 0 { try await flushWindow() }
            do {
                try compressor.deflate(from: &input, to: &window, flush: .no)
            } catch let error as CompressNIOError where error == .bufferOverflow {
                // No room to go on: send what the window holds (an empty window means zlib
                // cannot progress at all, which must not spin).
                guard window.readableBytes > 0 else { throw error }
                try await flushWindow()
            }
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        // An allocated (not default-initialised) buffer: zlib is handed its base address.
        var empty = ByteBufferAllocator().buffer(capacity: 1)
        while true {
            if window.writableBytes == 0 { try await flushWindow() }
            do {
                try compressor.deflate(from: &empty, to: &window, flush: .finish)
                break
            } catch let error as CompressNIOError where error == .bufferOverflow {
                guard window.readableBytes > 0 else { throw error }
                try await flushWindow()
            }
        }
        if window.readableBytes > 0 { try await parent.write(window) }
        try await parent.finish(trailingHeaders)
    }

    private mutating func flushWindow() async throws {
        guard window.readableBytes > 0 else { return }
        try await parent.write(window)
        window = ByteBufferAllocator().buffer(capacity: 16 * 1024)
    }
}
