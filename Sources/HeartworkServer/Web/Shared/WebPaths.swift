import Foundation
import HeartworkApp
import Hummingbird
import Mustache

/// Paths that are web pages (HTML), as opposed to the API and machine endpoints.
enum WebPaths {
    static func isPage(_ path: String) -> Bool {
        !(path.hasPrefix("/api/") || path == "/api" || path == "/healthz" || path == "/metrics"
            || path == "/openapi.json" || path.hasPrefix("/static/"))
    }
}
