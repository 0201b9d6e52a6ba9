import Foundation

/// Writes an activity as GPX 1.1 (heart rate, cadence and temperature in Garmin's
/// TrackPointExtension v2, prefix `gpxtpx`, as Garmin and Strava read it) or as TCX v2 (laps,
/// `HeartRateBpm`, `Cadence`, speed and power in ActivityExtension v2 `TPX`). Times are UTC
/// with milliseconds when they have them. gpxpy and tcxreader read both (checked in CI).
public enum ActivityXMLWriter {
    /// A GPX track holds only points with a position: an activity without any cannot be written.
    public struct NoTrack: Error, Sendable, CustomStringConvertible {
        public var description: String { "GPX holds only points with a position, and this workout has no GPS track (an indoor workout?): export it as FIT, TCX or JSON" }
    }

    public static func gpx(_ activity: ActivityRecording, name: String? = nil) throws(NoTrack) -> [UInt8] {
        let points = activity.records.filter { $0.latitude != nil && $0.longitude != nil }
        guard !points.isEmpty else { throw NoTrack() }
        var out = XMLText()
        out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.raw("<gpx version=\"1.1\" creator=\"")
        out.escaped(activity.creator ?? "Heartwork")
        out.raw(
            "\" xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd http://www.garmin.com/xmlschemas/TrackPointExtension/v2 https://www8.garmin.com/xmlschemas/TrackPointExtensionv2.xsd\">\n"
        )
        if let start = activity.sessions.first?.start ?? points.first?.time {
            out.raw(" <metadata><time>\(timestamp(start))</time></metadata>\n")
        }
        out.raw(" <trk>\n")
        if let name {
            out.raw("  <name>")
            out.escaped(name)
            out.raw("</name>\n")
        }
        out.raw("  <type>\(gpxType(activity.sessions.first?.sport))</type>\n  <trkseg>\n")
        for point in points {
            guard let lat = point.latitude, let lon = point.longitude else { continue }
            out.raw("   <trkpt lat=\"\(decimal(lat, 7))\" lon=\"\(decimal(lon, 7))\">")
            if let ele = point.altitude, ele.isFinite { out.raw("<ele>\(decimal(ele, 2))</ele>") }
            out.raw("<time>\(timestamp(point.time))</time>")
            if point.heartRate != nil || point.cadence != nil || point.temperature != nil {
                out.raw("<extensions><gpxtpx:TrackPointExtension>")
                if let temperature = point.temperature { out.raw("<gpxtpx:atemp>\(temperature)</gpxtpx:atemp>") }
                if let hr = point.heartRate { out.raw("<gpxtpx:hr>\(hr)</gpxtpx:hr>") }
                if let cadence = point.cadence { out.raw("<gpxtpx:cad>\(cadence)</gpxtpx:cad>") }
                out.raw("</gpxtpx:TrackPointExtension></extensions>")
            }
            out.raw("</trkpt>\n")
        }
        out.raw("  </trkseg>\n </trk>\n</gpx>\n")
        return out.bytes
    }

    public static func tcx(_ activity: ActivityRecording) -> [UInt8] {
        let records = activity.records
        let session = activity.sessions.first
        let start = session?.start ?? records.first?.time ?? activity.created ?? Date(timeIntervalSince1970: 0)
        let end = records.last?.time ?? start
        var laps = activity.laps
        if laps.isEmpty {
            let maximum = records.compactMap(\.heartRate).max()
            let rates = records.compactMap(\.heartRate)
            laps = [
                ActivityRecording.Lap(
                    start: start, end: end, elapsedSeconds: session?.elapsedSeconds ?? end.timeIntervalSince(start), distance: session?.distance,
                    averageHeartRate: rates.isEmpty ? nil : Int((Double(rates.reduce(0, +)) / Double(rates.count)).rounded()), maximumHeartRate: maximum)
            ]
        }
        var out = XMLText()
        out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.raw(
            "<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\" xmlns:ns3=\"http://www.garmin.com/xmlschemas/ActivityExtension/v2\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd\">\n"
        )
        out.raw(" <Activities>\n  <Activity Sport=\"\(tcxSport(session?.sport))\">\n   <Id>\(timestamp(start))</Id>\n")
        // The session's energy shared among the laps by their time (TCX keeps it per lap only).
        let total = max(0, min(65_535, session?.calories ?? 0))
        let times = laps.map { max(0, $0.elapsedSeconds ?? 0) }
        let allTime = times.reduce(0, +)
        var lapCalories = times.map { allTime > 0 ? Int((Double(total) * $0 / allTime).rounded(.down)) : 0 }
        if !lapCalories.isEmpty { lapCalories[lapCalories.count - 1] += total - lapCalories.reduce(0, +) }
        var index = 0
        for (number, lap) in laps.enumerated() {
            let lapStart = lap.start ?? start
            let lapEnd = number + 1 < laps.count ? (laps[number + 1].start ?? end) : Date.distantFuture
            out.raw("   <Lap StartTime=\"\(timestamp(lapStart))\">\n")
            out.raw("    <TotalTimeSeconds>\(decimal(lap.elapsedSeconds ?? 0, 3))</TotalTimeSeconds>\n")
            out.raw("    <DistanceMeters>\(decimal(lap.distance ?? 0, 2))</DistanceMeters>\n")
            // Schema order: TotalTimeSeconds, DistanceMeters, Calories, AverageHeartRateBpm, MaximumHeartRateBpm.
            out.raw("    <Calories>\(lapCalories[number])</Calories>\n")
            if let average = lap.averageHeartRate {
                out.raw("    <AverageHeartRateBpm><Value>\(average)</Value></AverageHeartRateBpm>\n")
            }
            if let maximum = lap.maximumHeartRate {
                out.raw("    <MaximumHeartRateBpm><Value>\(maximum)</Value></MaximumHeartRateBpm>\n")
            }
            out.raw("    <Intensity>Active</Intensity>\n    <TriggerMethod>Manual</TriggerMethod>\n    <Track>\n")
            while index < records.count, number + 1 == laps.count || records[index].time < lapEnd {
                trackpoint(records[index], into: &out)
                index += 1
            }
            out.raw("    </Track>\n   </Lap>\n")
        }
        if let creator = activity.creator {
            out.raw("   <Creator xsi:type=\"Device_t\"><Name>")
            out.escaped(creator)
            out.raw(
                "</Name><UnitId>\(activity.serialNumber ?? 0)</UnitId><ProductID>\(activity.product ?? 0)</ProductID><Version><VersionMajor>1</VersionMajor><VersionMinor>0</VersionMinor></Version></Creator>\n"
            )
        }
        out.raw("  </Activity>\n </Activities>\n</TrainingCenterDatabase>\n")
        return out.bytes
    }

    private static func trackpoint(_ point: ActivityRecording.Record, into out: inout XMLText) {
        out.raw("     <Trackpoint><Time>\(timestamp(point.time))</Time>")
        if let lat = point.latitude, let lon = point.longitude {
            out.raw("<Position><LatitudeDegrees>\(decimal(lat, 7))</LatitudeDegrees><LongitudeDegrees>\(decimal(lon, 7))</LongitudeDegrees></Position>")
        }
        if let ele = point.altitude, ele.isFinite { out.raw("<AltitudeMeters>\(decimal(ele, 2))</AltitudeMeters>") }
        if let distance = point.distance, distance.isFinite { out.raw("<DistanceMeters>\(decimal(distance, 2))</DistanceMeters>") }
        if let hr = point.heartRate { out.raw("<HeartRateBpm><Value>\(hr)</Value></HeartRateBpm>") }
        if let cadence = point.cadence, (0...254).contains(cadence) { out.raw("<Cadence>\(cadence)</Cadence>") }
        if point.speed != nil || point.power != nil {
            out.raw("<Extensions><ns3:TPX>")
            if let speed = point.speed, speed.isFinite { out.raw("<ns3:Speed>\(decimal(speed, 3))</ns3:Speed>") }
            if let power = point.power { out.raw("<ns3:Watts>\(power)</ns3:Watts>") }
            out.raw("</ns3:TPX></Extensions>")
        }
        out.raw("</Trackpoint>\n")
    }

    static func gpxType(_ sport: Int?) -> String {
        switch sport {
        case 1?: "running"
        case 2?: "cycling"
        case 11?: "walking"
        case 5?: "swimming"
        case 10?: "training"
        default: "other"
        }
    }

    static func tcxSport(_ sport: Int?) -> String {
        switch sport {
        case 1?: "Running"
        case 2?: "Biking"
        default: "Other"
        }
    }

    /// `2026-06-01T06:30:00Z`, or with milliseconds when the time has a fraction.
    public static func timestamp(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return "1970-01-01T00:00:00Z" }
        let whole = Int64(milliseconds)
        var seconds = whole / 1000
        var fraction = whole % 1000
        if fraction < 0 {
            fraction += 1000
            seconds -= 1
        }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(days)
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if fraction != 0 { text += ".\(pad(fraction, 3))" }
        return text + "Z"
    }

    /// Days since 1970-01-01 → (year, month, day), Howard Hinnant's civil_from_days.
    static func civil(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// A fixed number of decimals without trailing zeros (`48.2081743`, `180.5`, `12`).
    static func decimal(_ value: Double, _ places: Int) -> String {
        guard value.isFinite else { return "0" }
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}

/// Bytes of an XML document being written.
struct XMLText {
    var bytes: [UInt8] = []

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Text and attribute content with the five XML entities escaped and control characters
    /// XML 1.0 cannot hold left out.
    mutating func escaped(_ text: String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": raw("&amp;")
            case "<": raw("&lt;")
            case ">": raw("&gt;")
            case "\"": raw("&quot;")
            case "'": raw("&apos;")
            case "\t", "\n", "\r": bytes.append(contentsOf: String(scalar).utf8)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
    }
}
