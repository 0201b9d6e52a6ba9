import Foundation
import HeartworkCore

/// One day's samples of one kind as bytes (issue 11: "samples live compactly, blocks per day
/// and type, not a row per sample"). Layout (version 1), all integers LEB128 varints, signed
/// ones zigzag-encoded:
///
///     "HB" 0x01  kind(1)  count
///     sources: n, then n × (length, UTF-8)      devices: the same (index 0 = none)
///     per sample, by start:  start − previous start (ms, signed; the first from 0)
///                            end − start (ms)   UTC offset (minutes, signed)
///                            value × 1000 (rounded, signed)   source index   device index
///                            beats: n, then n × (ms after start, signed; bpm × 100)
///
/// A per-minute heart-rate sample takes about 11 bytes: five years of them ≈ 29 MB. Values
/// keep three decimals (a gram, a millimetre, a thousandth of a beat).
public enum HealthBlockCodec {
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    static let kinds = HealthSample.Kind.allCases

    public static func encode(_ samples: [HealthSample]) -> [UInt8] {
        let sorted = samples.sorted { $0.start < $1.start }
        var out: [UInt8] = [0x48, 0x42, 0x01]
        let kind = sorted.first?.kind ?? .heartRate
        out.append(UInt8(kinds.firstIndex(of: kind) ?? 0))
        putUnsigned(UInt64(sorted.count), &out)
        var sources = [String: Int]()
        var sourceList = [String]()
        var devices = [String: Int]()
        var deviceList = [String]()
        for sample in sorted {
            if sources[sample.source] == nil {
                sources[sample.source] = sourceList.count
                sourceList.append(sample.source)
            }
            if let device = sample.device, devices[device] == nil {
                devices[device] = deviceList.count + 1
                deviceList.append(device)
            }
        }
        for list in [sourceList, deviceList] {
            putUnsigned(UInt64(list.count), &out)
            for text in list {
                let bytes = Array(text.utf8.prefix(1000))
                putUnsigned(UInt64(bytes.count), &out)
                out += bytes
            }
        }
        var previous: Int64 = 0
        for sample in sorted {
            let start = milliseconds(sample.start)
            putSigned(start &- previous, &out)
            previous = start
            putUnsigned(UInt64(max(0, milliseconds(sample.end) &- start)), &out)
            putSigned(Int64(sample.utcOffsetSeconds / 60), &out)
            putSigned(scaled(sample.value, 1000), &out)
            putUnsigned(UInt64(sources[sample.source] ?? 0), &out)
            putUnsigned(UInt64(sample.device.flatMap { devices[$0] } ?? 0), &out)
            let beats = sample.beats ?? []
            putUnsigned(UInt64(beats.count), &out)
            for beat in beats {
                putSigned(scaled(beat.timeSeconds, 1000), &out)
                putUnsigned(UInt64(max(0, scaled(beat.beatsPerMinute, 100))), &out)
            }
        }
        return out
    }

    public static func decode(_ bytes: [UInt8]) throws(Failure) -> [HealthSample] {
        var reader = Reader(bytes: bytes)
        guard bytes.count >= 4, bytes[0] == 0x48, bytes[1] == 0x42 else { throw Failure(description: "not a health block") }
        guard bytes[2] == 0x01 else { throw Failure(description: "health block version \(bytes[2]) is not known") }
        guard Int(bytes[3]) < kinds.count else { throw Failure(description: "unknown sample kind \(bytes[3])") }
        let kind = kinds[Int(bytes[3])]
        reader.position = 4
        let count = try reader.count(limit: bytes.count)
        var lists = [[String]]()
        for _ in 0..<2 {
            let n = try reader.count(limit: bytes.count)
            var list = [String]()
            for _ in 0..<n {
                let length = try reader.count(limit: 1000)
                list.append(String(decoding: try reader.take(length), as: UTF8.self))
            }
            lists.append(list)
        }
        var samples = [HealthSample]()
        samples.reserveCapacity(count)
        var previous: Int64 = 0
        for _ in 0..<count {
            let (start, overflow) = previous.addingReportingOverflow(try reader.signed())
            guard !overflow else { throw Failure(description: "a start time out of range") }
            previous = start
            let duration = try reader.unsigned()
            guard duration < 1 << 40 else { throw Failure(description: "a duration out of range") }
            let offset = try reader.signed()
            guard Self.limited(offset, 18 * 60 + 1) else { throw Failure(description: "a UTC offset out of range") }
            let rawValue = try reader.signed()
            guard Self.limited(rawValue, 1 << 52) else { throw Failure(description: "a value out of range") }
            let value = Double(rawValue) / 1000
            let source = try reader.unsigned()
            let device = try reader.unsigned()
            guard source < UInt64(lists[0].count), device <= UInt64(lists[1].count) else { throw Failure(description: "a source or device index out of range") }
            let beatCount = try reader.count(limit: bytes.count)
            var beats = [TimedHeartRate]()
            for _ in 0..<beatCount {
                let rawTime = try reader.signed()
                let rawBPM = try reader.unsigned()
                guard Self.limited(rawTime, 1 << 52), rawBPM < 1 << 52 else { throw Failure(description: "a beat out of range") }
                let time = Double(rawTime) / 1000
                let bpm = Double(rawBPM) / 100
                beats.append(TimedHeartRate(timeSeconds: time, beatsPerMinute: bpm))
            }
            guard Self.limited(start, 1 << 50) else { throw Failure(description: "a start time out of range") }
            let startDate = Date(timeIntervalSince1970: Double(start) / 1000)
            samples.append(
                HealthSample(
                    kind: kind, start: startDate, end: startDate.addingTimeInterval(Double(duration) / 1000),
                    utcOffsetSeconds: Int(offset) * 60, value: value,
                    source: lists[0][Int(source)], device: device == 0 ? nil : lists[1][Int(device) - 1],
                    beats: beatCount == 0 ? nil : beats))
        }
        guard reader.position == bytes.count else { throw Failure(description: "\(bytes.count - reader.position) stray bytes after the samples") }
        return samples
    }

    /// A sample as it reads back from a block: times to the millisecond, the value to 1/1000,
    /// the offset to the minute. Samples are compared with their stored copies in this form,
    /// so one sent again (74.97979 kg) matches the copy that was stored (74.98 kg).
    public static func stored(_ sample: HealthSample) -> HealthSample {
        var copy = sample
        copy.start = Date(timeIntervalSince1970: Double(milliseconds(sample.start)) / 1000)
        copy.end = Date(timeIntervalSince1970: Double(max(milliseconds(sample.start), milliseconds(sample.end))) / 1000)
        copy.utcOffsetSeconds = sample.utcOffsetSeconds / 60 * 60
        copy.value = Double(scaled(sample.value, 1000)) / 1000
        return copy
    }

    /// −limit < value < limit, without `abs` (which traps on Int64.min).
    static func limited(_ value: Int64, _ limit: Int64) -> Bool { value > -limit && value < limit }

    static func milliseconds(_ date: Date) -> Int64 {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        return ms.isFinite && abs(ms) < 9e15 ? Int64(ms) : 0
    }

    static func scaled(_ value: Double, _ factor: Double) -> Int64 {
        let x = (value * factor).rounded()
        return x.isFinite && abs(x) < 9e15 ? Int64(x) : 0
    }

    static func putUnsigned(_ value: UInt64, _ out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func putSigned(_ value: Int64, _ out: inout [UInt8]) {
        putUnsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)), &out)
    }

    struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func unsigned() throws(Failure) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard position < bytes.count else { throw Failure(description: "the block ends inside a number") }
                let byte = bytes[position]
                position += 1
                guard shift < 64 else { throw Failure(description: "a number longer than 64 bits") }
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }

        mutating func signed() throws(Failure) -> Int64 {
            let raw = try unsigned()
            return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        }

        mutating func count(limit: Int) throws(Failure) -> Int {
            let value = try unsigned()
            guard value <= UInt64(limit) else { throw Failure(description: "a count of \(value) in a block of \(bytes.count) bytes") }
            return Int(value)
        }

        mutating func take(_ n: Int) throws(Failure) -> ArraySlice<UInt8> {
            guard n >= 0, position + n <= bytes.count else { throw Failure(description: "the block ends inside a name") }
            defer { position += n }
            return bytes[position..<(position + n)]
        }
    }
}
