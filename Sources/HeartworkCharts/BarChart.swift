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
    /// Whether the title is drawn inside the chart (off when the page's heading says it).
    public var drawsTitle = true

    public init(title: String, bars: [Bar]) {
        self.title = title
        self.bars = bars
    }

    public func draw(in frame: Frame, on svg: inout SVGDocument) {
        if drawsTitle { svg.text(title, x: frame.x + 8, y: frame.y + 18, size: 14, weight: "600") }
        let labelWidth = 112.0
        let valueWidth = 110.0
        let top = frame.y + (drawsTitle ? 32 : 8)
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
