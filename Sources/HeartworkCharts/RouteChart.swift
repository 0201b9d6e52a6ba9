import Foundation

/// A GPS route drawn to scale, with start and finish marked and a scale bar: on map tiles
/// (Web Mercator, the largest zoom at which the route fits) when a tile server is configured,
/// else on a plain ground (equirectangular, longitudes shrunk by cos latitude).
public struct RouteChart: Sendable {
    public var title: String
    /// Whether the title is drawn inside the chart (off when the page's heading says it).
    public var drawsTitle = true
    /// (latitude, longitude) in degrees, in order.
    public var points: [(latitude: Double, longitude: Double)]
    /// Miles instead of kilometres on the scale bar.
    public var imperial = false
    /// Draw on these map tiles (nil: no map, nothing is fetched from anywhere).
    public var tiles: MapTiles?

    public init(title: String, points: [(latitude: Double, longitude: Double)], imperial: Bool = false, tiles: MapTiles? = nil) {
        self.title = title
        self.points = points
        self.imperial = imperial
        self.tiles = tiles
    }

    public func draw(in frame: Frame, on svg: inout SVGDocument) {
        if drawsTitle { svg.text(title, x: frame.x + 8, y: frame.y + 18, size: 14, weight: "600") }
        let plot = Frame(x: frame.x + 12, y: frame.y + (drawsTitle ? 30 : 8), width: frame.width - 24, height: frame.height - (drawsTitle ? 42 : 20))
        svg.rect(x: plot.x, y: plot.y, width: plot.width, height: plot.height, fill: "#eef2f6", radius: 8)
        guard points.count >= 2 else {
            svg.text("No GPS track", x: plot.x + plot.width / 2, y: plot.y + plot.height / 2, size: 13, anchor: "middle", fill: Palette.mutedText)
            return
        }
        if let tiles {
            drawOnTiles(tiles, plot: plot, on: &svg)
            return
        }
        let meanLatitude = points.map(\.latitude).reduce(0, +) / Double(points.count)
        let shrink = cos(meanLatitude * Double.pi / 180)
        let xs = points.map { $0.longitude * shrink }
        let ys = points.map(\.latitude)
        let (minX, maxX) = (xs.min() ?? 0, xs.max() ?? 0)
        let (minY, maxY) = (ys.min() ?? 0, ys.max() ?? 0)
        let span = max(maxX - minX, maxY - minY, 1e-6)
        let scale = min(plot.width, plot.height) * 0.86 / span
        let offsetX = plot.x + (plot.width - (maxX - minX) * scale) / 2
        let offsetY = plot.y + (plot.height - (maxY - minY) * scale) / 2
        let projected = zip(xs, ys).map { (x: offsetX + ($0 - minX) * scale, y: offsetY + (maxY - $1) * scale) }
        drawRoute(projected, right: plot.x + plot.width, on: &svg)
        drawScaleBar(metersPerPixel: 111_195 / scale, plot: plot, on: &svg)
    }

    private func drawOnTiles(_ tiles: MapTiles, plot: Frame, on svg: inout SVGDocument) {
        let meanLatitude = points.map(\.latitude).reduce(0, +) / Double(points.count)
        // The largest zoom at which the route fills at most 86 % of the plot (world pixels
        // double with each zoom level).
        let base = points.map { MapTiles.worldPixel(latitude: $0.latitude, longitude: $0.longitude, zoom: 0) }
        let baseWidth = (base.map(\.x).max() ?? 0) - (base.map(\.x).min() ?? 0)
        let baseHeight = (base.map(\.y).max() ?? 0) - (base.map(\.y).min() ?? 0)
        let zoom =
            (0...MapTiles.maximumZoom).last { level in
                let factor = pow(2, Double(level))
                return baseWidth * factor <= plot.width * 0.86 && baseHeight * factor <= plot.height * 0.86
            } ?? 0
        let factor = pow(2, Double(zoom))
        let world = base.map { (x: $0.x * factor, y: $0.y * factor) }
        let (minX, maxX) = (world.map(\.x).min() ?? 0, world.map(\.x).max() ?? 0)
        let (minY, maxY) = (world.map(\.y).min() ?? 0, world.map(\.y).max() ?? 0)
        // World pixel (wx, wy) is drawn at (wx + shiftX, wy + shiftY).
        let shiftX = plot.x + plot.width / 2 - (minX + maxX) / 2
        let shiftY = plot.y + plot.height / 2 - (minY + maxY) / 2
        let size = MapTiles.tileSize
        let count = 1 << zoom
        let firstColumn = Int(floor((plot.x - shiftX) / size))
        let lastColumn = Int(floor((plot.x + plot.width - shiftX) / size))
        let firstRow = max(0, Int(floor((plot.y - shiftY) / size)))
        let lastRow = min(count - 1, Int(floor((plot.y + plot.height - shiftY) / size)))
        svg.beginClippedGroup(plot.x, plot.y, plot.width, plot.height)
        if firstRow <= lastRow {
            for row in firstRow...lastRow {
                for column in firstColumn...lastColumn {
                    let wrapped = ((column % count) + count) % count
                    svg.image(
                        href: tiles.url(zoom: zoom, x: wrapped, y: row),
                        x: Double(column) * size + shiftX, y: Double(row) * size + shiftY, width: size, height: size)
                }
            }
        }
        svg.endGroup()
        drawRoute(world.map { (x: $0.x + shiftX, y: $0.y + shiftY) }, right: plot.x + plot.width, on: &svg)
        drawScaleBar(metersPerPixel: MapTiles.metersPerPixel(latitude: meanLatitude, zoom: zoom), plot: plot, on: &svg)
        // The attribution the tile licence asks for, bottom right, on a light backing.
        let width = Double(tiles.attribution.count) * 6.2 + 12
        svg.rect(x: plot.x + plot.width - width, y: plot.y + plot.height - 20, width: width, height: 20, fill: "#ffffff", opacity: 0.9)
        svg.text(tiles.attribution, x: plot.x + plot.width - 6, y: plot.y + plot.height - 6, size: 11, anchor: "end", fill: Palette.text)
    }

    private func drawRoute(_ projected: [(x: Double, y: Double)], right: Double, on svg: inout SVGDocument) {
        // A label goes on the point's left when its right would leave the drawing.
        func label(_ text: String, at point: (x: Double, y: Double), dy: Double, fill: String) {
            let leftwards = point.x + 10 + Double(text.count) * 7.5 > right
            svg.text(text, x: leftwards ? point.x - 10 : point.x + 10, y: point.y + dy, size: 12, weight: "600", anchor: leftwards ? "end" : "start", fill: fill)
        }
        svg.polyline(projected, stroke: "#ffffff", width: 6)
        svg.polyline(projected, stroke: Palette.accent, width: 3)
        let start = projected[0]
        let finish = projected[projected.count - 1]
        svg.circle(cx: finish.x, cy: finish.y, r: 7, fill: Palette.text, stroke: "#ffffff")
        svg.circle(cx: start.x, cy: start.y, r: 7, fill: "#007a5a", stroke: "#ffffff")
        label("Start", at: start, dy: -9, fill: "#005c44")
        label("Finish", at: hypot(finish.x - start.x, finish.y - start.y) > 24 ? finish : start, dy: 16, fill: Palette.text)
    }

    /// A bar of a round length (1, 2 or 5 × 10ⁿ m or mi) about a fifth of the plot wide.
    private func drawScaleBar(metersPerPixel: Double, plot: Frame, on svg: inout SVGDocument) {
        let unit = imperial ? 1609.344 : 1000.0
        let target = metersPerPixel * plot.width / 5 / unit
        let magnitude = pow(10, floor(log10(max(target, 1e-9))))
        let step = [1.0, 2.0, 5.0].map { $0 * magnitude }.last { $0 <= target } ?? magnitude
        let pixels = step * unit / metersPerPixel
        let x = plot.x + 14
        let y = plot.y + plot.height - 16
        svg.rect(x: x - 6, y: y - 20, width: pixels + 12, height: 30, fill: "#ffffff", opacity: 0.85, radius: 4)
        svg.line(x1: x, y1: y, x2: x + pixels, y2: y, stroke: Palette.text, width: 2)
        svg.line(x1: x, y1: y - 5, x2: x, y2: y + 3, stroke: Palette.text, width: 2)
        svg.line(x1: x + pixels, y1: y - 5, x2: x + pixels, y2: y + 3, stroke: Palette.text, width: 2)
        let label =
            step >= 1
            ? "\(step.formatted(.number.precision(.fractionLength(0)))) \(imperial ? "mi" : "km")"
            : "\((step * (imperial ? 5280 : 1000)).formatted(.number.precision(.fractionLength(0)))) \(imperial ? "ft" : "m")"
        svg.text(label, x: x + pixels / 2, y: y - 7, size: 11, anchor: "middle", fill: Palette.text)
    }
}
