import Foundation
import HeartworkCore
import HeartworkStore
import Synchronization

/// A reading on its way to the screens that watch it.
public struct LiveEvent: Sendable {
    public let sensor: SensorRecord
    public let reading: SensorReading
}

/// Passes stored readings to the viewers of their owner, in this process. Each viewer has a
/// bounded buffer of `bufferPerViewer` readings: a viewer that cannot keep up loses the oldest,
/// never slows the gateways. (Across instances the live bus feeds the same `publish`.)
public actor LiveHub {
    public static let bufferPerViewer = 4096
    private var viewers: [String: [UUID: Subscription]] = [:]

    public init() {}

    public func subscribe(userID: String) -> (id: UUID, events: Subscription) {
        let id = UUID()
        let subscription = Subscription(capacity: Self.bufferPerViewer)
        viewers[userID, default: [:]][id] = subscription
        return (id, subscription)
    }

    public func unsubscribe(userID: String, id: UUID) {
        viewers[userID]?.removeValue(forKey: id)?.finish()
        if viewers[userID]?.isEmpty == true { viewers[userID] = nil }
    }

    public func publish(userID: String, _ events: [LiveEvent]) {
        guard let watching = viewers[userID], !events.isEmpty else { return }
        for subscription in watching.values { subscription.push(events) }
    }

    /// One viewer's readings: each step of the iteration gives every reading that waited (in
    /// the order published; at least one, at most `capacity`: the newest), so a viewer's socket
    /// writes what came in one go rather than one message at a time. A viewer that falls more
    /// than `capacity` readings behind loses the oldest; ends after `unsubscribe`. One reader.
    public final class Subscription: AsyncSequence, Sendable {
        public typealias Element = [LiveEvent]

        private struct State {
            var pending: [LiveEvent] = []
            var waiter: CheckedContinuation<[LiveEvent]?, Never>?
            var finished = false
        }

        private let capacity: Int
        private let state = Mutex(State())

        init(capacity: Int) {
            self.capacity = capacity
        }

        func push(_ events: [LiveEvent]) {
            let handed = state.withLock { state -> (CheckedContinuation<[LiveEvent]?, Never>, [LiveEvent])? in
                guard !state.finished else { return nil }
                if let waiter = state.waiter {
                    state.waiter = nil
                    return (waiter, events.count > capacity ? Array(events.suffix(capacity)) : events)
                }
                state.pending += events
                // Trimmed once it holds twice the capacity (the oldest dropped), so a viewer that
                // stopped reading costs no copy of the whole buffer at every publish; `next`
                // hands out at most `capacity`.
                if state.pending.count > 2 * capacity { state.pending.removeFirst(state.pending.count - capacity) }
                return nil
            }
            if let handed { handed.0.resume(returning: handed.1) }
        }

        func finish() {
            let waiter = state.withLock { state in
                state.finished = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }

        /// Everything waiting, or the next readings once some come; nil once finished (what
        /// waited is given first) or when the waiting task is cancelled.
        func next() async -> [LiveEvent]? {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<[LiveEvent]?, Never>) in
                    let taken = state.withLock { state -> [LiveEvent]?? in
                        if !state.pending.isEmpty {
                            defer { state.pending = [] }
                            return .some(state.pending.count > capacity ? Array(state.pending.suffix(capacity)) : state.pending)
                        }
                        if state.finished || Task.isCancelled { return .some(nil) }
                        // One reader at a time; a second would leave the first waiting for ever.
                        state.waiter?.resume(returning: nil)
                        state.waiter = continuation
                        return .none
                    }
                    if let taken { continuation.resume(returning: taken) }
                }
            } onCancel: {
                let waiter = state.withLock { state in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume(returning: nil)
            }
        }

        public struct AsyncIterator: AsyncIteratorProtocol {
            let subscription: Subscription
            public mutating func next() async -> [LiveEvent]? { await subscription.next() }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(subscription: self) }
    }
}
