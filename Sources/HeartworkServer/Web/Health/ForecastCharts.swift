import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore

/// The history page's forecast chart (issue 25): the last 24 hours' heart rate against the
/// anomaly detector's expected range, flagged stretches shaded (`ForecastChart`), hours along
/// x in the user's clock, at both widths, with a pointer readout per slot.
enum ForecastCharts {
    /// `ForecastChart`'s data for a forecast: x in hours from its start.
    static func chart(_ forecast: DailyHealthService.HeartRateForecast, title: String) -> ForecastChart {
        let hours = { (date: Date) in date.timeIntervalSince(forecast.from) / 3600 }
        return ForecastChart(
            title: title,
            slots: forecast.slots.map { ForecastChart.Slot(x: hours($0.start), observed: $0.observed, low: $0.low, high: $0.high, outside: $0.outside) },
            slotWidth: forecast.intervalSeconds / 3600,
            flagged: forecast.stretches.map { hours($0.start)...hours($0.end) },
            xDomain: 0...max(hours(forecast.to), 1))
    }

    static func svg(_ forecast: DailyHealthService.HeartRateForecast, title: String, id: String, zone: TimeZone) -> WorkoutCharts.Chart {
        let data = chart(forecast, title: title)
        let height = 300.0
        return WorkoutCharts.Chart { width in
            var svg = SVGDocument(width: width, height: height, title: title, id: "\(id)-\(Int(width))")
            var chart = data.chart
            chart.drawsTitle = false
            chart.xTickCount = WorkoutCharts.xTicks(width)
            chart.xTickText = { hours in HealthCharts.clock(forecast.from.addingTimeInterval(hours * 3600), zone: zone) }
            let frame = Frame(x: 0, y: 0, width: width, height: height)
            chart.draw(in: frame, on: &svg)
            let layout = chart.layout(in: frame)
            let readout = data.slots.compactMap { slot -> (x: Double, y: Double, text: String)? in
                guard let observed = slot.observed else { return nil }
                let time = HealthCharts.clock(forecast.from.addingTimeInterval(slot.x * 3600), zone: zone)
                var text = "\(time) · \(Formatting.number(observed)) bpm"
                if let low = slot.low, let high = slot.high {
                    text += ", expected \(Formatting.number(low))–\(Formatting.number(high))"
                    if slot.outside { text += " (outside)" }
                }
                return (layout.x(slot.x + data.slotWidth / 2), layout.y(observed), text)
            }
            return WorkoutCharts.Drawing(svg: svg.rendered, readout: readout)
        }
    }
}
