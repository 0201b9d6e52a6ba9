import HummingbirdCore
import Logging
import NIOCore

/// A server child channel (here Hummingbird's HTTP/1 with WebSocket upgrade) with a request
/// head deadline in front of it (see `RequestHeadDeadlineHandler`).
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let requestHeadDeadline: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestHeadDeadlineHandler(deadline: requestHeadDeadline), position: .first)
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
