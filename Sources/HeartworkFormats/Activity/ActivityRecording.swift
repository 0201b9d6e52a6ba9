import Foundation

/// An activity as a device recorded it, in SI units: what every activity file format reads into
/// and writes from (FIT, TCX, GPX; see `ActivityFiles`). Shaped on FIT's messages (records,
/// laps, sessions, hrv); the other formats fill what they have. Only the fields Heartwork uses.
public struct ActivityRecording: Sendable, Hashable {
    public struct Record: Sendable, Hashable {
        public var time: Date
        public var heartRate: Int?
        /// Degrees (from semicircles: × 180 / 2³¹).
        public var latitude: Double?
        public var longitude: Double?
        /// Metres (altitude / 5 − 500; enhanced_altitude preferred).
        public var altitude: Double?
        /// Metres from the start.
        public var distance: Double?
        /// Metres per second (enhanced_speed preferred).
        public var speed: Double?
        public var cadence: Int?
        public var power: Int?
        /// °C.
        public var temperature: Int?

        public init(time: Date, heartRate: Int? = nil, latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil,
                    distance: Double? = nil, speed: Double? = nil, cadence: Int? = nil, power: Int? = nil, temperature: Int? = nil) {
            self.time = time
            self.heartRate = heartRate
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.distance = distance
            self.speed = speed
            self.cadence = cadence
            self.power = power
            self.temperature = temperature
        }
    }

    public struct Lap: Sendable, Hashable {
        public var start: Date?
        public var end: Date?
        public var elapsedSeconds: Double?
        public var distance: Double?
        public var averageHeartRate: Int?
        public var maximumHeartRate: Int?

        public init(start: Date? = nil, end: Date? = nil, elapsedSeconds: Double? = nil, distance: Double? = nil, averageHeartRate: Int? = nil, maximumHeartRate: Int? = nil) {
            self.start = start
            self.end = end
            self.elapsedSeconds = elapsedSeconds
            self.distance = distance
            self.averageHeartRate = averageHeartRate
            self.maximumHeartRate = maximumHeartRate
        }
    }

    public struct Session: Sendable, Hashable {
        /// FIT's sport enum (1 running, 2 cycling, 5 swimming, 11 walking, 4 fitness equipment …).
        public var sport: Int?
        public var start: Date?
        public var elapsedSeconds: Double?
        public var timerSeconds: Double?
        public var distance: Double?
        public var calories: Int?
        public var averageHeartRate: Int?
        public var maximumHeartRate: Int?

        public init(sport: Int? = nil, start: Date? = nil, elapsedSeconds: Double? = nil, timerSeconds: Double? = nil, distance: Double? = nil,
                    calories: Int? = nil, averageHeartRate: Int? = nil, maximumHeartRate: Int? = nil) {
            self.sport = sport
            self.start = start
            self.elapsedSeconds = elapsedSeconds
            self.timerSeconds = timerSeconds
            self.distance = distance
            self.calories = calories
            self.averageHeartRate = averageHeartRate
            self.maximumHeartRate = maximumHeartRate
        }
    }

    /// The recording device as the file names it (TCX Creator/Name, GPX creator; FIT files
    /// give manufacturer, product and serial number instead).
    public var creator: String?
    /// file_id.type (4 = activity).
    public var fileType: Int?
    public var manufacturer: Int?
    public var product: Int?
    public var serialNumber: UInt64?
    public var created: Date?
    public var records: [Record] = []
    public var laps: [Lap] = []
    public var sessions: [Session] = []
    /// Beat-to-beat intervals from hrv messages, milliseconds.
    public var rrIntervalsMilliseconds: [Double] = []
    public var events = 0
    public var devices = 0
    /// What stopped or troubled the reading (offsets in bytes); the rest is what was readable.
    public var warnings: [FileWarning] = []

    public init() {}

    /// The device, as one string: with the start time, what identifies a recording (the same
    /// activity uploaded twice). Nil when the file does not say.
    public var device: String? {
        if let creator = creator?.trimmingCharacters(in: .whitespacesAndNewlines), !creator.isEmpty {
            return String((serialNumber.map { "\(creator)/\($0)" } ?? creator).prefix(200))
        }
        guard manufacturer != nil || product != nil || serialNumber != nil else { return nil }
        return "fit:\(manufacturer.map(String.init) ?? "-")/\(product.map(String.init) ?? "-")/\(serialNumber.map(String.init) ?? "-")"
    }
}

