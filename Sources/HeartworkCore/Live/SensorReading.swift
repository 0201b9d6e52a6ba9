/// One reading of a strap as stored: what its Heart Rate Measurement said, when the gateway
/// heard it, and the gateway's per-sensor sequence number (the key that makes a resent
/// reading count once).
public struct SensorReading: Sendable, Hashable {
    public var sequence: Int
    /// Unix milliseconds at the gateway.
    public var atMilliseconds: Int
    public var beatsPerMinute: Int
    public var contact: SensorContact
    public var battery: Int?
    public var rssi: Int?
    /// RR intervals in 1/1024 s, as the strap sent them.
    public var rrIntervalTicks: [UInt16]

    public init(
        sequence: Int, atMilliseconds: Int, beatsPerMinute: Int, contact: SensorContact, battery: Int? = nil, rssi: Int? = nil,
        rrIntervalTicks: [UInt16] = []
    ) {
        self.sequence = sequence
        self.atMilliseconds = atMilliseconds
        self.beatsPerMinute = beatsPerMinute
        self.contact = contact
        self.battery = battery
        self.rssi = rssi
        self.rrIntervalTicks = rrIntervalTicks
    }

    public init(sequence: Int, atMilliseconds: Int, measurement: HeartRateMeasurement, battery: Int? = nil, rssi: Int? = nil) {
        self.init(
            sequence: sequence, atMilliseconds: atMilliseconds, beatsPerMinute: Int(measurement.beatsPerMinute),
            contact: measurement.sensorContact, battery: battery, rssi: rssi, rrIntervalTicks: measurement.rrIntervalTicks)
    }

    public var rrIntervalsMilliseconds: [Double] { rrIntervalTicks.map(RRIntervalUnit.milliseconds(fromTicks:)) }
}
