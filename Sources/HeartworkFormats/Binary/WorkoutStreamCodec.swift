import HeartworkCore

/// Compact binary blobs for a workout's time series, one blob per stream, each starting
/// with a format byte so later versions can change the layout:
///
/// - heart rate (format 1): one byte per second, bpm 1–255, 0 for a missing second
///   (2 h = 7,201 bytes);
/// - RR intervals (format 1): uint16 little-endian in 1/1024 s, the Bluetooth resolution;
/// - GPS track (format 1): point count, a flags byte (bit 0: elevations present), then per
///   point zig-zag varint deltas of latitude and longitude in 1e−7° (≈1 cm), time in ms and,
///   when present, elevation in cm. Typical fixes take 6–8 bytes instead of 32.
public enum WorkoutStreamCodec {
    static let format: UInt8 = 1

    // MARK: Heart rate

    public static func encodeHeartRate(_ beatsPerMinute: [Int?]) -> [UInt8] {
        var bytes = [format]
        bytes.reserveCapacity(beatsPerMinute.count + 1)
        for value in beatsPerMinute { bytes.append(UInt8(clamping: value ?? 0)) }
        return bytes
    }

    public static func decodeHeartRate(_ bytes: [UInt8]) throws(StreamDecodingError) -> [Int?] {
        try checkFormat(bytes, stream: "heart rate")
        return bytes.dropFirst().map { $0 == 0 ? nil : Int($0) }
    }

    // MARK: RR intervals

    public static func encodeRRIntervals(_ milliseconds: [Double]) -> [UInt8] {
        var bytes = [format]
        bytes.reserveCapacity(milliseconds.count * 2 + 1)
        for value in milliseconds {
            let ticks = RRIntervalUnit.ticks(fromMilliseconds: value) ?? UInt16.max
            bytes.append(UInt8(truncatingIfNeeded: ticks))
            bytes.append(UInt8(truncatingIfNeeded: ticks >> 8))
        }
        return bytes
    }

    public static func decodeRRIntervals(_ bytes: [UInt8]) throws(StreamDecodingError) -> [Double] {
        try checkFormat(bytes, stream: "RR")
        guard (bytes.count - 1) % 2 == 0 else { throw .truncated(stream: "RR", offset: bytes.count - 1) }
        var values = [Double]()
        values.reserveCapacity((bytes.count - 1) / 2)
        var offset = 1
        while offset < bytes.count {
            values.append(RRIntervalUnit.milliseconds(fromTicks: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8))
            offset += 2
        }
        return values
    }

    // MARK: GPS track

    public static func encodeTrack(_ points: [GeoPoint]) -> [UInt8] {
        var bytes = [format]
        let hasElevation = points.contains { $0.elevationMeters != nil }
        appendVarint(UInt64(points.count), to: &bytes)
        bytes.append(hasElevation ? 1 : 0)
        var previous = (latitude: Int64(0), longitude: Int64(0), time: Int64(0), elevation: Int64(0))
        for point in points {
            let latitude = Int64((point.latitudeDegrees * 1e7).rounded())
            let longitude = Int64((point.longitudeDegrees * 1e7).rounded())
            let time = Int64(((point.timeSeconds ?? 0) * 1000).rounded())
            appendSigned(latitude - previous.latitude, to: &bytes)
            appendSigned(longitude - previous.longitude, to: &bytes)
            appendSigned(time - previous.time, to: &bytes)
            previous = (latitude, longitude, time, previous.elevation)
            if hasElevation {
                let elevation = Int64(((point.elevationMeters ?? 0) * 100).rounded())
                appendSigned(elevation - previous.elevation, to: &bytes)
                previous.elevation = elevation
            }
        }
        return bytes
    }

    public static func decodeTrack(_ bytes: [UInt8]) throws(StreamDecodingError) -> [GeoPoint] {
        try checkFormat(bytes, stream: "GPS")
        var offset = 1
        let count = try readVarint(bytes, &offset)
        guard count <= UInt64(bytes.count), offset < bytes.count else { throw .truncated(stream: "GPS", offset: offset) }
        let hasElevation = bytes[offset] & 1 == 1
        offset += 1
        var points = [GeoPoint]()
        points.reserveCapacity(Int(count))
        var latitude = Int64(0), longitude = Int64(0), time = Int64(0), elevation = Int64(0)
        for _ in 0..<count {
            latitude = latitude &+ (try readSigned(bytes, &offset))
            longitude = longitude &+ (try readSigned(bytes, &offset))
            time = time &+ (try readSigned(bytes, &offset))
            if hasElevation { elevation = elevation &+ (try readSigned(bytes, &offset)) }
            do {
                points.append(try GeoPoint(
                    latitudeDegrees: Double(latitude) / 1e7, longitudeDegrees: Double(longitude) / 1e7,
                    elevationMeters: hasElevation ? Double(elevation) / 100 : nil, timeSeconds: Double(time) / 1000))
            } catch {
                throw .invalidValue(stream: "GPS", detail: error.description)
            }
        }
        return points
    }

    // MARK: Varints

    private static func checkFormat(_ bytes: [UInt8], stream: String) throws(StreamDecodingError) {
        guard let first = bytes.first else { throw .truncated(stream: stream, offset: 0) }
        guard first == format else { throw .unknownFormat(stream: stream, format: first) }
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(remaining & 0x7F) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    private static func appendSigned(_ value: Int64, to bytes: inout [UInt8]) {
        appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
    }

    private static func readVarint(_ bytes: [UInt8], _ offset: inout Int) throws(StreamDecodingError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 64 else { throw .truncated(stream: "GPS", offset: offset) }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    private static func readSigned(_ bytes: [UInt8], _ offset: inout Int) throws(StreamDecodingError) -> Int64 {
        let raw = try readVarint(bytes, &offset)
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
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
