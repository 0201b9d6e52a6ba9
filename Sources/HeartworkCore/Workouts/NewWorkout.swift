import Foundation

/// A workout as it comes in, before any rule is checked: what a JSON upload, a FIT or GPX
/// file and a watch import all produce. The workout service validates it and derives the rest.
public struct NewWorkout: Sendable, Hashable {
    public struct TrackPoint: Sendable, Hashable {
        public var latitudeDegrees: Double
        public var longitudeDegrees: Double
        public var elevationMeters: Double?
        /// Seconds from the start.
        public var timeSeconds: Double

        public init(latitudeDegrees: Double, longitudeDegrees: Double, elevationMeters: Double? = nil, timeSeconds: Double) {
            self.latitudeDegrees = latitudeDegrees
            self.longitudeDegrees = longitudeDegrees
            self.elevationMeters = elevationMeters
            self.timeSeconds = timeSeconds
        }
    }

    public var sport: Sport
    public var startTime: Date
    public var indoor: Bool
    /// One value per second from `startTime`; nil where there was no reading.
    public var heartRate: [Int?]
    public var rrIntervalsMilliseconds: [Double]
    public var track: [TrackPoint]
    /// Used only without a track of two or more points.
    public var distanceMeters: Double?
    /// Overrides the Keytel estimate.
    public var kilocalories: Double?
    /// The recording device as its file names it; with the start time, what makes a second
    /// upload of the same activity a duplicate. Nil when unknown.
    public var device: String?
    /// The workout's own name, as its file gives it (a GPX track's `name`); nil when none.
    public var title: String?

    public init(
        sport: Sport, startTime: Date, indoor: Bool = false, heartRate: [Int?], rrIntervalsMilliseconds: [Double] = [],
        track: [TrackPoint] = [], distanceMeters: Double? = nil, kilocalories: Double? = nil, device: String? = nil, title: String? = nil
    ) {
        self.title = title
        self.sport = sport
        self.startTime = startTime
        self.indoor = indoor
        self.heartRate = heartRate
        self.rrIntervalsMilliseconds = rrIntervalsMilliseconds
        self.track = track
        self.distanceMeters = distanceMeters
        self.kilocalories = kilocalories
        self.device = device
    }
}
