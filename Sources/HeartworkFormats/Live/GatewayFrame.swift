import HeartworkCore

/// One reading as a gateway forwards it (docs/PROTOCOL.md): a strap's standard Heart Rate
/// Measurement bytes, the gateway's per-sensor sequence number and its clock.
public struct GatewayReading: Sendable, Hashable {
    /// The strap as the gateway names it (a BLE address, an ANT+ id): 1–64 printable characters.
    public var sensor: String
    /// Per sensor, increasing; the server stores each (sensor, seq) once.
    public var sequence: Int
    /// Unix milliseconds at the gateway.
    public var atMilliseconds: Int
    public var measurement: HeartRateMeasurement
    /// Battery level in percent, 0–100, when the gateway knows it.
    public var battery: Int?
    /// Received signal strength in dBm, −127…20, when the gateway knows it.
    public var rssi: Int?
    /// The notification's bytes exactly as the strap sent them, when a gateway forwards a real
    /// strap (`heartwork gateway`): `write` sends these rather than `measurement` encoded again,
    /// so a 16-bit heart rate below 256 or reserved flag bits reach the server unchanged.
    public var rawMeasurement: [UInt8]?

    public init(
        sensor: String, sequence: Int, atMilliseconds: Int, measurement: HeartRateMeasurement, battery: Int? = nil, rssi: Int? = nil, rawMeasurement: [UInt8]? = nil
    ) {
        self.rawMeasurement = rawMeasurement
        self.sensor = sensor
        self.sequence = sequence
        self.atMilliseconds = atMilliseconds
        self.measurement = measurement
        self.battery = battery
        self.rssi = rssi
    }
}

/// One item of a gateway frame: a reading to store, or one that cannot be taken (answered
/// with an `error` message naming sensor and seq when they could be read).
public enum GatewayItem: Sendable, Hashable {
    case reading(GatewayReading)
    case refused(sensor: String?, sequence: Int?, detail: String)
}

/// A frame that is not the protocol at all: the server closes the connection (code 1008).
public struct GatewayProtocolViolation: Error, Sendable, Hashable, CustomStringConvertible {
    public let detail: String
    public init(_ detail: String) { self.detail = detail }
    public var description: String { detail }
}

/// Reads the text frames a gateway sends: `{"type":"reading", …}` or
/// `{"type":"readings","items":[…]}` with at most 500 items.
///
/// A fault in one reading (bad hex, a truncated measurement, a missing or out-of-range field)
/// refuses that reading only; the others of the frame are kept. Members the protocol does not
/// name are ignored, so gateways can send more than this version reads. A frame that is not
/// JSON, has no known `type`, or carries more than 500 items violates the protocol.
public enum GatewayFrame {
    public static let maximumBytes = 1 << 20
    public static let maximumItems = 500
    public static let maximumSensorLength = 64
    /// The largest Heart Rate Measurement payload taken (a 512-byte ATT value).
    public static let maximumMeasurementBytes = 512
    /// Plausible gateway clocks: 2000-01-01 to 2100-01-01.
    public static let timeRange = 946_684_800_000...4_102_444_800_000
    /// How far ahead of the server's clock a reading's `at` may be (a gateway's clock runs a
    /// little fast): later readings are refused, so a wrong clock cannot freeze a strap's last
    /// value or a coach's tile.
    public static let maximumFutureMilliseconds: Int64 = 60_000

    /// Reads a frame. With `nowMilliseconds` (the server's clock), a reading more than
    /// `maximumFutureMilliseconds` ahead of it is refused.
    public static func read(_ bytes: [UInt8], nowMilliseconds: Int64? = nil) throws(GatewayProtocolViolation) -> [GatewayItem] {
        guard bytes.count <= maximumBytes else { throw GatewayProtocolViolation("the frame is larger than 1 MB") }
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes, maximumDepth: 8)
        } catch {
            throw GatewayProtocolViolation("the frame is not JSON: \(error)")
        }
        guard case .object(let members) = document else { throw GatewayProtocolViolation("a frame is a JSON object with a type") }
        let type = members.first { $0.key == "type" }?.value
        switch type {
        case .string("reading"):
            return [item(document, path: "", now: nowMilliseconds)]
        case .string("readings"):
            guard case .array(let items) = members.first(where: { $0.key == "items" })?.value else {
                throw GatewayProtocolViolation("a readings frame has an items array")
            }
            guard items.count <= maximumItems else {
                throw GatewayProtocolViolation("a readings frame carries at most \(maximumItems) items, this one \(items.count)")
            }
            return items.enumerated().map { index, value in item(value, path: "items[\(index)]", nested: true, now: nowMilliseconds) }
        default:
            throw GatewayProtocolViolation("unknown frame type: expected \"reading\" or \"readings\"")
        }
    }

    /// Writes readings as one `readings` frame (what a gateway sends; the simulator's side of
    /// `read`). At most `maximumItems` readings belong in one frame.
    public static func write(_ readings: some Collection<GatewayReading>) -> String {
        var json = JSONWriter(capacity: 128 + readings.count * 110)
        json.beginObject()
        json.field("type", "readings")
        json.key("items")
        json.beginArray()
        for reading in readings {
            json.beginObject()
            json.field("sensor", reading.sensor)
            json.field("seq", reading.sequence)
            json.field("at", reading.atMilliseconds)
            json.field("hrm", (reading.rawMeasurement ?? (try? HeartRateMeasurementCodec.encode(reading.measurement))).map(HexBytes.format) ?? "")
            json.field("battery", reading.battery)
            json.field("rssi", reading.rssi)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    private static func item(_ value: JSONValue, path: String, nested: Bool = false, now: Int64?) -> GatewayItem {
        // Tolerant of members a later protocol version adds: every present key is allowed.
        guard let reader = try? JSONObjectReader(tolerating: value, path: path) else {
            return .refused(sensor: nil, sequence: nil, detail: "\(path): a reading is a JSON object")
        }
        let sensor = try? sensorName(reader)
        let sequence = try? reader.integer("seq")
        do throws(JSONFieldError) {
            if nested, let type = reader.raw("type"), type != .string("reading") {
                throw JSONFieldError(.invalidValue, path: reader.path("type"), "an item of a readings frame is a reading")
            }
            let name = try sensorName(reader)
            let seq = try reader.integer("seq")
            guard seq >= 0 else { throw JSONFieldError(.invalidValue, path: reader.path("seq"), "seq is a whole number from 0") }
            let at = try reader.integer("at")
            guard timeRange.contains(at) else {
                throw JSONFieldError(.invalidValue, path: reader.path("at"), "at is Unix milliseconds between 2000 and 2100")
            }
            if let now, Int64(at) > now + maximumFutureMilliseconds {
                throw JSONFieldError(
                    .invalidValue, path: reader.path("at"),
                    "at is \((Int64(at) - now) / 1000) s ahead of the server's clock (at most \(maximumFutureMilliseconds / 1000) s): set the gateway's clock")
            }
            let hex = try reader.string("hrm")
            // Text first (a cheap bound: two hex digits and a separator a byte), then bytes.
            guard hex.utf8.count <= maximumMeasurementBytes * 3 + 2 else {
                throw JSONFieldError(.invalidValue, path: reader.path("hrm"), "hrm is at most \(maximumMeasurementBytes) bytes")
            }
            let measurement: HeartRateMeasurement
            do {
                let bytes = try HexBytes.parse(hex)
                guard bytes.count <= maximumMeasurementBytes else {
                    throw JSONFieldError(.invalidValue, path: reader.path("hrm"), "hrm is \(bytes.count) bytes; at most \(maximumMeasurementBytes)")
                }
                measurement = try HeartRateMeasurementCodec.decode(bytes)
            } catch let error as JSONFieldError {
                throw error
            } catch let error as HexBytesError {
                throw JSONFieldError(.invalidValue, path: reader.path("hrm"), error.description)
            } catch let error as HeartRateMeasurementDecodingError {
                throw JSONFieldError(.invalidValue, path: reader.path("hrm"), error.description)
            } catch {
                throw JSONFieldError(.invalidValue, path: reader.path("hrm"), "\(error)")
            }
            // 0 means "no reading" (a strap off the skin sends it); anything else must be a heart
            // rate a person can have, as for uploads (Core's PhysiologicalLimits).
            let bpm = Double(measurement.beatsPerMinute)
            let plausible = PhysiologicalLimits.plausibleHeartRate
            guard bpm == 0 || plausible.contains(bpm) else {
                throw JSONFieldError(
                    .invalidValue, path: reader.path("hrm"),
                    "\(Int(bpm)) bpm is not a heart rate (\(Int(plausible.lowerBound))–\(Int(plausible.upperBound)), or 0 for none)")
            }
            let battery = try reader.optionalInteger("battery")
            if let battery, !(0...100).contains(battery) {
                throw JSONFieldError(.invalidValue, path: reader.path("battery"), "battery is a percentage from 0 to 100")
            }
            let rssi = try reader.optionalInteger("rssi")
            if let rssi, !(-127...20).contains(rssi) {
                throw JSONFieldError(.invalidValue, path: reader.path("rssi"), "rssi is in dBm from -127 to 20")
            }
            return .reading(GatewayReading(sensor: name, sequence: seq, atMilliseconds: at, measurement: measurement, battery: battery, rssi: rssi))
        } catch {
            return .refused(sensor: sensor, sequence: sequence, detail: error.description)
        }
    }

    private static func sensorName(_ reader: JSONObjectReader) throws(JSONFieldError) -> String {
        let name = try reader.string("sensor")
        // Printable ASCII (a BLE address, `ant:…`, `web:…`) is decided from the bytes: the
        // Unicode categories below took 3.7 % of the server's CPU at 10,000 straps (perf).
        let utf8 = name.utf8
        if !utf8.isEmpty, utf8.count <= maximumSensorLength, utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return name }
        guard !name.isEmpty, name.count <= maximumSensorLength,
            name.unicodeScalars.allSatisfy({ !$0.properties.generalCategory.isControlOrFormat })
        else {
            throw JSONFieldError(.invalidValue, path: reader.path("sensor"), "sensor is 1–\(maximumSensorLength) printable characters")
        }
        return name
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isControlOrFormat: Bool { self == .control || self == .format || self == .lineSeparator || self == .paragraphSeparator }
}
