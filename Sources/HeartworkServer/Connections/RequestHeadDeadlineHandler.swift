import NIOCore

/// Closes a connection whose first request head has not fully arrived within `deadline` of
/// connecting. It sits first in the pipeline and looks only for the blank line ending the
/// head, then steps aside: later requests on the connection fall under the HTTP idle timeout,
/// and a WebSocket after its upgrade under ping/pong. Without it, a connection that sends
/// nothing (or one byte now and then) holds its slot for ever.
final class RequestHeadDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?
    /// The last bytes seen, to find "\r\n\r\n" across reads.
    private var tail: [UInt8] = []
    private var done = false

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !done {
            let buffer = unwrapInboundIn(data)
            buffer.withUnsafeReadableBytes { bytes in
                for byte in bytes where !done {
                    tail.append(byte)
                    if tail.count > 4 { tail.removeFirst(tail.count - 4) }
                    if tail == [13, 10, 13, 10] { finish() }
                }
            }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard timer == nil, !done else { return }
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) { [weak self] in
            guard let self, !self.done else { return }
            self.done = true
            channel.close(promise: nil)
        }
    }

    private func finish() {
        done = true
        tail = []
        timer?.cancel()
        timer = nil
    }
}
