import HeartworkCore

/// Bytes of the Heart Rate Measurement characteristic (0x2A37), Bluetooth SIG Heart Rate
/// Service 1.0 §3.1: flags, heart rate (uint8, or uint16 LE when bit 0 is set), energy
/// expended (uint16 kJ, bit 3), RR intervals (uint16 LE in 1/1024 s, bit 4). Bits 1–2
/// carry sensor contact; bits 5–7 are reserved and ignored on receipt.
public enum HeartRateMeasurementCodec {
    public static let characteristicUUID: UInt16 = 0x2A37

    enum Flag {
        static let sixteenBitHeartRate: UInt8 = 0x01
        static let contactMask: UInt8 = 0x06
        static let energyExpendedPresent: UInt8 = 0x08
        static let rrIntervalsPresent: UInt8 = 0x10
    }

    /// Decodes one notification. Any number of RR intervals is accepted (a larger ATT MTU
    /// carries more than nine); an RR flag with no RR bytes yields none.
    public static func decode(_ bytes: [UInt8]) throws(HeartRateMeasurementDecodingError) -> HeartRateMeasurement {
        guard let flags = bytes.first else { throw .empty }
        var offset = 1

        let heartRateWidth = flags & Flag.sixteenBitHeartRate != 0 ? 2 : 1
        guard bytes.count >= offset + heartRateWidth else {
            throw .truncatedHeartRate(offset: offset, bitWidth: heartRateWidth * 8, available: bytes.count - offset)
        }
        let bpm = heartRateWidth == 2 ? littleEndianUInt16(bytes, at: offset) : UInt16(bytes[offset])
        offset += heartRateWidth

        var energy: UInt16?
        if flags & Flag.energyExpendedPresent != 0 {
            guard bytes.count >= offset + 2 else {
                throw .truncatedEnergyExpended(offset: offset, available: bytes.count - offset)
            }
            energy = littleEndianUInt16(bytes, at: offset)
            offset += 2
        }

        var rrTicks = [UInt16]()
        if flags & Flag.rrIntervalsPresent != 0 {
            let remaining = bytes.count - offset
            guard remaining % 2 == 0 else {
                throw .oddRRIntervalBytes(offset: offset, byteCount: remaining)
            }
            rrTicks.reserveCapacity(remaining / 2)
            while offset < bytes.count {
                rrTicks.append(littleEndianUInt16(bytes, at: offset))
                offset += 2
            }
        }
        // Without the RR flag, trailing bytes can only belong to a future revision's fields
        // (bits 5–7 are reserved for them); like the reserved bits, they are ignored.

        return HeartRateMeasurement(
            beatsPerMinute: bpm,
            sensorContact: contact(fromFlags: flags),
            energyExpendedKilojoules: energy,
            rrIntervalTicks: rrTicks
        )
    }

    /// Encodes a measurement with the smallest heart-rate field that holds it.
    public static func encode(_ measurement: HeartRateMeasurement) throws(HeartRateMeasurementEncodingError) -> [UInt8] {
        guard measurement.rrIntervalTicks.count <= HeartRateMeasurement.maximumRRIntervalCount else {
            throw .tooManyRRIntervals(count: measurement.rrIntervalTicks.count)
        }
        var flags: UInt8 = contactBits(measurement.sensorContact)
        var body = [UInt8]()
        if measurement.beatsPerMinute > UInt16(UInt8.max) {
            flags |= Flag.sixteenBitHeartRate
            appendLittleEndian(measurement.beatsPerMinute, to: &body)
        } else {
            body.append(UInt8(measurement.beatsPerMinute))
        }
        if let energy = measurement.energyExpendedKilojoules {
            flags |= Flag.energyExpendedPresent
            appendLittleEndian(energy, to: &body)
        }
        if !measurement.rrIntervalTicks.isEmpty {
            flags |= Flag.rrIntervalsPresent
            for ticks in measurement.rrIntervalTicks { appendLittleEndian(ticks, to: &body) }
        }
        return [flags] + body
    }

    private static func contact(fromFlags flags: UInt8) -> SensorContact {
        switch (flags & Flag.contactMask) >> 1 {
        case 3: .detected
        case 2: .notDetected
        default: .notSupported
        }
    }

    private static func contactBits(_ contact: SensorContact) -> UInt8 {
        switch contact {
        case .notSupported: 0
        case .notDetected: 2 << 1
        case .detected: 3 << 1
        }
    }
}

func littleEndianUInt16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
    UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
}

func appendLittleEndian(_ value: UInt16, to bytes: inout [UInt8]) {
    bytes.append(UInt8(truncatingIfNeeded: value))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
}

/// A Heart Rate Measurement payload that does not follow the specification.
public enum HeartRateMeasurementDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case truncatedHeartRate(offset: Int, bitWidth: Int, available: Int)
    case truncatedEnergyExpended(offset: Int, available: Int)
    case oddRRIntervalBytes(offset: Int, byteCount: Int)

    public var description: String {
        switch self {
        case .empty:
            "empty payload: a Heart Rate Measurement has at least a flags byte and a heart rate"
        case .truncatedHeartRate(let offset, let bits, let available):
            "truncated at byte offset \(offset): the flags announce \(bits == 8 ? "an 8-bit heart rate (1 byte)" : "a 16-bit heart rate (2 bytes)") but \(remaining(available))"
        case .truncatedEnergyExpended(let offset, let available):
            "truncated at byte offset \(offset): the flags announce a 16-bit energy expended field (2 bytes) but \(remaining(available))"
        case .oddRRIntervalBytes(let offset, let count):
            "RR intervals from byte offset \(offset) span \(count) byte\(count == 1 ? "" : "s"); each RR interval takes 2 bytes, so the count must be even"
        }
    }
}

private func remaining(_ count: Int) -> String {
    switch count {
    case 0: "no bytes remain"
    case 1: "only 1 byte remains"
    default: "\(count) bytes remain"
    }
}

public enum HeartRateMeasurementEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    case tooManyRRIntervals(count: Int)

    public var description: String {
        switch self {
        case .tooManyRRIntervals(let count):
            "\(count) RR intervals do not fit one notification; at most \(HeartRateMeasurement.maximumRRIntervalCount) do"
        }
    }
}
