import Foundation
import HeartworkCharts
import HeartworkCore
import HeartworkStore

/// The SVG charts of the web pages, drawn with HeartworkCharts.
enum WorkoutCharts {
    /// Heart rate over time, each stretch coloured by its HeartMate zone, thresholds dashed.
    static func heartRate(_ workout: WorkoutRecord, streams: WorkoutStreams) -> String {
        var svg = SVGDocument(width: 880, height: 300, title: "Heart rate during the workout, coloured by zone")
        let profile = workout.profile.zoneProfile
        var points = [ChartPoint](), colors = [String]()
        for (second, bpm) in streams.heartRate.enumerated() {
            guard let bpm else { continue }
            points.append(ChartPoint(x: Double(second) / 60, y: Double(bpm)))
            let zone = profile?.reserveZone(beatsPerMinute: Double(bpm)) ?? .none
            colors.append(profile == nil ? Palette.primary : Palette.reserveZones[zone.rawValue])
        }
        var layers = [ChartLayer]()
        if let profile {
            for (index, threshold) in profile.reserveZoneThresholds.dropLast().enumerated() {
                layers.append(.threshold(y: threshold, stroke: Palette.reserveZones[index + 1], label: ReserveZone.allCases[index + 1].displayName))
            }
        }
        layers.append(.coloredLine(points, colors: colors, width: 2))
        var chart = XYChart(title: "Heart rate", xLabel: "Time (min)", yLabel: "Heart rate (bpm)", layers: layers)
        if profile != nil {
            chart.legend = ReserveZone.allCases.map { ($0.displayName, Palette.reserveZones[$0.rawValue]) }
        }
        chart.draw(in: Frame(x: 0, y: 0, width: 880, height: 300), on: &svg)
        return svg.rendered
    }

    static func timeInZones(_ seconds: [Int]) -> String {
        var svg = SVGDocument(width: 880, height: 220, title: "Time in each heart-rate zone")
        let total = max(1, seconds.reduce(0, +))
        let bars = ReserveZone.allCases.map { zone in
            let value = seconds[zone.rawValue]
            return BarChart.Bar(
                label: zone.displayName, value: Double(value),
                valueText: "\(Formatting.duration(value)) · \(Int((100 * Double(value) / Double(total)).rounded())) %",
                color: Palette.reserveZones[zone.rawValue])
        }
        BarChart(title: "Time in zones", bars: bars).draw(in: Frame(x: 0, y: 0, width: 880, height: 220), on: &svg)
        return svg.rendered
    }

    static func route(_ track: [GeoPoint]) -> String {
        var svg = SVGDocument(width: 880, height: 420, title: "Route of the workout")
        RouteChart(title: "Route", points: track.map { ($0.latitudeDegrees, $0.longitudeDegrees) })
            .draw(in: Frame(x: 0, y: 0, width: 880, height: 420), on: &svg)
        return svg.rendered
    }

    static func weights(_ entries: [MeasurementRecord], imperial: Bool) -> String {
        var svg = SVGDocument(width: 880, height: 260, title: "Weight history")
        guard let first = entries.first, let last = entries.last else { return "" }
        let unit = imperial ? "lb" : "kg"
        let points = entries.map { entry in
            ChartPoint(x: entry.measuredAt.timeIntervalSince(first.measuredAt) / 86_400,
                       y: imperial ? BodyMass.pounds(fromKilograms: entry.value) : entry.value)
        }
        var chart = XYChart(
            title: "Weight", xLabel: "Days since \(Formatting.day(first.measuredAt))", yLabel: "Weight (\(unit))",
            layers: [.line(points, stroke: Palette.primary, width: 2), .points(points, fill: Palette.primary, radius: 3.5, opacity: 1)])
        // At least a week wide, so a few entries on one day do not stretch into a zoom of seconds.
        let span = last.measuredAt.timeIntervalSince(first.measuredAt) / 86_400
        if span < 7 { chart.xDomain = 0...7 }
        chart.draw(in: Frame(x: 0, y: 0, width: 880, height: 260), on: &svg)
        return svg.rendered
    }
}
