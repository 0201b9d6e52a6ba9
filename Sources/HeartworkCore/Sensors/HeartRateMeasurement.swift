/// Sensor-contact status carried in bits 1–2 of the Heart Rate Measurement flags
/// (Bluetooth SIG Heart Rate Service 1.0, §3.1.1.2; seed-001 digest §5).
public enum SensorContact: String, Sendable, Hashable, Codable, CaseIterable {
    /// Values 0 and 1: the sensor does not report contact.
    case notSupported = "not-supported"
    /// Value 2: contact is supported but the skin is not touching the electrodes.
    case notDetected = "not-detected"
    /// Value 3: the electrodes are on the skin.
    case detected
}

/// One Heart Rate Measurement (characteristic 0x2A37) as a value.
///
/// RR intervals keep the wire resolution (1/1024 s ticks) so a measurement survives
/// a decode/encode round trip exactly; `rrIntervalsMilliseconds` converts for analysis.
public struct HeartRateMeasurement: Sendable, Hashable, Codable {
    /// Maximum number of RR intervals the Bluetooth specification lets one
    /// notification carry (20-byte payload, 8-bit heart rate, no energy field).
    public static let maximumRRIntervalCount = 9

    public var beatsPerMinute: UInt16
    public var sensorContact: SensorContact
    /// Accumulated energy expended in kilojoules (flag bit 3), if the sensor sends it.
    public var energyExpendedKilojoules: UInt16?
    /// RR intervals in units of 1/1024 s (flag bit 4), oldest first.
    public var rrIntervalTicks: [UInt16]

    public init(
        beatsPerMinute: UInt16,
        sensorContact: SensorContact = .notSupported,
        energyExpendedKilojoules: UInt16? = nil,
        rrIntervalTicks: [UInt16] = []
    ) {
        self.beatsPerMinute = beatsPerMinute
        self.sensorContact = sensorContact
        self.energyExpendedKilojoules = energyExpendedKilojoules
        self.rrIntervalTicks = rrIntervalTicks
    }

    /// RR intervals in milliseconds: ticks × 1000 / 1024 (Bluetooth HRS §3.1.1.5).
    public var rrIntervalsMilliseconds: [Double] {
        rrIntervalTicks.map(RRIntervalUnit.milliseconds(fromTicks:))
    }
}

/// Conversion between the Bluetooth RR resolution (1/1024 s) and milliseconds.
public enum RRIntervalUnit {
    public static let ticksPerSecond = 1024.0

    public static func milliseconds(fromTicks ticks: UInt16) -> Double {
        Double(ticks) * 1000.0 / ticksPerSecond
    }

    /// Nearest tick count for a duration in milliseconds, or nil when it does not fit in 16 bits.
    public static func ticks(fromMilliseconds milliseconds: Double) -> UInt16? {
        guard milliseconds.isFinite, milliseconds >= 0 else { return nil }
        let ticks = (milliseconds * ticksPerSecond / 1000.0).rounded()
        guard ticks <= Double(UInt16.max) else { return nil }
        return UInt16(ticks)
    }
}
