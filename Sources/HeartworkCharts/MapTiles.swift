import Foundation

/// A slippy-map tile server (OpenStreetMap's scheme: 256-pixel Web Mercator tiles addressed
/// by zoom, column and row) that routes are drawn on when the operator configures one.
public struct MapTiles: Sendable, Equatable {
    /// `https://tile.example.org/{z}/{x}/{y}.png`: `{z}`, `{x}` and `{y}` are replaced.
    public let urlTemplate: String
    /// Shown on every map, as tile licences require (for OpenStreetMap: "© OpenStreetMap contributors").
    public let attribution: String
    /// The scheme, host and port the tiles come from (for the Content-Security-Policy).
    public let origin: String
    public static let tileSize = 256.0
    public static let maximumZoom = 18

    public enum TemplateError: Error, CustomStringConvertible {
        case invalid(String)
        public var description: String {
            switch self {
            case .invalid(let reason): reason
            }
        }
    }

    public init(urlTemplate: String, attribution: String) throws(TemplateError) {
        for placeholder in ["{z}", "{x}", "{y}"] where !urlTemplate.contains(placeholder) {
            throw .invalid("the tile URL template must contain \(placeholder), as in https://tile.example.org/{z}/{x}/{y}.png")
        }
        let probe = urlTemplate.replacingOccurrences(of: "{z}", with: "0").replacingOccurrences(of: "{x}", with: "0")
            .replacingOccurrences(of: "{y}", with: "0")
        guard let components = URLComponents(string: probe), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = components.host, !host.isEmpty,
            !urlTemplate.contains("\""), !urlTemplate.contains("<"), !urlTemplate.contains(" ")
        else { throw .invalid("the tile URL template must be an http or https URL, as in https://tile.example.org/{z}/{x}/{y}.png") }
        guard !attribution.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalid("a tile server needs its attribution (for OpenStreetMap: \"© OpenStreetMap contributors\")")
        }
        self.urlTemplate = urlTemplate
        self.attribution = attribution
        self.origin = "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    public func url(zoom: Int, x: Int, y: Int) -> String {
        urlTemplate.replacingOccurrences(of: "{z}", with: String(zoom)).replacingOccurrences(of: "{x}", with: String(x))
            .replacingOccurrences(of: "{y}", with: String(y))
    }

    /// Web Mercator world pixel of a position at a zoom level (OSM's slippy-map formulas).
    public static func worldPixel(latitude: Double, longitude: Double, zoom: Int) -> (x: Double, y: Double) {
        let size = tileSize * pow(2, Double(zoom))
        let clamped = min(max(latitude, -85.05112878), 85.05112878) * Double.pi / 180
        let x = (longitude + 180) / 360 * size
        let y = (1 - log(tan(clamped) + 1 / cos(clamped)) / Double.pi) / 2 * size
        return (x, y)
    }

    /// Ground metres per pixel at a latitude and zoom (equatorial circumference 40,075,016.686 m).
    public static func metersPerPixel(latitude: Double, zoom: Int) -> Double {
        40_075_016.686 * cos(latitude * Double.pi / 180) / (tileSize * pow(2, Double(zoom)))
    }
}
