import HeartworkCore

/// Sensor blocks in format 1, as `SensorBlockCodec` wrote them until issue 26 (it now writes
/// format 2 and still reads format 1): the tests of the codec and of migration 023 make
/// their old blocks with it.
public enum SensorBlockFormat1 {
    public static func encode(_ readings: [SensorReading]) -> [UInt8] {
        func append(_ value: UInt64, bytes count: Int, to bytes: inout [UInt8]) {
            for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * index))) }
        }
        var bytes: [UInt8] = [1]
        append(UInt64(min(readings.count, Int(UInt16.max))), bytes: 2, to: &bytes)
        for reading in readings.prefix(Int(UInt16.max)) {
            append(UInt64(bitPattern: Int64(reading.sequence)), bytes: 8, to: &bytes)
            append(UInt64(bitPattern: Int64(reading.atMilliseconds)), bytes: 8, to: &bytes)
            append(UInt64(UInt16(clamping: reading.beatsPerMinute)), bytes: 2, to: &bytes)
            var flags: UInt8 =
                switch reading.contact {
                case .notSupported: 0
                case .notDetected: 1
                case .detected: 2
                }
            if reading.battery != nil { flags |= 0x04 }
            if reading.rssi != nil { flags |= 0x08 }
            bytes.append(flags)
            if let battery = reading.battery { bytes.append(UInt8(clamping: battery)) }
            if let rssi = reading.rssi { bytes.append(UInt8(bitPattern: Int8(clamping: rssi))) }
            let rr = reading.rrIntervalTicks.prefix(Int(UInt8.max))
            bytes.append(UInt8(rr.count))
            for tick in rr { append(UInt64(tick), bytes: 2, to: &bytes) }
        }
        return bytes
    }

}
