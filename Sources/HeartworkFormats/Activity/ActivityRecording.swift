import Foundation

/// An activity as a device recorded it, in SI units: what every activity file format reads into
/// and writes from (FIT, TCX, GPX; see `ActivityFiles`). Shaped on FIT's messages (records,
/// laps, sessions, hrv); the other formats fill what they have. Only the fields Heartwork uses.
public struct ActivityRecording: Sendable, Hashable {
    /// One sample. The optional fields are stored without Swift's per-optional padding (a
    /// `Double?` takes 16 bytes in a struct): the values in plain words and which of them are
    /// present in a bit set, 88 bytes a record instead of 152. A 4-hour 1 Hz FIT file has
    /// 14,400 records, so the recording is 1.2 MB rather than 2.2 MB: 230 fewer pages for the
    /// kernel to fault in, the largest single cost of `heartwork inspect` after start-up
    /// (Benchmarks/fit_benchmark.py). The public properties are the same optionals as before.
    public struct Record: Sendable, Hashable {
        public var time: Date
        private var words: (Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0)
        private var integers: (Int, Int, Int, Int) = (0, 0, 0, 0)
        private var present: UInt16 = 0

        public init(
            time: Date, heartRate: Int? = nil, latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil,
            distance: Double? = nil, speed: Double? = nil, cadence: Int? = nil, power: Int? = nil, temperature: Int? = nil
        ) {
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

        public var heartRate: Int? {
            get { present & 1 << 0 != 0 ? integers.0 : nil }
            set {
                integers.0 = newValue ?? 0
                mark(0, newValue != nil)
            }
        }
        /// Degrees (from semicircles: × 180 / 2³¹).
        public var latitude: Double? {
            get { present & 1 << 1 != 0 ? words.0 : nil }
            set {
                words.0 = newValue ?? 0
                mark(1, newValue != nil)
            }
        }
        public var longitude: Double? {
            get { present & 1 << 2 != 0 ? words.1 : nil }
            set {
                words.1 = newValue ?? 0
                mark(2, newValue != nil)
            }
        }
        /// Metres (altitude / 5 − 500; enhanced_altitude preferred).
        public var altitude: Double? {
            get { present & 1 << 3 != 0 ? words.2 : nil }
            set {
                words.2 = newValue ?? 0
                mark(3, newValue != nil)
            }
        }
        /// Metres from the start.
        public var distance: Double? {
            get { present & 1 << 4 != 0 ? words.3 : nil }
            set {
                words.3 = newValue ?? 0
                mark(4, newValue != nil)
            }
        }
        /// Metres per second (enhanced_speed preferred).
        public var speed: Double? {
            get { present & 1 << 5 != 0 ? words.4 : nil }
            set {
                words.4 = newValue ?? 0
                mark(5, newValue != nil)
            }
        }
        public var cadence: Int? {
            get { present & 1 << 6 != 0 ? integers.1 : nil }
            set {
                integers.1 = newValue ?? 0
                mark(6, newValue != nil)
            }
        }
        public var power: Int? {
            get { present & 1 << 7 != 0 ? integers.2 : nil }
            set {
                integers.2 = newValue ?? 0
                mark(7, newValue != nil)
            }
        }
        /// °C.
        public var temperature: Int? {
            get { present & 1 << 8 != 0 ? integers.3 : nil }
            set {
                integers.3 = newValue ?? 0
                mark(8, newValue != nil)
            }
        }

        private mutating func mark(_ bit: UInt16, _ isPresent: Bool) {
            if isPresent { present |= 1 << bit } else { present &= ~(1 << bit) }
        }

        // Tuples are neither Equatable nor Hashable: compare and hash the public values (a NaN
        // compares as the optional Double it was stored from would).
        public static func == (a: Record, b: Record) -> Bool {
            a.time == b.time && a.heartRate == b.heartRate && a.latitude == b.latitude && a.longitude == b.longitude && a.altitude == b.altitude
                && a.distance == b.distance && a.speed == b.speed && a.cadence == b.cadence && a.power == b.power
                && a.temperature == b.temperature
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(time)
            hasher.combine(heartRate)
            hasher.combine(latitude)
            hasher.combine(longitude)
            hasher.combine(altitude)
            hasher.combine(distance)
            hasher.combine(speed)
            hasher.combine(cadence)
            hasher.combine(power)
            hasher.combine(temperature)
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
        /// FIT's sub-sport (1 treadmill, 6 indoor cycling, 58 virtual activity …).
        public var subSport: Int?
        public var start: Date?
        public var elapsedSeconds: Double?
        public var timerSeconds: Double?
        public var distance: Double?
        public var calories: Int?
        public var averageHeartRate: Int?
        public var maximumHeartRate: Int?

        public init(
            sport: Int? = nil, subSport: Int? = nil, start: Date? = nil, elapsedSeconds: Double? = nil, timerSeconds: Double? = nil,
            distance: Double? = nil, calories: Int? = nil, averageHeartRate: Int? = nil, maximumHeartRate: Int? = nil
        ) {
            self.sport = sport
            self.subSport = subSport
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
    /// The activity's own name (a GPX track's or file's `name`), when the file gives one.
    public var name: String?
    /// A virtual activity (Zwift and the like; a GPX `type` naming one): indoors, whatever
    /// its track says.
    public var isVirtual = false
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
