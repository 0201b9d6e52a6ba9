import Foundation
import HeartworkCore

/// An Apple Health import and how far it got (`GET /api/imports/{id}`).
public struct HealthImportRecord: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        /// The upload is still arriving: it holds one of the user's open-import places.
        case receiving
        case queued, running, done, failed
    }

    public var id: String
    public var userID: String
    /// "zip" or "xml" (Apple Health), "gadgetbridge" (Gadgetbridge's database), "strength-csv"
    /// (a Strong or Hevy export).
    public var format: String
    /// The spooled upload, on the server's disk (never shown to users).
    public var filePath: String
    public var state: State
    public var bytesTotal: Int64
    public var bytesDone: Int64
    public var samplesRead: Int64
    public var samplesAdded: Int64
    public var workoutsAdded: Int
    public var workoutsDuplicate: Int
    /// Workouts of the export not stored, and why ("it is longer than 24 hours": 1).
    public var workoutsSkipped: [String: Int] = [:]
    /// What the export's owner and body samples did to the profile and its histories.
    public var body = BodyUpdate()
    /// Records of types the import does not read, by type ("HKQuantityTypeIdentifierBloodGlucose": 12).
    public var recordsSkipped: [String: Int] = [:]
    /// Gadgetbridge: what was read, by device and kind ("Amazfit Bip: heart rate": 1440).
    public var read: [String: Int] = [:]
    /// Gadgetbridge: what the import did not understand, with how many rows
    /// ("XIAOMI_SLEEP_STAGE_SAMPLE": 12, "MI_BAND_ACTIVITY_SAMPLE: device 9 (not in DEVICE)": 3).
    public var notUnderstood: [String: Int] = [:]
    public var firstDay: CalendarDay?
    public var lastDay: CalendarDay?
    public var error: String?
    /// A strength import's summary so far (JSON, the App's `ImportSummary`), kept as it goes so
    /// a run that takes over after a crash goes on from it.
    public var summary: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var finishedAt: Date?

    public init(id: String = UUID().uuidString.lowercased(), userID: String, format: String, filePath: String, bytesTotal: Int64, createdAt: Date) {
        self.id = id
        self.userID = userID
        self.format = format
        self.filePath = filePath
        state = .queued
        self.bytesTotal = bytesTotal
        bytesDone = 0
        samplesRead = 0
        samplesAdded = 0
        workoutsAdded = 0
        workoutsDuplicate = 0
        self.createdAt = createdAt
        updatedAt = createdAt
    }
}

/// What the user said about a day.
public struct DayMarkRecord: Sendable, Hashable {
    public var day: CalendarDay
    /// 1–10, nil when not rated.
    public var sleepQuality: Int?
    /// "sick" or "traveling", nil for a normal day.
    public var mark: String?
    public var updatedAt: Date

    public init(day: CalendarDay, sleepQuality: Int?, mark: String?, updatedAt: Date) {
        self.day = day
        self.sleepQuality = sleepQuality
        self.mark = mark
        self.updatedAt = updatedAt
    }
}

/// A user's daily-health settings: the inactivity alert, the anomaly detector, the source order.
public struct HealthSettingsRecord: Sendable, Hashable {
    /// Fewer steps than this by `inactivityMinute` (local minute of the day) is an inactivity alert.
    public var stepThreshold: Int
    public var inactivityMinute: Int
    public var inactivityAlerts: Bool
    public var anomalyAlerts: Bool
    /// The anomaly detector's p, k (band in residual SDs), run length and interval.
    public var order: Int
    public var bandSD: Double
    public var consecutive: Int
    public var intervalMinutes: Int
    /// Sources first in this order when two overlap (then watches, other devices, phones).
    public var sourceOrder: [String]
    public var updatedAt: Date

    public static let defaults = HealthSettingsRecord(
        stepThreshold: 5000, inactivityMinute: 18 * 60, inactivityAlerts: true, anomalyAlerts: true, order: 3, bandSD: 3, consecutive: 3,
        intervalMinutes: 5, sourceOrder: [], updatedAt: Date(timeIntervalSince1970: 0))

    public init(
        stepThreshold: Int, inactivityMinute: Int, inactivityAlerts: Bool, anomalyAlerts: Bool, order: Int, bandSD: Double, consecutive: Int,
        intervalMinutes: Int, sourceOrder: [String], updatedAt: Date
    ) {
        self.stepThreshold = stepThreshold
        self.inactivityMinute = inactivityMinute
        self.inactivityAlerts = inactivityAlerts
        self.anomalyAlerts = anomalyAlerts
        self.order = order
        self.bandSD = bandSD
        self.consecutive = consecutive
        self.intervalMinutes = intervalMinutes
        self.sourceOrder = sourceOrder
        self.updatedAt = updatedAt
    }
}
