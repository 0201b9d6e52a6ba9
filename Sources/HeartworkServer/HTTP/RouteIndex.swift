import Hummingbird
import Synchronization

/// The routes the router serves, by path template, so a request for a path that exists with
/// another method is answered 405 with an `Allow` header instead of 404.
final class RouteIndex: Sendable {
    private struct Entry {
        let segments: [Substring]
        let method: HTTPRequest.Method
    }

    private let entries = Mutex<[Entry]>([])

    /// Records the router's routes (once they are all registered).
    func record(_ routes: [(path: String, method: HTTPRequest.Method)]) {
        let list = routes.map { Entry(segments: $0.path.split(separator: "/"), method: $0.method) }
        entries.withLock { $0 = list }
    }

    /// The methods `path` answers to (HEAD wherever GET is), sorted; empty when no route matches.
    func methods(for path: String) -> [String] {
        let parts = path.split(separator: "/")
        let matching = entries.withLock { entries in
            entries.filter { entry in
                entry.segments.count == parts.count
                    && zip(entry.segments, parts).allSatisfy { template, part in template.hasPrefix(":") || template == part }
            }.map(\.method)
        }
        var methods = Set(matching.map(\.rawValue))
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods.sorted()
    }
}
