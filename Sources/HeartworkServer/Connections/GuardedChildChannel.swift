import HummingbirdCore
import Logging
import NIOCore

/// A server child channel (here Hummingbird's HTTP/1 with WebSocket upgrade) with a request
/// head deadline in front of it (see `RequestHeadDeadlineHandler`), and at most
/// `addresses.limit` connections from one remote address (see `AddressConnections`).
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let requestHeadDeadline: TimeAmount
    let addresses: AddressConnections?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        if let addresses, let address = channel.remoteAddress?.ipAddress {
            guard addresses.admit(address) else {
                logger.debug("connection refused: too many from one address", metadata: ["address": "\(address)", "limit": "\(addresses.limit)"])
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(AddressConnections.TooMany(address: address, limit: addresses.limit))
            }
            channel.closeFuture.whenComplete { _ in addresses.release(address) }
        }
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestHeadDeadlineHandler(deadline: requestHeadDeadline), position: .first)
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
