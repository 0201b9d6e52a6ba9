import Foundation

/// A fresh directory under the system temporary folder, removed when the value goes away.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("heartwork-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `contents` to a file named `name` and returns its path.
    @discardableResult
    public func write(_ contents: String, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try contents.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
