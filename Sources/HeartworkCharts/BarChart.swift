import Foundation

/// Horizontal bars with a label and a value text each, such as time in zones.
public struct BarChart: Sendable {
    public struct Bar: Sendable {
        public var label: String
        public var value: Double
        public var valueText: String
        public var color: String

        public init(label: String, value: Double, valueText: String, color: String) {
            self.label = label
            self.value = value
            self.valueText = valueText
            self.color = color
        }
    }

    public var title: String
    public var bars: [Bar]

    public init(title: String, bars: [Bar]) {
        self.title = title
        self.bars = bars
    }

    public func draw(in frame: Frame, on svg: inout SVGDocument) {
        svg.text(title, x: frame.x + 8, y: frame.y + 18, size: 14, weight: "600")
        let labelWidth = 96.0, valueWidth = 110.0
        let top = frame.y + 32
        let rowHeight = min(34, (frame.height - 40) / Double(max(1, bars.count)))
        let trackWidth = max(10, frame.width - labelWidth - valueWidth - 24)
        let maximum = max(bars.map(\.value).max() ?? 0, 1e-9)
        for (index, bar) in bars.enumerated() {
            let y = top + Double(index) * rowHeight
            svg.text(bar.label, x: frame.x + 8, y: y + rowHeight * 0.62, size: 12, fill: Palette.text)
            svg.rect(x: frame.x + labelWidth, y: y + rowHeight * 0.2, width: trackWidth, height: rowHeight * 0.6, fill: Palette.grid, radius: 3)
            svg.rect(x: frame.x + labelWidth, y: y + rowHeight * 0.2, width: trackWidth * bar.value / maximum, height: rowHeight * 0.6, fill: bar.color, radius: 3)
            svg.text(bar.valueText, x: frame.x + labelWidth + trackWidth + 10, y: y + rowHeight * 0.62, size: 12, fill: Palette.mutedText)
        }
    }
}

/// A GPS route drawn to scale (equirectangular, longitudes shrunk by cos latitude), with
/// start and finish marked.
public struct RouteChart: Sendable {
    public var title: String
    /// (latitude, longitude) in degrees, in order.
    public var points: [(latitude: Double, longitude: Double)]

    public init(title: String, points: [(latitude: Double, longitude: Double)]) {
        self.title = title
        self.points = points
    }

    public func draw(in frame: Frame, on svg: inout SVGDocument) {
        svg.text(title, x: frame.x + 8, y: frame.y + 18, size: 14, weight: "600")
        let plot = Frame(x: frame.x + 12, y: frame.y + 30, width: frame.width - 24, height: frame.height - 42)
        svg.rect(x: plot.x, y: plot.y, width: plot.width, height: plot.height, fill: "#eef2f6", radius: 8)
        guard points.count >= 2 else {
            svg.text("No GPS track", x: plot.x + plot.width / 2, y: plot.y + plot.height / 2, size: 13, anchor: "middle", fill: Palette.mutedText)
            return
        }
        let meanLatitude = points.map(\.latitude).reduce(0, +) / Double(points.count)
        let shrink = cos(meanLatitude * Double.pi / 180)
        let xs = points.map { $0.longitude * shrink }, ys = points.map(\.latitude)
        let (minX, maxX, minY, maxY) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
        let span = max(maxX - minX, maxY - minY, 1e-6)
        let scale = min(plot.width, plot.height) * 0.88 / span
        let offsetX = plot.x + (plot.width - (maxX - minX) * scale) / 2
        let offsetY = plot.y + (plot.height - (maxY - minY) * scale) / 2
        let projected = zip(xs, ys).map { (x: offsetX + ($0 - minX) * scale, y: offsetY + (maxY - $1) * scale) }
        svg.polyline(projected, stroke: "#ffffff", width: 6)
        svg.polyline(projected, stroke: Palette.accent, width: 3)
        svg.circle(cx: projected[0].x, cy: projected[0].y, r: 6, fill: "#009e73", stroke: "#ffffff")
        svg.circle(cx: projected[projected.count - 1].x, cy: projected[projected.count - 1].y, r: 6, fill: Palette.text, stroke: "#ffffff")
        svg.text("start", x: projected[0].x + 9, y: projected[0].y - 8, size: 11, fill: Palette.mutedText)
    }
}
