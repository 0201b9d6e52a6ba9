import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Holds a request body to a pace a trickle cannot keep (issue 40: a body sent one byte every
/// 3 s reset the 60-s idle timeout for ever, and 1,050 such sockets — 350 B/s in all — kept
/// everyone else out).
///
/// Only the time the server spends *waiting for the client* counts: from a read the server
/// asked for (the body is being read) until the client's next bytes arrive. While the server
/// does not read (a handler busy, a queue full) nothing counts, so a server that is slow never
/// blames its client. A body may keep the server waiting for `allowance` plus one second per
/// `bytesPerSecond` bytes it has sent: a phone on a bad network that stalls for half a minute
/// in a large upload is fine, a body of a few bytes a minute is closed after about `allowance`
/// — with 408 when no answer has begun, else by closing the connection.
final class RequestBodyPaceHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let allowance: TimeAmount
    let bytesPerSecond: Int

    private var inBody = false
    private var bytes = 0
    private var waited = TimeAmount.zero
    private var waitingSince: NIODeadline?
    private var check: RepeatedTask?
    private var answering = false

    init(allowance: TimeAmount = .seconds(10), bytesPerSecond: Int = 1024) {
        self.allowance = allowance
        self.bytesPerSecond = max(1, bytesPerSecond)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            inBody = true
            bytes = 0
            waited = .zero
            waitingSince = nil
            answering = false
            startChecking(context)
        case .body(let buffer):
            bytes += buffer.readableBytes
            arrived()
        case .end:
            arrived()
            inBody = false
            stopChecking()
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        if inBody, waitingSince == nil { waitingSince = .now() }
        context.read()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head = unwrapOutboundIn(data) { answering = true }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopChecking()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopChecking()
    }

    private func arrived() {
        if let since = waitingSince {
            waited = waited + (NIODeadline.now() - since)
            waitingSince = nil
        }
    }

    /// What the body may keep the server waiting, now.
    private var allowed: TimeAmount { allowance + .seconds(Int64(bytes / bytesPerSecond)) }

    private func startChecking(_ context: ChannelHandlerContext) {
        guard check == nil else { return }
        let context = NIOLoopBound(context, eventLoop: context.eventLoop)
        check = context.value.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { [weak self] _ in
            self?.look(context.value)
        }
    }

    private func stopChecking() {
        check?.cancel()
        check = nil
    }

    private func look(_ context: ChannelHandlerContext) {
        guard inBody else { return stopChecking() }
        let total = waited + (waitingSince.map { NIODeadline.now() - $0 } ?? .zero)
        guard total > allowed else { return }
        stopChecking()
        inBody = false
        if !answering {
            answering = true
            let detail = "the request body came too slowly: \(bytes) bytes while the server waited \(total.nanoseconds / 1_000_000_000) s for them"
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            headers[.connection] = "close"
            headers[.contentLength] = "\(detail.utf8.count)"
            context.write(wrapOutboundOut(.head(HTTPResponse(status: .requestTimeout, headerFields: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(string: detail))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
        } else {
            context.close(promise: nil)
        }
    }
}
