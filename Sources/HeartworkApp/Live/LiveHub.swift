import Foundation
import HeartworkCore
import HeartworkStore

/// A reading on its way to the screens that watch it.
public struct LiveEvent: Sendable {
    public let sensor: SensorRecord
    public let reading: SensorReading
}

/// Passes stored readings to the viewers of their owner, in this process. Each viewer has a
/// bounded buffer: a viewer that cannot keep up loses the oldest readings, never slows the
/// gateways. (Across instances the event bus of issue 9 feeds the same `publish`.)
public actor LiveHub {
    public static let bufferPerViewer = 4096
    private var viewers: [String: [UUID: AsyncStream<LiveEvent>.Continuation]] = [:]

    public init() {}

    public func subscribe(userID: String) -> (id: UUID, events: AsyncStream<LiveEvent>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<LiveEvent>.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferPerViewer))
        viewers[userID, default: [:]][id] = continuation
        return (id, stream)
    }

    public func unsubscribe(userID: String, id: UUID) {
        viewers[userID]?.removeValue(forKey: id)?.finish()
        if viewers[userID]?.isEmpty == true { viewers[userID] = nil }
    }

    public func publish(userID: String, _ events: [LiveEvent]) {
        guard let watching = viewers[userID], !events.isEmpty else { return }
        for continuation in watching.values {
            for event in events { continuation.yield(event) }
        }
    }
}
