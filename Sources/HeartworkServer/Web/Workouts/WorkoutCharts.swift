import Foundation
import HeartworkCharts
import HeartworkCore
import HeartworkModel

/// The SVG charts of the web pages, drawn with HeartworkCharts twice — 640 units wide for
/// a desktop, 320 for a phone, the page showing the one that fits (CSS) — so text stays
/// readable at any width without the chart scrolling sideways; each with a unique accessible
/// name and, for line charts, the points a pointer readout shows.
enum WorkoutCharts {
    static let width = 640.0
    static let narrowWidth = 320.0

    /// A drawing of one chart at one width: the SVG and what the page's readout script shows
    /// where the pointer is (chart x and y in SVG units, and the text for that point).
    struct Drawing {
        let svg: String
        var readout: [(x: Double, y: Double, text: String)] = []
    }

    /// A chart at both widths, as the HTML a template embeds.
    struct Chart {
        let svg: String

        /// Draws the chart for each width.
        init(_ draw: (Double) -> Drawing) {
            svg = [(Self.wide, WorkoutCharts.width), (Self.narrow, WorkoutCharts.narrowWidth)].map { kind, width in
                let drawing = draw(width)
                return "<div class=\"\(kind)\" data-readout=\"\(Self.readoutAttribute(drawing.readout))\">\(drawing.svg)</div>"
            }.joined()
        }

        static let wide = "chart-wide", narrow = "chart-narrow"

        /// Numbers and text as JSON, escaped for an HTML attribute.
        static func readoutAttribute(_ readout: [(x: Double, y: Double, text: String)]) -> String {
            let items = readout.map { point in
                "[\(Int(point.x.rounded())),\(Int(point.y.rounded())),\"\(point.text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\"]"
            }
            return ("[" + items.joined(separator: ",") + "]").replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
    }

    /// Ticks a chart of `width` gets along x: fewer on a phone, so labels never meet.
    static func xTicks(_ width: Double) -> Int { width < 500 ? 4 : 6 }

    /// At most about `count` evenly spaced indices of `total`.
    static func sampled(_ total: Int, count: Int = 600) -> StrideTo<Int> {
        stride(from: 0, to: total, by: max(1, total / count))
    }

    /// Heart rate over time, each stretch coloured by its HeartMate zone, thresholds dashed.
    static func heartRate(_ workout: WorkoutRecord, streams: WorkoutStreams, name: String, titled: Bool = true) -> Chart {
        heartRate(streams.heartRate, profile: workout.profile.zoneProfile, name: name, titled: titled)
    }

    /// A heart-rate series (one value a second, nil where none) coloured by zone when there is
    /// a zone profile; `id` keeps several charts on one page apart.
    static func heartRate(_ series: [Int?], profile: ZoneProfile?, name: String, id: String = "hr", height: Double = 300, titled: Bool = true) -> Chart {
        var points = [ChartPoint]()
        var colors = [String]()
        var seconds = [Int]()
        for (second, bpm) in series.enumerated() {
            guard let bpm else { continue }
            points.append(ChartPoint(x: Double(second) / 60, y: Double(bpm)))
            seconds.append(second)
            let zone = profile?.reserveZone(beatsPerMinute: Double(bpm)) ?? .none
            colors.append(profile == nil ? Palette.primary : Palette.reserveZones[zone.rawValue])
        }
        var layers = [ChartLayer]()
        if let profile {
            for (index, threshold) in profile.reserveZoneThresholds.dropLast().enumerated() {
                layers.append(.threshold(y: threshold, stroke: Palette.reserveZones[index + 1], label: ReserveZone.allCases[index + 1].shortName))
            }
        }
        layers.append(.coloredLine(points, colors: colors, width: 2))
        return Chart { width in
            let frame = Frame(x: 0, y: 0, width: width, height: height)
            var svg = SVGDocument(width: width, height: height, title: "Heart rate of \(name), coloured by zone", id: "\(id)-\(Int(width))")
            var chart = XYChart(title: "Heart rate", xLabel: "Time (min)", yLabel: "Heart rate (bpm)", layers: layers)
            chart.xTickCount = xTicks(width)
            chart.drawsTitle = titled
            if profile != nil { chart.legend = ReserveZone.allCases.map { ($0.label, Palette.reserveZones[$0.rawValue]) } }
            chart.draw(in: frame, on: &svg)
            let layout = chart.layout(in: frame)
            let readout = sampled(points.count).map { index in
                let bpm = points[index].y
                let zone = profile.map { " · \($0.reserveZone(beatsPerMinute: bpm).label)" } ?? ""
                return (layout.x(points[index].x), layout.y(bpm), "\(Formatting.duration(seconds[index])) · \(Int(bpm)) bpm\(zone)")
            }
            return Drawing(svg: svg.rendered, readout: readout)
        }
    }

    static func timeInZones(_ seconds: [Int], name: String, id: String = "zones", titled: Bool = true) -> Chart {
        let total = max(1, seconds.reduce(0, +))
        let bars = ReserveZone.allCases.map { zone in
            let value = zone.rawValue < seconds.count ? seconds[zone.rawValue] : 0
            return BarChart.Bar(
                label: zone.label, value: Double(value),
                valueText: "\(Formatting.duration(value)) · \(Int((100 * Double(value) / Double(total)).rounded())) %",
                color: Palette.reserveZones[zone.rawValue])
        }
        return Chart { width in
            var svg = SVGDocument(width: width, height: titled ? 220 : 196, title: "Time in each heart-rate zone during \(name)", id: "\(id)-\(Int(width))")
            var chart = BarChart(title: "Time in zones", bars: bars)
            chart.drawsTitle = titled
            chart.draw(in: Frame(x: 0, y: 0, width: width, height: titled ? 220 : 196), on: &svg)
            return Drawing(svg: svg.rendered)
        }
    }

    /// Speed along the track, smoothed over 30 seconds; the readout adds the pace for runs.
    static func speed(_ samples: [TrackSample], sport: Sport, units: UnitSystem, name: String, titled: Bool = true) -> Chart? {
        let moving = samples.filter { $0.speed != nil }
        guard moving.count >= 10 else { return nil }
        let perHour = units == .imperial ? 3600 / Length.metersPerMile : 3.6
        let unit = units == .imperial ? "mph" : "km/h"
        let points = moving.map { ChartPoint(x: $0.seconds / 60, y: ($0.speed ?? 0) * perHour) }
        return Chart { width in
            let frame = Frame(x: 0, y: 0, width: width, height: 240)
            var svg = SVGDocument(width: width, height: 240, title: "Speed during \(name)", id: "speed-\(Int(width))")
            var chart = XYChart(title: "Speed", xLabel: "Time (min)", yLabel: "Speed (\(unit))", layers: [.line(points, stroke: Palette.primary, width: 2)])
            chart.xTickCount = xTicks(width)
            chart.drawsTitle = titled
            chart.draw(in: frame, on: &svg)
            let layout = chart.layout(in: frame)
            let readout = sampled(points.count).map { index in
                var text = "\(Formatting.duration(Int(moving[index].seconds))) · \(Formatting.number(points[index].y, decimals: 1, unit: unit))"
                if sport == .running, let speed = moving[index].speed, speed > 0.3 { text += " · \(pace(speed, units: units))" }
                return (layout.x(points[index].x), layout.y(points[index].y), text)
            }
            return Drawing(svg: svg.rendered, readout: readout)
        }
    }

    /// "5:42 /km" from metres per second.
    static func pace(_ metersPerSecond: Double, units: UnitSystem) -> String {
        let meters = units == .imperial ? Length.metersPerMile : 1000
        let seconds = Int((meters / metersPerSecond).rounded())
        guard seconds < 3600 else { return "–" }
        return String(format: "%d:%02d /%@", seconds / 60, seconds % 60, units == .imperial ? "mi" : "km")
    }

    /// Elevation against distance, when the track has elevations.
    static func elevation(_ samples: [TrackSample], units: UnitSystem, name: String, titled: Bool = true) -> Chart? {
        let withElevation = samples.filter { $0.elevation != nil }
        guard withElevation.count >= 10, let last = withElevation.last, last.distance > 50 else { return nil }
        let perUnit = units == .imperial ? Length.metersPerMile : 1000
        let height = units == .imperial ? 1 / 0.3048 : 1
        let points = withElevation.map { ChartPoint(x: $0.distance / perUnit, y: ($0.elevation ?? 0) * height) }
        return Chart { width in
            let frame = Frame(x: 0, y: 0, width: width, height: 220)
            var svg = SVGDocument(width: width, height: 220, title: "Elevation along \(name)", id: "elevation-\(Int(width))")
            var chart = XYChart(
                title: "Elevation", xLabel: "Distance (\(units == .imperial ? "mi" : "km"))", yLabel: "Elevation (\(units == .imperial ? "ft" : "m"))",
                layers: [.area(points, fill: "#9aa5b1", opacity: 0.35), .line(points, stroke: Palette.text, width: 1.5)])
            chart.xTickCount = xTicks(width)
            chart.drawsTitle = titled
            chart.draw(in: frame, on: &svg)
            let layout = chart.layout(in: frame)
            let readout = sampled(points.count).map { index in
                (
                    layout.x(points[index].x), layout.y(points[index].y),
                    "\(Formatting.distance(withElevation[index].distance, units: units)) · \(Formatting.elevation(withElevation[index].elevation ?? 0, units: units))"
                )
            }
            return Drawing(svg: svg.rendered, readout: readout)
        }
    }

    static func route(_ track: [GeoPoint], units: UnitSystem, name: String, tiles: MapTiles? = nil, titled: Bool = true) -> Chart {
        Chart { width in
            let height = width < 500 ? 360.0 : 420.0
            var svg = SVGDocument(width: width, height: height, title: "Route of \(name), from start to finish", id: "route-\(Int(width))")
            var chart = RouteChart(title: "Route", points: track.map { ($0.latitudeDegrees, $0.longitudeDegrees) }, imperial: units == .imperial, tiles: tiles)
            chart.drawsTitle = titled
            chart.draw(in: Frame(x: 0, y: 0, width: width, height: height), on: &svg)
            return Drawing(svg: svg.rendered)
        }
    }

    /// The Poincaré plot of the workout's corrected RR intervals.
    static func poincare(_ result: HRVResult, name: String) -> Chart {
        Chart { width in
            let height = width < 500 ? 360.0 : 420.0
            var svg = SVGDocument(width: width, height: height, title: "Poincaré plot of the beat-to-beat intervals of \(name)", id: "poincare-\(Int(width))")
            var chart = HRVReportChart.poincare(result.correction.corrected, nonlinear: result.indices.nonlinear)
            chart.xTickCount = xTicks(width)
            chart.draw(in: Frame(x: 0, y: 0, width: width, height: height), on: &svg)
            return Drawing(svg: svg.rendered)
        }
    }

    /// Weight over time, the x axis in dates (in the user's zone).
    static func weights(_ entries: [MeasurementRecord], units: UnitSystem, zone: TimeZone = .gmt) -> Chart? {
        guard let first = entries.first, let last = entries.last else { return nil }
        let imperial = units == .imperial
        let points = entries.map { entry in
            ChartPoint(
                x: entry.measuredAt.timeIntervalSince(first.measuredAt) / 86_400,
                y: imperial ? BodyMass.pounds(fromKilograms: entry.value) : entry.value)
        }
        let origin = first.measuredAt
        return Chart { width in
            var svg = SVGDocument(width: width, height: 260, title: "Weight history", id: "weight-\(Int(width))")
            var chart = XYChart(
                title: "Weight", xLabel: "Date", yLabel: "Weight (\(imperial ? "lb" : "kg"))",
                layers: [.line(points, stroke: Palette.primary, width: 2), .points(points, fill: Palette.primary, radius: 3.5, opacity: 1)])
            // At least a week wide, so a few entries on one day do not stretch into a zoom of seconds.
            if last.measuredAt.timeIntervalSince(first.measuredAt) / 86_400 < 7 { chart.xDomain = 0...7 }
            chart.xTickCount = xTicks(width)
            chart.xTickText = { days in Formatting.shortDay(origin.addingTimeInterval(days * 86_400), zone: zone) }
            chart.draw(in: Frame(x: 0, y: 0, width: width, height: 260), on: &svg)
            return Drawing(svg: svg.rendered)
        }
    }
}

/// A point of the track with what is derived along it: distance so far and speed.
struct TrackSample {
    let seconds: Double
    let distance: Double
    let speed: Double?
    let elevation: Double?

    /// Distance from point to point (unfiltered, so it may read a little above the workout's
    /// total) and speed from the distance covered in the 30 seconds around each point.
    static func along(_ track: [GeoPoint]) -> [TrackSample] {
        guard track.count >= 2 else { return [] }
        var cumulative = [0.0]
        cumulative.reserveCapacity(track.count)
        for index in 1..<track.count {
            cumulative.append(cumulative[index - 1] + Haversine.distanceMeters(from: track[index - 1], to: track[index]))
        }
        var samples = [TrackSample]()
        samples.reserveCapacity(track.count)
        var low = 0
        var high = 0
        for index in track.indices {
            let time = track[index].timeSeconds ?? 0
            while low < index, (track[low].timeSeconds ?? 0) < time - 15 { low += 1 }
            while high + 1 < track.count, (track[high + 1].timeSeconds ?? 0) <= time + 15 { high += 1 }
            let span = (track[high].timeSeconds ?? 0) - (track[low].timeSeconds ?? 0)
            let speed = span >= 10 ? (cumulative[high] - cumulative[low]) / span : nil
            samples.append(TrackSample(seconds: time, distance: cumulative[index], speed: speed, elevation: track[index].elevationMeters))
        }
        return samples
    }
}
