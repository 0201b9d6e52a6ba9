import Foundation

/// A rectangle on the page, in pixels.
public struct Frame: Sendable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

public struct ChartPoint: Sendable, Hashable {
    public var x: Double, y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// What an `XYChart` draws, back to front in the order given.
public enum ChartLayer: Sendable {
    /// A shaded vertical band, such as a frequency band or a time range.
    case band(ClosedRange<Double>, fill: String, opacity: Double, label: String?)
    /// A horizontal reference line, such as a zone threshold.
    case threshold(y: Double, stroke: String, label: String?)
    /// The area between a line and zero.
    case area([ChartPoint], fill: String, opacity: Double)
    case line([ChartPoint], stroke: String, width: Double)
    /// A line whose segments take the colour of their starting point's category.
    case coloredLine([ChartPoint], colors: [String], width: Double)
    case points([ChartPoint], fill: String, radius: Double, opacity: Double)
    /// Ringed markers that call out particular points, such as corrected beats.
    case markers([ChartPoint], stroke: String, radius: Double)
    /// An ellipse in data units, rotated by `degrees` counter-clockwise.
    case ellipse(center: ChartPoint, semiMajor: Double, semiMinor: Double, degrees: Double, stroke: String)
    case segment(from: ChartPoint, to: ChartPoint, stroke: String, dash: String?)
    /// The area between two lines over the same x values, such as a forecast's band.
    case ribbon(lower: [ChartPoint], upper: [ChartPoint], fill: String, opacity: Double)
}

/// A chart with two linear axes, grid lines, axis labels and layers.
public struct XYChart: Sendable {
    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var xDomain: ClosedRange<Double>?
    public var yDomain: ClosedRange<Double>?
    public var layers: [ChartLayer]
    /// Same pixels per unit on both axes (a Poincaré plot is square in data units).
    public var equalAspect = false
    /// Optional lines of legend text under the title, each with its swatch colour.
    public var legend: [(label: String, color: String)] = []
    /// About how many ticks each axis gets (fewer on a narrow chart, so labels never meet).
    public var xTickCount = 6
    public var yTickCount = 5
    /// How an x tick reads (a date, a clock time); the number itself when nil.
    public var xTickText: (@Sendable (Double) -> String)?
    /// Whether the title is drawn inside the chart (off when the page's heading says it).
    public var drawsTitle = true

    public init(title: String, xLabel: String, yLabel: String, xDomain: ClosedRange<Double>? = nil, yDomain: ClosedRange<Double>? = nil, layers: [ChartLayer]) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.xDomain = xDomain
        self.yDomain = yDomain
        self.layers = layers
    }

    /// Where the chart puts its plot in `frame`, and its scales: what `draw` uses, for
    /// callers that map data to the drawing (a pointer readout, say).
    public struct Layout: Sendable {
        public let plot: Frame
        public let x: LinearScale
        public let y: LinearScale
    }

    public func layout(in frame: Frame) -> Layout {
        let rows = Double(legendRows(width: frame.width))
        let top: Double = (drawsTitle ? 30 : 12) + (rows > 0 ? 4 + 14 * rows : 0)
        // Room for half a date label past the last tick.
        let margin = (left: 64.0, right: xTickText == nil ? 16.0 : 30.0, top: top, bottom: 44.0)
        var plot = Frame(
            x: frame.x + margin.left, y: frame.y + margin.top,
            width: frame.width - margin.left - margin.right, height: frame.height - margin.top - margin.bottom)
        var xDomain = self.xDomain ?? LinearScale.niceDomain(allValues(\.x))
        var yDomain = self.yDomain ?? LinearScale.niceDomain(allValues(\.y), padding: 0.05)
        if equalAspect {
            let low = min(xDomain.lowerBound, yDomain.lowerBound)
            let high = max(xDomain.upperBound, yDomain.upperBound)
            xDomain = low...high
            yDomain = low...high
            let side = min(plot.width, plot.height)
            plot.x += (plot.width - side) / 2
            plot.width = side
            plot.height = side
        }
        return Layout(
            plot: plot, x: LinearScale(domain: xDomain, range: (plot.x, plot.x + plot.width)),
            y: LinearScale(domain: yDomain, range: (plot.y + plot.height, plot.y)))
    }

    /// How many rows the legend takes at `width` (it wraps).
    func legendRows(width: Double) -> Int {
        guard !legend.isEmpty else { return 0 }
        var rows = 1
        var x = 8.0
        for entry in legend {
            let entryWidth = 22 + Double(entry.label.count) * 6.2
            if x > 8, x + entryWidth > width {
                rows += 1
                x = 8
            }
            x += entryWidth
        }
        return rows
    }

    public func draw(in frame: Frame, on svg: inout SVGDocument) {
        let layout = layout(in: frame)
        let (plot, x, y) = (layout.plot, layout.x, layout.y)
        if drawsTitle { svg.text(title, x: frame.x + 8, y: frame.y + 18, size: 14, weight: "600") }
        // The legend wraps onto a second row when it does not fit the width.
        var legendX = frame.x + 8
        var legendY = frame.y + (drawsTitle ? 28 : 4)
        for entry in legend {
            let entryWidth = 22 + Double(entry.label.count) * 6.2
            if legendX > frame.x + 8, legendX + entryWidth > frame.x + frame.width {
                legendX = frame.x + 8
                legendY += 14
            }
            svg.rect(x: legendX, y: legendY, width: 10, height: 10, fill: entry.color, radius: 2)
            svg.text(entry.label, x: legendX + 14, y: legendY + 9, size: 11, fill: Palette.mutedText)
            legendX += entryWidth
        }
        drawGrid(x: x, y: y, plot: plot, on: &svg)
        svg.beginClippedGroup(plot.x, plot.y, plot.width, plot.height)
        for layer in layers { draw(layer, x: x, y: y, plot: plot, on: &svg) }
        svg.endGroup()
        svg.rect(x: plot.x, y: plot.y, width: plot.width, height: plot.height, fill: "none", stroke: Palette.axis)
        svg.text(xLabel, x: plot.x + plot.width / 2, y: plot.y + plot.height + 36, size: 12, anchor: "middle", fill: Palette.mutedText)
        svg.text(yLabel, x: frame.x + 14, y: plot.y + plot.height / 2, size: 12, anchor: "middle", fill: Palette.mutedText, rotate: -90)
    }

    private func allValues(_ coordinate: KeyPath<ChartPoint, Double>) -> [Double] {
        layers.flatMap { layer -> [Double] in
            switch layer {
            case .line(let points, _, _), .coloredLine(let points, _, _), .points(let points, _, _, _),
                .markers(let points, _, _), .area(let points, _, _):
                return points.map { $0[keyPath: coordinate] }
            case .ellipse(let center, let major, _, _, _):
                return [center[keyPath: coordinate] - major, center[keyPath: coordinate] + major]
            case .segment(let from, let to, _, _):
                return [from[keyPath: coordinate], to[keyPath: coordinate]]
            case .ribbon(let lower, let upper, _, _):
                return (lower + upper).map { $0[keyPath: coordinate] }
            case .band(let range, _, _, _):
                return coordinate == \ChartPoint.x ? [range.lowerBound, range.upperBound] : []
            case .threshold(let value, _, _):
                return coordinate == \ChartPoint.y ? [value] : []
            }
        }
    }

    private func drawGrid(x: LinearScale, y: LinearScale, plot: Frame, on svg: inout SVGDocument) {
        let xStep = LinearScale.niceStep(span: x.domain.upperBound - x.domain.lowerBound, count: xTickCount)
        for tick in x.ticks(count: xTickCount) {
            let px = x(tick)
            svg.line(x1: px, y1: plot.y, x2: px, y2: plot.y + plot.height, stroke: Palette.grid)
            svg.text(xTickText?(tick) ?? tickLabel(tick, step: xStep), x: px, y: plot.y + plot.height + 16, size: 11, anchor: "middle", fill: Palette.mutedText)
        }
        let yStep = LinearScale.niceStep(span: y.domain.upperBound - y.domain.lowerBound, count: yTickCount)
        for tick in y.ticks(count: yTickCount) {
            let py = y(tick)
            svg.line(x1: plot.x, y1: py, x2: plot.x + plot.width, y2: py, stroke: Palette.grid)
            svg.text(tickLabel(tick, step: yStep), x: plot.x - 6, y: py + 4, size: 11, anchor: "end", fill: Palette.mutedText)
        }
    }

    private func draw(_ layer: ChartLayer, x: LinearScale, y: LinearScale, plot: Frame, on svg: inout SVGDocument) {
        func clampX(_ value: Double) -> Double { min(max(value, plot.x), plot.x + plot.width) }
        func clampY(_ value: Double) -> Double { min(max(value, plot.y), plot.y + plot.height) }
        switch layer {
        case .band(let range, let fill, let opacity, let label):
            let left = clampX(x(range.lowerBound))
            let right = clampX(x(range.upperBound))
            svg.rect(x: left, y: plot.y, width: right - left, height: plot.height, fill: fill, opacity: opacity)
            if let label, right - left > 18 {
                svg.text(label, x: (left + right) / 2, y: plot.y + 14, size: 11, weight: "600", anchor: "middle", fill: Palette.mutedText)
            }
        case .threshold(let value, let stroke, let label):
            let py = y(value)
            guard py >= plot.y, py <= plot.y + plot.height else { return }
            svg.line(x1: plot.x, y1: py, x2: plot.x + plot.width, y2: py, stroke: stroke, dash: "4 3")
            // The label in dark text (zone colours on white are too light to read at 4.5:1).
            if let label { svg.text(label, x: plot.x + plot.width - 4, y: py - 3, size: 11, anchor: "end", fill: Palette.mutedText) }
        case .area(let points, let fill, let opacity):
            guard let first = points.first, let last = points.last else { return }
            let baseline = clampY(y(max(y.domain.lowerBound, 0)))
            let outline = [(x: x(first.x), y: baseline)] + points.map { (x: x($0.x), y: clampY(y($0.y))) } + [(x: x(last.x), y: baseline)]
            svg.polygon(outline, fill: fill, opacity: opacity)
        case .line(let points, let stroke, let width):
            svg.polyline(decimated(points).map { (x: x($0.x), y: clampY(y($0.y))) }, stroke: stroke, width: width)
        case .coloredLine(let points, let colors, let width):
            var start = 0
            while start < points.count - 1 {
                var end = start + 1
                while end < points.count - 1 && colors[end] == colors[start] { end += 1 }
                let run = points[start...end].map { (x: x($0.x), y: clampY(y($0.y))) }
                svg.polyline(run, stroke: colors[start], width: width)
                start = end
            }
        case .points(let points, let fill, let radius, let opacity):
            let coordinates = points.map { "M\(number(x($0.x))) \(number(y($0.y)))h0" }.joined()
            svg.add("<path d=\"\(coordinates)\" stroke=\"\(fill)\" stroke-opacity=\"\(number(opacity))\" stroke-width=\"\(number(radius * 2))\" stroke-linecap=\"round\"/>")
        case .markers(let points, let stroke, let radius):
            for point in points {
                svg.circle(cx: x(point.x), cy: clampY(y(point.y)), r: radius, fill: "none", stroke: stroke)
            }
        case .ellipse(let center, let major, let minor, let degrees, let stroke):
            let pixelsPerUnit = abs(x(1) - x(0))
            svg.ellipse(cx: x(center.x), cy: y(center.y), rx: major * pixelsPerUnit, ry: minor * pixelsPerUnit, rotation: -degrees, stroke: stroke)
        case .segment(let from, let to, let stroke, let dash):
            svg.line(x1: x(from.x), y1: y(from.y), x2: x(to.x), y2: y(to.y), stroke: stroke, width: 1.5, dash: dash)
        case .ribbon(let lower, let upper, let fill, let opacity):
            let outline = upper.map { (x: x($0.x), y: clampY(y($0.y))) } + lower.reversed().map { (x: x($0.x), y: clampY(y($0.y))) }
            svg.polygon(outline, fill: fill, opacity: opacity)
        }
    }

    /// Long lines keep at most about 4000 points: per pixel column the extremes survive.
    private func decimated(_ points: [ChartPoint]) -> [ChartPoint] {
        guard points.count > 4000 else { return points }
        let bucketSize = Int((Double(points.count) / 2000).rounded(.up))
        var result = [ChartPoint]()
        result.reserveCapacity(4002)
        var start = 0
        while start < points.count {
            let bucket = points[start..<min(points.count, start + bucketSize)]
            let low = bucket.min { $0.y < $1.y }!
            let high = bucket.max { $0.y < $1.y }!
            result += low.x <= high.x ? [low, high] : [high, low]
            start += bucketSize
        }
        return result
    }
}
