import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore

/// The daily-health pages' charts: a week's bars (recovery, strain) with the weekly average,
/// and heart rate over a day, a week or a month (minimum–maximum band and average).
enum HealthCharts {
    static let width = WorkoutCharts.width

    /// One bar a day (nil: no value, drawn as an empty slot), a dashed weekly average under
    /// the bars, values above the bars (with a white halo), day labels under them; at both
    /// widths, a phone's labelling every other day when a week of labels would not fit.
    /// `reference`: a value the bars may pass (recovery's 100 %), marked by a solid line when some bar does.
    static func dayBars(
        title: String, id: String, labels: [String], values: [Double?], maximum requested: Double, unit: String, color: String,
        average: Double?, averageLabel: String = "weekly average", reference: Double? = nil
    ) -> String {
        WorkoutCharts.Chart { width in
            WorkoutCharts.Drawing(
                svg: dayBars(
                    width: width, title: title, id: "\(id)-\(Int(width))", labels: labels, values: values, maximum: requested,
                    unit: unit, color: color, average: average, averageLabel: averageLabel, reference: reference))
        }.svg
    }

    static func dayBars(
        width: Double, title: String, id: String, labels: [String], values: [Double?], maximum requested: Double, unit: String,
        color: String, average: Double?, averageLabel: String, reference: Double? = nil
    ) -> String {
        let height = 220.0
        var svg = SVGDocument(width: width, height: height, title: title, id: id)
        let narrow = width < 500
        svg.text(title, x: 8, y: 18, size: 14, weight: "600")
        if let average {
            let text = "\(averageLabel) \(Formatting.number(average, decimals: average < 10 ? 1 : 0))\(unit)"
            // Beside the title on a desktop, under it on a phone.
            if narrow {
                svg.text(text, x: 8, y: 34, size: 12, fill: Palette.warningText)
            } else {
                svg.text(text, x: width - 12, y: 18, size: 12, anchor: "end", fill: Palette.warningText)
            }
        }
        let maximum = niceCeiling(max(requested, values.compactMap { $0 }.max() ?? 0))
        let left = 48.0
        let right = 12.0
        let top = narrow ? 52.0 : 40.0
        let bottom = 30.0
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let scale = { (value: Double) in top + plotHeight * (1 - min(1, max(0, value / max(maximum, 1e-9)))) }
        for tick in [0.0, 0.5, 1.0] {
            let y = scale(tick * maximum)
            svg.line(x1: left, y1: y, x2: width - right, y2: y, stroke: Palette.grid)
            svg.text(Formatting.number(tick * maximum), x: left - 6, y: y + 4, size: 11, anchor: "end", fill: Palette.mutedText)
        }
        if let average {
            let y = scale(average)
            svg.line(x1: left, y1: y, x2: width - right, y2: y, stroke: Palette.accent, width: 1.5, dash: "5 4")
        }
        if let reference, maximum > reference {
            let y = scale(reference)
            svg.line(x1: left, y1: y, x2: width - right, y2: y, stroke: Palette.text, width: 1)
            svg.text(Formatting.number(reference), x: left - 6, y: y + 4, size: 11, anchor: "end", fill: Palette.text)
        }
        let slot = plotWidth / Double(max(1, values.count))
        // A label needs about 36 units; a value about 28.
        let labelEvery = max(1, Int((36 / slot).rounded(.up)))
        let valuesFit = slot >= 28
        for (index, value) in values.enumerated() {
            let x = left + Double(index) * slot + slot * 0.18
            if let value, value.isFinite {
                let y = scale(value)
                svg.rect(x: x, y: y, width: slot * 0.64, height: top + plotHeight - y, fill: color, radius: min(3, slot * 0.2))
                if valuesFit {
                    svg.text(
                        Formatting.number(value, decimals: value < 10 && value.rounded() != value ? 1 : 0) + unit, x: x + slot * 0.32, y: y - 5, size: 11,
                        anchor: "middle", fill: Palette.text, halo: true)
                }
            } else {
                svg.text("–", x: x + slot * 0.32, y: top + plotHeight - 5, size: 11, anchor: "middle", fill: Palette.mutedText)
            }
            if (values.count - 1 - index) % labelEvery == 0 {
                svg.text(labels[index], x: x + slot * 0.32, y: height - 10, size: 11, anchor: "middle", fill: Palette.mutedText)
            }
        }
        return svg.rendered
    }

    /// 1, 1.5, 2 or 5 times a power of ten, at or above `value` (1.5: recovery a little above 100 % keeps its bars tall).
    static func niceCeiling(_ value: Double) -> Double {
        guard value.isFinite, value > 0 else { return 1 }
        let power = pow(10, floor(log10(value)))
        for step in [1.0, 1.5, 2.0, 5.0, 10.0] where step * power >= value { return step * power }
        return 10 * power
    }

    /// Heart rate in bins: the minimum–maximum band and the average line; the x axis in
    /// clock times over the last 24 hours, or in dates over a week or a month (the window
    /// ends now, so it starts at any time of day; a bin begun before it is drawn from its start).
    static func heartRate(_ history: DailyHealthService.HeartRateHistory, title: String, id: String, zone: TimeZone) -> WorkoutCharts.Chart {
        let height = 280.0
        let hours = { (date: Date) in max(0, date.timeIntervalSince(history.from) / 3600) }
        let span = history.to.timeIntervalSince(history.from) / 3600
        let inDays = span > 48
        var layers = [ChartLayer]()
        for bin in history.bins where bin.maximum > bin.minimum {
            let x = hours(bin.start)
            let w = Double(history.binSeconds) / 3600
            layers.append(.segment(from: ChartPoint(x: x + w / 2, y: bin.minimum), to: ChartPoint(x: x + w / 2, y: bin.maximum), stroke: "#b3d4f5", dash: nil))
        }
        let average = history.bins.map { ChartPoint(x: hours($0.start) + Double(history.binSeconds) / 7200, y: $0.average) }
        layers.append(.line(average, stroke: Palette.primary, width: 1.5))
        let low = (history.bins.map(\.minimum).min() ?? 40) - 5
        let high = (history.bins.map(\.maximum).max() ?? 180) + 5
        let from = history.from
        return WorkoutCharts.Chart { width in
            var svg = SVGDocument(width: width, height: height, title: title, id: "\(id)-\(Int(width))")
            var chart = XYChart(
                title: title, xLabel: inDays ? "Date" : "Hour", yLabel: "Heart rate (bpm)",
                xDomain: 0...(inDays ? span / 24 : span), yDomain: max(0, low)...high, layers: inDays ? layers.map { Self.scaled($0, by: 1.0 / 24) } : layers)
            chart.legend = [("average", Palette.primary), ("lowest–highest", "#b3d4f5")]
            chart.xTickCount = WorkoutCharts.xTicks(width)
            if inDays {
                chart.xTickText = { days in Formatting.shortDay(from.addingTimeInterval(days * 86_400), zone: zone) }
            } else {
                chart.xTickText = { hours in Self.clock(from.addingTimeInterval(hours * 3600), zone: zone) }
            }
            let frame = Frame(x: 0, y: 0, width: width, height: height)
            chart.draw(in: frame, on: &svg)
            let layout = chart.layout(in: frame)
            let readout = history.bins.map { bin -> (x: Double, y: Double, text: String) in
                let x = hours(bin.start) + Double(history.binSeconds) / 7200
                return (
                    layout.x(inDays ? x / 24 : x), layout.y(bin.average),
                    "\(Formatting.dateTime(bin.start, zone: zone)) · \(Int(bin.minimum))–\(Int(bin.maximum)) bpm, average \(Formatting.number(bin.average))"
                )
            }
            return WorkoutCharts.Drawing(svg: svg.rendered, readout: readout)
        }
    }

    /// "07:30" in the zone.
    static func clock(_ date: Date, zone: TimeZone) -> String {
        let seconds = Int((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
        let minutes = ((seconds % 86_400) + 86_400) % 86_400 / 60
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    static func scaled(_ layer: ChartLayer, by factor: Double) -> ChartLayer {
        switch layer {
        case .segment(let from, let to, let stroke, let dash):
            return .segment(from: ChartPoint(x: from.x * factor, y: from.y), to: ChartPoint(x: to.x * factor, y: to.y), stroke: stroke, dash: dash)
        case .line(let points, let stroke, let width):
            return .line(points.map { ChartPoint(x: $0.x * factor, y: $0.y) }, stroke: stroke, width: width)
        default:
            return layer
        }
    }
}
