import Foundation
import HeartworkCharts
import HeartworkCore

extension HealthCharts {
    /// One value a day as a line (seed 004 F5: "Workout Intensity: line chart"), each value a dot
    /// with its number above it; the line is solid between consecutive days and dashed across
    /// days without a value (which show a dash on the axis). No weekly average: the seed shows
    /// those for recovery and strain only.
    static func dayLine(title: String, id: String, labels: [String], values: [Double?], maximum requested: Double, color: String) -> String {
        WorkoutCharts.Chart { width in
            WorkoutCharts.Drawing(
                svg: dayLine(width: width, title: title, id: "\(id)-\(Int(width))", labels: labels, values: values, maximum: requested, color: color))
        }.svg
    }

    static func dayLine(
        width: Double, title: String, id: String, labels: [String], values: [Double?], maximum requested: Double, color: String
    )
        -> String
    {
        let height = 220.0
        var svg = SVGDocument(width: width, height: height, title: title, id: id)
        let narrow = width < 500
        svg.text(title, x: 8, y: 18, size: narrow ? 13 : 14, weight: "600")
        let maximum = niceCeiling(max(requested, values.compactMap { $0 }.filter(\.isFinite).max() ?? 0))
        let left = 48.0
        let right = 12.0
        let top = 44.0
        let bottom = 30.0
        let plotHeight = height - top - bottom
        let scale = { (value: Double) in top + plotHeight * (1 - min(1, max(0, value / max(maximum, 1e-9)))) }
        for tick in [0.0, 0.5, 1.0] {
            let y = scale(tick * maximum)
            svg.line(x1: left, y1: y, x2: width - right, y2: y, stroke: Palette.grid)
            svg.text(Formatting.number(tick * maximum), x: left - 6, y: y + 4, size: 11, anchor: "end", fill: Palette.mutedText)
        }
        let slot = (width - left - right) / Double(max(1, values.count))
        let labelEvery = max(1, Int((36 / slot).rounded(.up)))
        let x = { (index: Int) in left + (Double(index) + 0.5) * slot }
        // The line through the days with a value: solid from one day to the next, dashed across
        // days without one (it shows where the line goes on without claiming a value there).
        let present = values.enumerated().compactMap { index, value in value.flatMap { $0.isFinite ? (index, $0) : nil } }
        var run = [(x: Double, y: Double)]()
        for (position, (index, value)) in present.enumerated() {
            if position > 0, present[position - 1].0 != index - 1 {
                if run.count > 1 { svg.polyline(run, stroke: color, width: 2) }
                let (before, previous) = present[position - 1]
                svg.line(x1: x(before), y1: scale(previous), x2: x(index), y2: scale(value), stroke: color, width: 1.5, dash: "4 4")
                run = []
            }
            run.append((x(index), scale(value)))
        }
        if run.count > 1 { svg.polyline(run, stroke: color, width: 2) }
        for (index, value) in values.enumerated() {
            if let value, value.isFinite {
                let y = scale(value)
                svg.circle(cx: x(index), cy: y, r: 4, fill: color, stroke: "#ffffff")
                if slot >= 28 {
                    svg.text(Formatting.number(value, decimals: 1), x: x(index), y: y - 8, size: 11, anchor: "middle", fill: Palette.text, halo: true)
                }
            } else {
                svg.text("–", x: x(index), y: top + plotHeight - 5, size: 11, anchor: "middle", fill: Palette.mutedText)
            }
            if (values.count - 1 - index) % labelEvery == 0 {
                svg.text(labels[index], x: x(index), y: height - 10, size: 11, anchor: "middle", fill: Palette.mutedText)
            }
        }
        return svg.rendered
    }
}
