import HeartworkCore

/// One row of the live feed's log (`sensor_log`, SQLite): the readings one group commit
/// added, by sensor, before they are folded into their sensors' blocks. Appending a row costs
/// the bytes of what arrived, whatever the size of the blocks it belongs to.
///
/// Layout: per sensor, the id's length (UInt8) and UTF-8 bytes, the length of its readings
/// (UInt32, little-endian), and the readings as a `SensorBlockCodec` block.
public enum SensorLogCodec {
    public struct Entry: Sendable, Hashable {
        public var sensorID: String
        public var readings: [SensorReading]

        public init(sensorID: String, readings: [SensorReading]) {
            self.sensorID = sensorID
            self.readings = readings
        }
    }

    /// `readings` of each entry sorted by sequence, each once (as `SensorBlockCodec.merge`
    /// gives them); ids of at most 255 bytes (sensor ids are UUIDs).
    public static func encode(_ entries: [Entry]) -> [UInt8] {
        var bytes = [UInt8]()
        for entry in entries {
            let id = Array(entry.sensorID.utf8.prefix(255))
            bytes.append(UInt8(id.count))
            bytes += id
            let block = SensorBlockCodec.encode(entry.readings)
            let length = UInt32(truncatingIfNeeded: block.count)
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
            bytes += block
        }
        return bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(SensorBlockError) -> [Entry] {
        var entries = [Entry]()
        var offset = 0
        func take(_ count: Int) throws(SensorBlockError) -> ArraySlice<UInt8> {
            guard count >= 0, count <= bytes.count - offset else { throw .truncated(offset) }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }
        while offset < bytes.count {
            let idLength = Int(try take(1).first ?? 0)
            let id = String(decoding: try take(idLength), as: UTF8.self)
            var length = 0
            for (index, byte) in try take(4).enumerated() { length |= Int(byte) << (8 * index) }
            let block = Array(try take(length))
            entries.append(Entry(sensorID: id, readings: try SensorBlockCodec.decode(block)))
        }
        return entries
    }
}
