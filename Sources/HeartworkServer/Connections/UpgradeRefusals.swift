import Foundation
import HTTPTypes
import HeartworkApp
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import Synchronization

/// WebSocket upgrades refused with what they are (docs/PROTOCOL.md §2): 401 with a problem
/// body for a missing, wrong or revoked credential, 404 for a room or sensor that is not the
/// caller's — where Hummingbird's WebSocket channel would answer every refusal with an empty
/// 400. The live router's outermost middleware (`RecordUpgradeRefusals`) keeps the refusal it
/// produced for its connection; `UpgradeRefusalWriter`, in each connection's HTTP pipeline,
/// writes it in place of the channel's empty 400 (a failed upgrade always ends its connection).
public final class UpgradeRefusals: Sendable {
    public init() {}
    struct Refusal: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: [UInt8]
    }

    private let refusals = Mutex<[ObjectIdentifier: Refusal]>([:])

    func record(_ refusal: Refusal, for channel: any Channel) {
        let key = ObjectIdentifier(channel)
        refusals.withLock { $0[key] = refusal }
        // A connection that closes before its answer is written leaves nothing behind.
        channel.closeFuture.whenComplete { [weak self] _ in self?.refusals.withLock { _ = $0.removeValue(forKey: key) } }
    }

    func take(for channel: any Channel) -> Refusal? {
        refusals.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Records every refusal of an upgrade request on the live router.
    struct RecordUpgradeRefusals: RouterMiddleware {
        typealias Context = LiveRequestContext
        let refusals: UpgradeRefusals

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            do {
                let response = try await next(request, context)
                if response.status != .ok {
                    refusals.record(Refusal(status: response.status, headers: [:], body: []), for: context.channel)
                }
                return response
            } catch {
                // As the HTTP router answers the same error (AppError → 404, 401, …).
                let problem = ErrorMiddleware.problem(for: error, request: request, logger: context.logger)
                refusals.record(Refusal(status: problem.status, headers: problem.headers, body: problem.bodyBytes), for: context.channel)
                throw error
            }
        }
    }
}

/// Replaces the WebSocket channel's empty 400 after a refused upgrade with the refusal the
/// live router recorded for this connection.
final class UpgradeRefusalWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let refusals: UpgradeRefusals
    private var pendingBody: [UInt8]?

    init(refusals: UpgradeRefusals) {
        self.refusals = refusals
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status == .badRequest && head.headerFields[.contentLength] == "0":
            guard let refusal = refusals.take(for: context.channel) else { break }
            var fields = refusal.headers
            fields[.connection] = "close"
            if !refusal.body.isEmpty { fields[.contentType] = "application/problem+json" }
            fields[.contentLength] = String(refusal.body.count)
            pendingBody = refusal.body
            context.write(wrapOutboundOut(.head(HTTPResponse(status: refusal.status, headerFields: fields))), promise: promise)
            return
        case .end(let trailers):
            if let body = pendingBody, !body.isEmpty {
                pendingBody = nil
                context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
                context.write(wrapOutboundOut(.end(trailers)), promise: promise)
                return
            }
        default: break
        }
        context.write(data, promise: promise)
    }
}
