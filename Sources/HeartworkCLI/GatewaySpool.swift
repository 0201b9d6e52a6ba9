import Foundation
import HeartworkCore
import HeartworkFormats

/// What `heartwork gateway` keeps between runs, in one small JSON file: each strap's next
/// sequence number (or, while running, its reservation: see `SequenceBook`) and the readings
/// the server had not acknowledged when the gateway stopped, sent first at the next start.
///
///     {"version": 1, "clean": true,
///      "sequences": [{"sensor": "A0:9E:1A:12:34:56", "next": 1043}],
///      "readings": [{"sensor": "A0:9E:1A:12:34:56", "seq": 1042, "at": 1795400000000, "hrm": "16480004", "battery": 81, "rssi": -60}]}
///
/// Written to a temporary file beside it and renamed, so a crash leaves the old file or the
/// new one, never half of one.
struct GatewaySpool: Sendable, Equatable {
    var sequences: [String: Int] = [:]
    var readings: [GatewayReading] = []
    /// Whether a clean stop wrote it (else `sequences` are reservations of a running gateway).
    var clean = true

    /// `--spool`'s default: `$XDG_STATE_HOME/heartwork/gateway-spool.json`, else
    /// `~/.local/state/heartwork/gateway-spool.json`.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/heartwork/gateway-spool.json" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/state/heartwork/gateway-spool.json"
    }

    func encoded() -> [UInt8] {
        var json = JSONWriter(capacity: 256 + readings.count * 110)
        json.beginObject()
        json.field("version", 1)
        json.field("clean", clean)
        json.key("sequences")
        json.beginArray()
        for (sensor, next) in sequences.sorted(by: { $0.key < $1.key }) {
            json.beginObject()
            json.field("sensor", sensor)
            json.field("next", next)
            json.endObject()
        }
        json.endArray()
        json.key("readings")
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
        return json.bytes + [UInt8(ascii: "\n")]
    }

    static func decode(_ bytes: [UInt8]) throws -> GatewaySpool {
        let document: JSONValue
        do { document = try JSONValue.parse(bytes) } catch { throw SpoolError("not JSON: \(error)") }
        guard case .number(let version) = document["version"], version == 1 else { throw SpoolError("not a version 1 gateway spool") }
        var spool = GatewaySpool()
        if case .bool(let clean) = document["clean"] { spool.clean = clean }
        if case .array(let entries) = document["sequences"] {
            for entry in entries {
                guard case .string(let sensor) = entry["sensor"], case .number(let next) = entry["next"], next >= 0, next < 9e15 else {
                    throw SpoolError("a sequence entry without its sensor or next number")
                }
                spool.sequences[sensor] = Int(next)
            }
        }
        if case .array(let entries) = document["readings"] {
            for (index, entry) in entries.enumerated() {
                guard case .string(let sensor) = entry["sensor"], case .number(let seq) = entry["seq"], case .number(let at) = entry["at"],
                    case .string(let hex) = entry["hrm"], let raw = try? HexBytes.parse(hex), let measurement = try? HeartRateMeasurementCodec.decode(raw)
                else { throw SpoolError("readings[\(index)] is not a reading") }
                var battery: Int?
                var rssi: Int?
                if case .number(let value) = entry["battery"] { battery = Int(value) }
                if case .number(let value) = entry["rssi"] { rssi = Int(value) }
                spool.readings.append(
                    GatewayReading(sensor: sensor, sequence: Int(seq), atMilliseconds: Int(at), measurement: measurement, battery: battery, rssi: rssi, rawMeasurement: raw))
            }
        }
        return spool
    }

    /// The spool at `path`; an empty one when there is no file.
    static func load(path: String) throws -> GatewaySpool {
        guard let data = FileManager.default.contents(atPath: path) else { return GatewaySpool() }
        do { return try decode(Array(data)) } catch { throw SpoolError("\(path): \(error)") }
    }

    func save(path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        try Data(encoded()).write(to: temporary)
        if rename(temporary.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw SpoolError("\(path): \(reason)")
        }
    }
}

struct SpoolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
