import HeartworkCore

/// Compact binary blobs for a workout's time series, one blob per stream, each starting
/// with a format byte so later versions can change the layout (older formats stay readable):
///
/// - heart rate (format 1): one byte per second, bpm 1–255, 0 for a missing second
///   (2 h = 7,201 bytes);
/// - RR intervals (format 2): each interval as a little-endian IEEE 754 double, so it comes
///   back exactly as sent, whether a strap's 1/1024 s or a file's milliseconds (9,000
///   intervals, two hours, take 72 kB); format 1 was uint16 in 1/1024 s, which rounded
///   uploaded values;
/// - GPS track (format 2): point count, then per point zig-zag varint deltas of latitude and
///   longitude in 1e−7° (≈1 cm), the time delta in ms with a bit saying whether the point has
///   an elevation, and then the elevation delta in cm. Format 1 had one flag for the whole
///   track, so a point without elevation came back at 0 m.
public enum WorkoutStreamCodec {
    static let heartRateFormat: UInt8 = 1
    static let rrFormat: UInt8 = 2
    static let trackFormat: UInt8 = 2

    // MARK: Heart rate

    public static func encodeHeartRate(_ beatsPerMinute: [Int?]) -> [UInt8] {
        var bytes = [heartRateFormat]
        bytes.reserveCapacity(beatsPerMinute.count + 1)
        for value in beatsPerMinute { bytes.append(UInt8(clamping: value ?? 0)) }
        return bytes
    }

    public static func decodeHeartRate(_ bytes: [UInt8]) throws(StreamDecodingError) -> [Int?] {
        try checkFormat(bytes, stream: "heart rate", accepted: [1])
        return bytes.dropFirst().map { $0 == 0 ? nil : Int($0) }
    }

    // MARK: RR intervals

    public static func encodeRRIntervals(_ milliseconds: [Double]) -> [UInt8] {
        var bytes = [rrFormat]
        bytes.reserveCapacity(milliseconds.count * 8 + 1)
        for value in milliseconds {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    public static func decodeRRIntervals(_ bytes: [UInt8]) throws(StreamDecodingError) -> [Double] {
        switch try checkFormat(bytes, stream: "RR", accepted: [1, 2]) {
        case 1:
            guard (bytes.count - 1) % 2 == 0 else { throw .truncated(stream: "RR", offset: bytes.count - 1) }
            var values = [Double]()
            values.reserveCapacity((bytes.count - 1) / 2)
            var offset = 1
            while offset + 1 < bytes.count {
                values.append(RRIntervalUnit.milliseconds(fromTicks: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8))
                offset += 2
            }
            return values
        default:
            guard (bytes.count - 1) % 8 == 0 else { throw .truncated(stream: "RR", offset: bytes.count - 1) }
            var values = [Double]()
            values.reserveCapacity((bytes.count - 1) / 8)
            var offset = 1
            while offset + 7 < bytes.count {
                var pattern: UInt64 = 0
                for index in 0..<8 { pattern |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
                let value = Double(bitPattern: pattern)
                guard value.isFinite else { throw .invalidValue(stream: "RR", detail: "interval \((offset - 1) / 8) is not a finite number") }
                values.append(value)
                offset += 8
            }
            return values
        }
    }

    // MARK: GPS track

    public static func encodeTrack(_ points: [GeoPoint]) -> [UInt8] {
        var bytes = [trackFormat]
        appendVarint(UInt64(points.count), to: &bytes)
        var previous = (latitude: Int64(0), longitude: Int64(0), time: Int64(0), elevation: Int64(0))
        for point in points {
            let latitude = Int64((point.latitudeDegrees * 1e7).rounded())
            let longitude = Int64((point.longitudeDegrees * 1e7).rounded())
            let time = Int64((max(-1e12, min(1e12, point.timeSeconds ?? 0)) * 1000).rounded())
            appendSigned(latitude - previous.latitude, to: &bytes)
            appendSigned(longitude - previous.longitude, to: &bytes)
            let timeDelta = UInt64(bitPattern: zigZag(time - previous.time))
            appendVarint(timeDelta << 1 | (point.elevationMeters == nil ? 0 : 1), to: &bytes)
            previous = (latitude, longitude, time, previous.elevation)
            if let elevationMeters = point.elevationMeters {
                let elevation = Int64((max(-1e7, min(1e7, elevationMeters)) * 100).rounded())
                appendSigned(elevation - previous.elevation, to: &bytes)
                previous.elevation = elevation
            }
        }
        return bytes
    }

    public static func decodeTrack(_ bytes: [UInt8]) throws(StreamDecodingError) -> [GeoPoint] {
        let format = try checkFormat(bytes, stream: "GPS", accepted: [1, 2])
        var offset = 1
        let count = try readVarint(bytes, &offset, stream: "GPS")
        guard count <= UInt64(bytes.count) else { throw .truncated(stream: "GPS", offset: offset) }
        var wholeTrackHasElevation = false
        if format == 1 {
            guard offset < bytes.count else { throw .truncated(stream: "GPS", offset: offset) }
            wholeTrackHasElevation = bytes[offset] & 1 == 1
            offset += 1
        }
        var points = [GeoPoint]()
        points.reserveCapacity(Int(count))
        var latitude = Int64(0)
        var longitude = Int64(0)
        var time = Int64(0)
        var elevation = Int64(0)
        for _ in 0..<count {
            latitude = latitude &+ (try readSigned(bytes, &offset, stream: "GPS"))
            longitude = longitude &+ (try readSigned(bytes, &offset, stream: "GPS"))
            var hasElevation = wholeTrackHasElevation
            if format == 1 {
                time = time &+ (try readSigned(bytes, &offset, stream: "GPS"))
            } else {
                let raw = try readVarint(bytes, &offset, stream: "GPS")
                hasElevation = raw & 1 == 1
                time = time &+ unZigZag(raw >> 1)
            }
            if hasElevation { elevation = elevation &+ (try readSigned(bytes, &offset, stream: "GPS")) }
            do {
                points.append(
                    try GeoPoint(
                        latitudeDegrees: Double(latitude) / 1e7, longitudeDegrees: Double(longitude) / 1e7,
                        elevationMeters: hasElevation ? Double(elevation) / 100 : nil, timeSeconds: Double(time) / 1000))
            } catch {
                throw .invalidValue(stream: "GPS", detail: error.description)
            }
        }
        return points
    }

    // MARK: Varints

    @discardableResult
    private static func checkFormat(_ bytes: [UInt8], stream: String, accepted: Set<UInt8>) throws(StreamDecodingError) -> UInt8 {
        guard let first = bytes.first else { throw .truncated(stream: stream, offset: 0) }
        guard accepted.contains(first) else { throw .unknownFormat(stream: stream, format: first) }
        return first
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(remaining & 0x7F) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    private static func zigZag(_ value: Int64) -> Int64 { (value << 1) ^ (value >> 63) }
    private static func unZigZag(_ raw: UInt64) -> Int64 { Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1) }

    private static func appendSigned(_ value: Int64, to bytes: inout [UInt8]) {
        appendVarint(UInt64(bitPattern: zigZag(value)), to: &bytes)
    }

    private static func readVarint(_ bytes: [UInt8], _ offset: inout Int, stream: String) throws(StreamDecodingError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 64 else { throw .truncated(stream: stream, offset: offset) }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    private static func readSigned(_ bytes: [UInt8], _ offset: inout Int, stream: String) throws(StreamDecodingError) -> Int64 {
        unZigZag(try readVarint(bytes, &offset, stream: stream))
    }
}

/// A stored stream that cannot be read back.
public enum StreamDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    case truncated(stream: String, offset: Int)
    case unknownFormat(stream: String, format: UInt8)
    case invalidValue(stream: String, detail: String)

    public var description: String {
        switch self {
        case .truncated(let stream, let offset): "\(stream) stream is cut short at byte \(offset)"
        case .unknownFormat(let stream, let format): "\(stream) stream has unknown format \(format)"
        case .invalidValue(let stream, let detail): "\(stream) stream holds an invalid value: \(detail)"
        }
    }
}
