import Foundation
import Logging

/// Structured logs: one JSON object per line on standard error, easy to ship and query.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let level = Self.level(of: event.message.description, event.level)
        guard level >= logLevel else { return }
        var object: [String: Any] = [
            "time": Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            "level": level.rawValue,
            "logger": label,
            "message": event.message.description,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[key] = Self.plain(value)
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        FileHandle.standardError.write(data + Data("\n".utf8))
    }

    /// Messages of the libraries that are not errors of the server, at the level they deserve.
    /// HummingbirdWebSocket logs "Error handling upgrade result" at error level whenever a
    /// connection ends before its first request is handled — a browser closing a kept-alive
    /// connection, a closed tab, the idle timeout (issue 41: about 35 in ordinary browsing).
    /// It is the client's doing: debug, with its `error.type` still there to see.
    static func level(of message: String, _ level: Logger.Level) -> Logger.Level {
        message == "Error handling upgrade result" && level > .debug ? .debug : level
    }

    private static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(plain)
        case .dictionary(let values): values.mapValues(plain)
        }
    }
}
