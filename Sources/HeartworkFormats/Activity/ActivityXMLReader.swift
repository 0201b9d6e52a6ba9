import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads GPX (1.0 and 1.1) and TCX (Training Center Database v2) activities with a streaming
/// XML parser (Foundation's `XMLParser`, libxml2's SAX interface: the document is never held as
/// a tree). Elements are matched by local name in any namespace and with any prefix, as real
/// files spell them: `gpxtpx:hr`, `ns3:hr`, `hr` in TrackPointExtension v1 or v2, `ns3:TPX`…
///
/// - GPX: `trk/trkseg/trkpt` (lat, lon, `ele`, `time`; extensions `hr`, `cad`, `atemp`,
///   `power`), `gpx@creator`, `metadata/time`, `trk/type` (names or Strava's numbers).
/// - TCX: the first `Activity` (`@Sport`, `Id`), its `Lap`s (`@StartTime`, `TotalTimeSeconds`,
///   `DistanceMeters`, `Calories`, `AverageHeartRateBpm`, `MaximumHeartRateBpm`) and
///   `Trackpoint`s (`Time`, `Position`, `AltitudeMeters`, `DistanceMeters`, `HeartRateBpm`,
///   `Cadence`, extensions `Speed`, `Watts`, `RunCadence`), `Creator/Name` and `UnitId`.
///
/// Malformed XML keeps everything read before the fault and ends with a warning naming the line
/// and column; a value that is not a number is left out with a warning naming its line.
public enum ActivityXMLReader {
    public enum Kind: String, Sendable { case gpx, tcx }

    /// Most records taken from one file (two days at 1 Hz); the rest is refused with a warning.
    public static let maximumRecords = 172_800
    /// Deepest element nesting read: a TCX track point's heart rate is 7 deep, a GPX
    /// extension's 6. Deeper documents end there with a warning (100,000 nested elements
    /// took 15.9 s before this bound: the element path grew with every level).
    public static let maximumDepth = 64
    /// Most elements read from one document (a two-day TCX at 1 Hz has about 2.1 million).
    public static let maximumElements = 4_000_000

    public static func read(_ bytes: [UInt8]) -> ActivityRecording {
        let (safe, warning) = prepared(bytes)
        var activity = Handler().run(XMLParser(data: Data(safe)))
        if let warning { activity.warnings.insert(warning, at: 0) }
        return activity
    }

    /// The bytes as FoundationXML can be given them without ending the process. Its XMLParser
    /// traps on an element or attribute name that is not UTF-8 (the tcx fuzz target: one
    /// flipped bit in "<Position>"; the gpx target: a garbled encoding declaration, which
    /// libxml2 answers by reading raw bytes), and dereferences NULL on a processing
    /// instruction without data (`<?n?>`, the gpx target). So: a document is read only up to
    /// its first NUL byte (XML has none; it would be a UTF-16 file, which libxml2 detects by
    /// itself) or its first byte that is not UTF-8 (unless declared ISO-8859-1), with a
    /// warning naming the byte and line like any other cut file; and processing instructions
    /// after the XML declaration (none of GPX or TCX means anything) are blanked out, their
    /// line breaks kept so that lines still count right.
    static func prepared(_ bytes: [UInt8]) -> (bytes: [UInt8], warning: FileWarning?) {
        var safe = bytes
        var warning: FileWarning?
        func cut(at offset: Int, _ message: String) {
            let line = safe[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            warning = FileWarning(line: line, message: "byte \(offset)\(message): the file was read up to there")
            safe.removeSubrange(offset...)
        }
        func cut(at offset: Int, byteThat why: String) {
            cut(at: offset, " (0x\(String(safe[offset], radix: 16, uppercase: true))) \(why)")
        }
        if let nul = safe.firstIndex(of: 0) {
            cut(at: nul, byteThat: "is NUL, which no UTF-8 XML document holds (a UTF-16 file?)")
        }
        if let bad = firstInvalidUTF8(safe) {
            cut(at: bad, byteThat: "is not UTF-8")
        }
        // No document type: GPX and TCX have none, and its entities could bring back in what
        // is blanked out below (a PI in an entity's text) or expand without end.
        let doctype = Array("<!DOCTYPE".utf8)
        if let at = safe.indices.first(where: { safe[$0] == UInt8(ascii: "<") && safe[$0...].starts(with: doctype) }) {
            cut(at: at, ": a DOCTYPE declaration, which GPX and TCX files do not have")
        }
        // Blank out every "<?…?>" but a declaration at the very start: "<?xml", white space,
        // "version" (`<?xml?>` and `<?xmlfoo?>` are processing instructions to libxml2, and
        // reached the same NULL, the gpx and tcx targets' next finding).
        var declaration = false
        if safe.starts(with: Array("<?xml".utf8)) {
            let rest = safe.dropFirst(5)
            let spaces = rest.prefix { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            declaration = !spaces.isEmpty && rest.dropFirst(spaces.count).starts(with: Array("version".utf8))
        }
        var index = declaration ? 2 : 0
        while index + 1 < safe.count {
            guard safe[index] == UInt8(ascii: "<"), safe[index + 1] == UInt8(ascii: "?") else {
                index += 1
                continue
            }
            var end = index + 2
            while end + 1 < safe.count, !(safe[end] == UInt8(ascii: "?") && safe[end + 1] == UInt8(ascii: ">")) { end += 1 }
            let last = min(end + 1, safe.count - 1)
            for position in index...last where safe[position] != 0x0A { safe[position] = 0x20 }
            index = last + 1
        }
        // An element of thousands of attributes: libxml2 looks for a repeated name by comparing
        // each with every one before it (20,000 took 0.3 s and twice as many 4 times that;
        // issue 40), and no GPX or TCX element has more than a handful. Counted in one pass.
        if let crowded = firstCrowdedTag(safe) {
            cut(at: crowded, ": an element with more than \(maximumAttributes) attributes, which no GPX or TCX element has")
        }
        return (safe, warning)
    }

    /// The most attributes one element may have.
    static let maximumAttributes = 256

    /// Where the first tag with more than `maximumAttributes` attributes begins (counting the
    /// `=` outside quoted values), or nil.
    static func firstCrowdedTag(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let start = index
            var quote: UInt8 = 0
            var attributes = 0
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "=") {
                    attributes += 1
                    if attributes > maximumAttributes { return start }
                } else if byte == UInt8(ascii: ">") {
                    break
                }
                index += 1
            }
            index += 1
        }
        return nil
    }

    /// Reads a file from disk (whole: it is checked for UTF-8 first, see `read(_:)`).
    public static func read(path: String) throws(FileWarning) -> ActivityRecording {
        guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path) else {
            throw FileWarning(offset: 0, message: "cannot open \(path)")
        }
        return read([UInt8](data))
    }

    /// Encodings libxml2 converts to UTF-8 by itself (built in, not through iconv). Any other
    /// declaration, garbled ones included, is checked as UTF-8: libxml2 falls back to reading
    /// the bytes as they are (the gpx fuzz target's second finding).
    static let convertedEncodings: Set<String> = ["iso-8859-1", "latin1", "iso_8859-1"]

    /// The offset of the first byte that breaks UTF-8 (RFC 3629: no overlong forms, no
    /// surrogates, nothing above U+10FFFF), or nil when it is all UTF-8 or declared in an
    /// encoding libxml2 converts itself (ISO-8859-1).
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        let head = String(decoding: bytes.prefix(200), as: UTF8.self).lowercased()
        if head.hasPrefix("<?xml"), let declarationEnd = head.range(of: "?>"), let encoding = head[..<declarationEnd.lowerBound].range(of: "encoding=") {
            let value = head[encoding.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
            if convertedEncodings.contains(String(value)) { return nil }
        }
        var index = 0
        let count = bytes.count
        while index < count {
            let first = bytes[index]
            if first < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch first {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            let second = bytes[index + 1]
            guard second >= low && second <= high else { return index }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }

    /// Which of the two a document is, from its root element; nil for neither.
    public static func kind(of bytes: some Collection<UInt8>) -> Kind? {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        guard let root = rootElementName(head) else { return nil }
        let local = root.split(separator: ":").last.map(String.init) ?? root
        switch local {
        case "gpx": return .gpx
        case "TrainingCenterDatabase": return .tcx
        default: return nil
        }
    }

    /// The first element name after the prolog (declaration, comments, doctype).
    static func rootElementName(_ text: String) -> String? {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            if after.hasPrefix("?") || after.hasPrefix("!") {
                guard let close = after.firstIndex(of: ">") else { return nil }
                rest = after[after.index(after: close)...]
                continue
            }
            let name = after.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }

    final class Handler: NSObject, XMLParserDelegate {
        var activity = ActivityRecording()
        var kind: Kind?
        /// Local names of the open elements.
        var path: [String] = []
        var text = ""
        var record: ActivityRecording.Record?
        var recordTime: Date?
        var pending = PendingPoint()
        var lap: ActivityRecording.Lap?
        var lapCalories: Int?
        var activities = 0
        var untimedPoints = 0
        var skippedValues = 0
        var firstSkipped: FileWarning?
        var tooMany = false
        var elements = 0
        /// Open `trkpt` (GPX) or `Trackpoint` (TCX) elements and open `Lap`s: counted as they
        /// open and close, so asking "inside a point?" costs nothing however deep the path.
        var pointDepth = 0
        var lapDepth = 0
        var wrongRoot: String?
        weak var parser: XMLParser?

        struct PendingPoint {
            var latitude: Double?
            var longitude: Double?
            var altitude: Double?
            var time: Date?
            var heartRate: Int?
            var cadence: Int?
            var temperature: Int?
            var power: Int?
            var distance: Double?
            var speed: Double?
        }

        func run(_ parser: XMLParser) -> ActivityRecording {
            self.parser = parser
            parser.delegate = self
            parser.shouldProcessNamespaces = true
            parser.shouldResolveExternalEntities = false
            // Foundation's parser may answer true and still hold an error (a cut document).
            let ok = parser.parse()
            if let wrongRoot {
                activity.warnings.append(
                    FileWarning(
                        line: max(1, parser.lineNumber), message: "the root element is <\(wrongRoot)>, neither <gpx> nor <TrainingCenterDatabase>: not a GPX or TCX document"))
            } else if let error = parser.parserError ?? (ok ? nil : NSError(domain: "NSXMLParserErrorDomain", code: 1)), !tooMany {
                let code = (error as NSError).code
                let detail =
                    switch code {
                    case 5: "the document ends before its elements are closed (a cut file?)"
                    case 4: "the document is empty"
                    default: "malformed XML (parser error \(code))"
                    }
                let cut = kind == nil ? "\(detail): not a GPX or TCX document" : "\(detail); what came before it was kept"
                activity.warnings.append(FileWarning(line: max(1, parser.lineNumber), column: max(1, parser.columnNumber), message: cut))
            } else if kind == nil {
                activity.warnings.append(FileWarning(line: 1, message: "neither GPX (<gpx>) nor TCX (<TrainingCenterDatabase>): not a GPX or TCX document"))
            }
            if untimedPoints > 0 {
                activity.warnings.append(
                    FileWarning(line: 1, message: "\(untimedPoints) track point\(untimedPoints == 1 ? "" : "s") without a time left out (a route, not a recording?)"))
            }
            if let firstSkipped {
                var warning = firstSkipped
                if skippedValues > 1 { warning.message += " (and \(skippedValues - 1) more values left out)" }
                activity.warnings.append(warning)
            }
            if activities > 1 {
                activity.warnings.append(FileWarning(line: 1, message: "the file holds \(activities) activities; the first was read"))
            }
            finishSession()
            return activity
        }

        private var inFirstActivity: Bool { kind == .gpx || activities == 1 }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?, attributes: [String: String] = [:]) {
            let name = Self.local(elementName)
            elements += 1
            guard path.count < maximumDepth, elements <= maximumElements else {
                if !tooMany {
                    tooMany = true
                    let why = path.count >= maximumDepth ? "elements nested more than \(maximumDepth) deep" : "more than \(maximumElements) elements"
                    activity.warnings.append(FileWarning(line: max(1, parser.lineNumber), message: "\(why): the file was read up to there"))
                }
                parser.abortParsing()
                return
            }
            path.append(name)
            if name == "trkpt" || name == "Trackpoint" { pointDepth += 1 }
            if name == "Lap" { lapDepth += 1 }
            text = ""
            if path.count == 1 {
                switch name {
                case "gpx":
                    kind = .gpx
                    activity.creator = attributes["creator"].flatMap(Self.clean)
                case "TrainingCenterDatabase": kind = .tcx
                default:
                    wrongRoot = String(elementName.prefix(60))
                    parser.abortParsing()
                }
                return
            }
            switch (kind, name) {
            case (.gpx?, "trkpt"):
                pending = PendingPoint()
                pending.latitude = number(attributes["lat"], "lat").flatMap { abs($0) <= 90 ? $0 : nil }
                pending.longitude = number(attributes["lon"], "lon").flatMap { abs($0) <= 180 ? $0 : nil }
            case (.tcx?, "Activity"):
                activities += 1
                if activities == 1, let sport = attributes["Sport"] { activity.sessions = [ActivityRecording.Session(sport: Self.sport(sport))] }
            case (.tcx?, "Lap") where inFirstActivity:
                lap = ActivityRecording.Lap(start: attributes["StartTime"].flatMap { RFC3339.parse($0.trimmingCharacters(in: .whitespaces)) })
                lapCalories = nil
            case (.tcx?, "Trackpoint") where inFirstActivity:
                pending = PendingPoint()
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if text.utf8.count < 4096 { text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if text.utf8.count < 4096 { text += String(decoding: CDATABlock, as: UTF8.self) }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            let name = Self.local(elementName)
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            defer {
                if let last = path.popLast() {
                    if last == "trkpt" || last == "Trackpoint" { pointDepth -= 1 }
                    if last == "Lap" { lapDepth -= 1 }
                }
                text = ""
            }
            if kind == .gpx { endGPX(name, parent: parent, value: value) } else if kind == .tcx, inFirstActivity { endTCX(name, parent: parent, value: value) }
        }

        private func endGPX(_ name: String, parent: String, value: String) {
            let inPoint = pointDepth > 0
            switch name {
            case "trkpt": appendPending()
            case "ele" where inPoint: pending.altitude = number(value, "ele")
            case "time" where inPoint: pending.time = date(value, "time")
            case "time" where parent == "metadata": activity.created = RFC3339.parse(value)
            case "hr" where inPoint: pending.heartRate = integer(value, "hr")
            case "cad" where inPoint: pending.cadence = integer(value, "cad")
            case "atemp" where inPoint: pending.temperature = integer(value, "atemp")
            case "power" where inPoint, "PowerInWatts" where inPoint: pending.power = integer(value, name)
            case "speed" where inPoint: pending.speed = number(value, "speed")
            case "type" where parent == "trk":
                if activity.sessions.isEmpty { activity.sessions = [ActivityRecording.Session(sport: Self.sport(value))] }
                if value.lowercased().contains("virtual") { activity.isVirtual = true }
            case "name" where parent == "trk": activity.name = Self.clean(value) ?? activity.name
            case "name" where parent == "metadata": if activity.name == nil { activity.name = Self.clean(value) }
            default: break
            }
        }

        private func endTCX(_ name: String, parent: String, value: String) {
            let inPoint = pointDepth > 0
            if inPoint {
                switch (name, parent) {
                case ("Trackpoint", _): appendPending()
                case ("Time", "Trackpoint"): pending.time = date(value, "Time")
                case ("LatitudeDegrees", "Position"): pending.latitude = number(value, name).flatMap { abs($0) <= 90 ? $0 : nil }
                case ("LongitudeDegrees", "Position"): pending.longitude = number(value, name).flatMap { abs($0) <= 180 ? $0 : nil }
                case ("AltitudeMeters", "Trackpoint"): pending.altitude = number(value, name)
                case ("DistanceMeters", "Trackpoint"): pending.distance = number(value, name)
                case ("Value", "HeartRateBpm"): pending.heartRate = integer(value, "HeartRateBpm")
                case ("Cadence", "Trackpoint"): pending.cadence = integer(value, name)
                case ("RunCadence", _): if pending.cadence == nil { pending.cadence = integer(value, name) }
                case ("Speed", _): pending.speed = number(value, name)
                case ("Watts", _): pending.power = integer(value, name)
                default: break
                }
                return
            }
            switch (name, parent) {
            case ("Id", "Activity"): activity.created = RFC3339.parse(value)
            case ("TotalTimeSeconds", "Lap"): lap?.elapsedSeconds = number(value, name)
            case ("DistanceMeters", "Lap"): lap?.distance = number(value, name)
            case ("Calories", "Lap"): lapCalories = integer(value, name)
            case ("Value", "AverageHeartRateBpm") where lapDepth > 0: lap?.averageHeartRate = integer(value, "AverageHeartRateBpm")
            case ("Value", "MaximumHeartRateBpm") where lapDepth > 0: lap?.maximumHeartRate = integer(value, "MaximumHeartRateBpm")
            case ("Lap", _):
                guard var finished = lap else { return }
                if let start = finished.start, let seconds = finished.elapsedSeconds, seconds.isFinite, seconds >= 0, seconds < 1e7 {
                    finished.end = start.addingTimeInterval(seconds)
                }
                activity.laps.append(finished)
                if let lapCalories, !activity.sessions.isEmpty {
                    activity.sessions[0].calories = (activity.sessions[0].calories ?? 0) &+ lapCalories
                }
                lap = nil
            case ("Name", "Creator") where path.count > 2 && path[1] == "Activities": activity.creator = Self.clean(value)
            case ("UnitId", "Creator") where path.count > 2 && path[1] == "Activities": activity.serialNumber = UInt64(value).flatMap { $0 == 0 ? nil : $0 }
            default: break
            }
        }

        private func appendPending() {
            guard let time = pending.time else {
                untimedPoints += 1
                return
            }
            guard activity.records.count < maximumRecords else {
                if !tooMany {
                    tooMany = true
                    activity.warnings.append(FileWarning(line: parser?.lineNumber ?? 0, message: "more than \(maximumRecords) points: the rest was left out"))
                    parser?.abortParsing()
                }
                return
            }
            var record = ActivityRecording.Record(time: time)
            if let lat = pending.latitude, let lon = pending.longitude {
                record.latitude = lat
                record.longitude = lon
            }
            record.altitude = pending.altitude
            record.heartRate = pending.heartRate
            record.cadence = pending.cadence
            record.temperature = pending.temperature
            record.power = pending.power
            record.distance = pending.distance
            record.speed = pending.speed
            activity.records.append(record)
        }

        /// The session a TCX's laps add up to (a GPX has none beyond its sport).
        private func finishSession() {
            guard kind == .tcx else {
                if !activity.sessions.isEmpty { activity.sessions[0].start = activity.records.first?.time }
                return
            }
            if activity.sessions.isEmpty { activity.sessions = [ActivityRecording.Session(sport: 0)] }
            activity.sessions[0].start = activity.laps.first?.start ?? activity.created ?? activity.records.first?.time
            let distances = activity.laps.compactMap(\.distance)
            if !distances.isEmpty { activity.sessions[0].distance = distances.reduce(0, +) }
            let times = activity.laps.compactMap(\.elapsedSeconds)
            if !times.isEmpty { activity.sessions[0].elapsedSeconds = times.reduce(0, +) }
            let maxima = activity.laps.compactMap(\.maximumHeartRate)
            activity.sessions[0].maximumHeartRate = maxima.max()
        }

        private func skip(_ value: String, _ field: String, _ expected: String) {
            skippedValues += 1
            if firstSkipped == nil {
                let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
                firstSkipped = FileWarning(line: parser?.lineNumber ?? 0, message: "\(field) '\(shown)' is not \(expected); left out")
            }
        }

        private func number(_ value: String?, _ field: String) -> Double? {
            guard let value else { return nil }
            guard let number = Double(value.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                skip(value, field, "a number")
                return nil
            }
            return number
        }

        private func integer(_ value: String, _ field: String) -> Int? {
            guard let number = number(value, field) else { return nil }
            guard abs(number) < 1e9 else {
                skip(value, field, "a plausible value")
                return nil
            }
            return Int(number.rounded())
        }

        private func date(_ value: String, _ field: String) -> Date? {
            guard let date = RFC3339.parse(value) ?? Self.dateWithoutZone(value) else {
                skip(value, field, "a date-time such as 2026-11-21T07:30:00Z")
                return nil
            }
            return date
        }

        /// Some exporters leave out the zone ("2026-06-01T06:30:00"); GPX and TCX times are UTC.
        static func dateWithoutZone(_ value: String) -> Date? {
            guard value.count >= 19, value.count <= 30, !value.hasSuffix("Z"), !value.dropFirst(19).contains(where: { $0 == "+" || $0 == "-" }) else { return nil }
            return RFC3339.parse(value + "Z")
        }

        static func local(_ name: String) -> String {
            guard let colon = name.lastIndex(of: ":") else { return name }
            return String(name[name.index(after: colon)...])
        }

        static func clean(_ text: String) -> String? {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : String(trimmed.prefix(200))
        }

        /// FIT's sport numbers for GPX types and TCX sports (names, and Strava's numeric GPX types).
        static func sport(_ text: String) -> Int {
            let name = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            switch name {
            case "1": return 2  // Strava: ride
            case "9": return 1  // Strava: run
            case "10", "11": return 11  // Strava: walk, hike
            default: break
            }
            if name.contains("run") { return 1 }
            if name.contains("bik") || name.contains("cycl") || name.contains("ride") { return 2 }
            if name.contains("walk") || name.contains("hik") { return 11 }
            if name.contains("swim") { return 5 }
            if name.contains("strength") || name.contains("training") { return 10 }
            return 0
        }
    }
}
