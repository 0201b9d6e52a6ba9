import Foundation
import Testing

@testable import HeartworkCharts

/// Slippy-map tiles. Golden tile numbers: the OpenStreetMap wiki's `deg2num` ("Slippy map
/// tilenames", Python) for the same positions.
@Suite("Map tiles")
struct MapTilesTests {
    static func tile(_ latitude: Double, _ longitude: Double, _ zoom: Int) -> (Int, Int) {
        let pixel = MapTiles.worldPixel(latitude: latitude, longitude: longitude, zoom: zoom)
        return (Int(pixel.x / MapTiles.tileSize), Int(pixel.y / MapTiles.tileSize))
    }

    @Test func positionsFallOnTheTilesOpenStreetMapNames() {
        #expect(Self.tile(48.2082, 16.3738, 13) == (4468, 2840))  // Vienna, Stephansplatz
        #expect(Self.tile(51.5007, -0.1246, 15) == (16372, 10897))  // London, Westminster
        #expect(Self.tile(-33.8568, 151.2153, 12) == (3768, 2457))  // Sydney Opera House
    }

    @Test func templatesAreCheckedAndFilledIn() throws {
        let tiles = try MapTiles(urlTemplate: "https://tiles.example.org:8443/osm/{z}/{x}/{y}.png", attribution: "© OpenStreetMap contributors")
        #expect(tiles.origin == "https://tiles.example.org:8443")
        #expect(tiles.url(zoom: 13, x: 4468, y: 2840) == "https://tiles.example.org:8443/osm/13/4468/2840.png")
        #expect(throws: MapTiles.TemplateError.self) { try MapTiles(urlTemplate: "https://t.example.org/{z}/{x}.png", attribution: "x") }
        #expect(throws: MapTiles.TemplateError.self) { try MapTiles(urlTemplate: "javascript:{z}{x}{y}", attribution: "x") }
        #expect(throws: MapTiles.TemplateError.self) { try MapTiles(urlTemplate: "https://t.example.org/{z}/{x}/{y}\"onload=\"x", attribution: "x") }
        #expect(throws: MapTiles.TemplateError.self) { try MapTiles(urlTemplate: "https://t.example.org/{z}/{x}/{y}.png", attribution: " ") }
    }

    @Test func aRouteOnTilesFitsThePlotWithTheAttributionShown() throws {
        let tiles = try MapTiles(urlTemplate: "https://tile.example.org/{z}/{x}/{y}.png", attribution: "© OpenStreetMap contributors")
        // About 2 km east-west across Vienna's Ring.
        let points: [(latitude: Double, longitude: Double)] = (0...100).map { step in
            let index = Double(step)
            let latitude: Double = 48.2082 + 0.002 * sin(index / 16)
            let longitude: Double = 16.36 + 0.00027 * index
            return (latitude, longitude)
        }
        var svg = SVGDocument(width: 640, height: 420, title: "Route", id: "route")
        RouteChart(title: "Route", points: points, tiles: tiles).draw(in: Frame(x: 0, y: 0, width: 640, height: 420), on: &svg)
        let text = svg.rendered
        // 2 km at zoom 15 (≈3.2 m/px at 48°) is ≈620 px: too wide for 86 % of 616; zoom 14 fits.
        #expect(text.contains("href=\"https://tile.example.org/14/"))
        #expect(!text.contains("href=\"https://tile.example.org/15/"))
        let images = text.components(separatedBy: "<image ").count - 1
        #expect((4...12).contains(images), "\(images) tiles cover a 616×378 plot")
        #expect(text.contains("© OpenStreetMap contributors"))
        #expect(text.contains("Start") && text.contains("Finish"))
        // Without tiles nothing external is referenced.
        var plain = SVGDocument(width: 640, height: 420, title: "Route", id: "route")
        RouteChart(title: "Route", points: points).draw(in: Frame(x: 0, y: 0, width: 640, height: 420), on: &plain)
        #expect(!plain.rendered.contains("<image"))
    }
}
