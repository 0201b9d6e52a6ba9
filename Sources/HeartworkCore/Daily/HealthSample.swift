import Foundation

/// One sample of a watch's or phone's health data (Apple Health export …), in Heartwork's units, with its instant and the UTC
/// offset of the place it was taken.
public struct HealthSample: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case heartRate  // count/min
        case restingHeartRate  // count/min
        case walkingHeartRateAverage  // count/min
        case heartRateVariabilitySDNN  // ms
        case steps  // count
        case bodyMass  // kg
        case height  // m
        case sleep  // value: a `SleepStage` raw value
    }

    /// Sleep analysis values (HKCategoryValueSleepAnalysis), iOS 16's stages included.
    public enum SleepStage: Int, Sendable, Hashable, CaseIterable, Codable {
        case inBed = 0
        case asleep = 1
        case awake = 2
        case core = 3
        case deep = 4
        case rem = 5

        public var isAsleep: Bool { self == .asleep || self == .core || self == .deep || self == .rem }
    }

    public var kind: Kind
    public var start: Date
    public var end: Date
    /// Seconds east of UTC where the sample was taken (HKMetadataKeyTimeZone when the
    /// sample carries it, else the offset written in its date).
    public var utcOffsetSeconds: Int
    public var value: Double
    public var source: String
    public var device: String?
    /// HRV samples: the beat-to-beat heart rates the watch listed (bpm, seconds after start).
    public var beats: [TimedHeartRate]?

    public init(
        kind: Kind, start: Date, end: Date, utcOffsetSeconds: Int, value: Double, source: String, device: String? = nil,
        beats: [TimedHeartRate]? = nil
    ) {
        self.kind = kind
        self.start = start
        self.end = end
        self.utcOffsetSeconds = utcOffsetSeconds
        self.value = value
        self.source = source
        self.device = device
        self.beats = beats
    }

    /// The local calendar day the sample starts on, where it was taken.
    public var day: CalendarDay { CalendarDay(start, utcOffsetSeconds: utcOffsetSeconds) }
}

/// A workout of the export.
public struct HealthWorkout: Sendable, Hashable {
    public var activityType: String  // "HKWorkoutActivityTypeRunning" …
    public var start: Date
    public var end: Date
    public var utcOffsetSeconds: Int
    public var kilocalories: Double?
    public var distanceMeters: Double?
    public var source: String
    public var device: String?
    /// `workout-routes/….gpx` inside the export, when it has a route.
    public var routePath: String?

    public init(
        activityType: String, start: Date, end: Date, utcOffsetSeconds: Int, kilocalories: Double?, distanceMeters: Double?,
        source: String, device: String?, routePath: String?
    ) {
        self.activityType = activityType
        self.start = start
        self.end = end
        self.utcOffsetSeconds = utcOffsetSeconds
        self.kilocalories = kilocalories
        self.distanceMeters = distanceMeters
        self.source = source
        self.device = device
        self.routePath = routePath
    }

    /// Heartwork's sport for the activity type.
    public var sport: Sport {
        switch activityType {
        case "HKWorkoutActivityTypeRunning", "HKWorkoutActivityTypeWalking", "HKWorkoutActivityTypeHiking": .running
        case "HKWorkoutActivityTypeCycling": .cycling
        case "HKWorkoutActivityTypeTraditionalStrengthTraining", "HKWorkoutActivityTypeFunctionalStrengthTraining": .strength
        default: .other
        }
    }
}

/// What the export says about its owner.
public struct HealthOwner: Sendable, Hashable {
    public var dateOfBirth: CalendarDay?
    public var sex: Sex?

    public init(dateOfBirth: CalendarDay?, sex: Sex?) {
        self.dateOfBirth = dateOfBirth
        self.sex = sex
    }
}
