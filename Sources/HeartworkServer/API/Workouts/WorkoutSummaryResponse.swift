import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// A workout in lists: the summary only.
struct WorkoutSummaryResponse: ResponseEncodable {
    struct ZoneSeconds: Encodable {
        let none: Int, low: Int, moderate: Int, high: Int, redLine: Int
    }

    struct Snapshot: Encodable {
        let ageYears: Int?
        let restingHeartRate: Double?
        let maxHeartRate: Double?
        let maxHeartRateMethod: String?
        let weightKilograms: Double?
        let sex: String?
        /// Karvonen thresholds at 60, 70, 80, 90 and 100 % HRR, when the snapshot has zones.
        let zoneThresholds: [Double]?
    }

    let id: String
    let ownerID: String
    let sport: String
    /// The workout's own name from its file ("Zwift Session"), when it had one.
    let title: String?
    /// The recording device as its file named it, when it did.
    let device: String?
    let startTime: Date
    let indoor: Bool
    let durationSeconds: Int
    let averageHeartRate: Double?
    let minimumHeartRate: Double?
    let maximumHeartRate: Double?
    let kilocalories: Double?
    let distanceMeters: Double?
    let secondsInZones: ZoneSeconds?
    let profile: Snapshot
    let rrIntervalCount: Int
    let trackPointCount: Int
    let shared: Bool

    /// - Parameter viewerIsOwner: false when a friend looks at a shared workout.
    init(_ workout: WorkoutRecord, viewerIsOwner: Bool) {
        let metrics = workout.metrics
        id = workout.id
        ownerID = workout.userID
        sport = workout.sport.rawValue
        title = workout.title
        device = workout.device
        startTime = workout.startedAt
        indoor = workout.indoor
        durationSeconds = metrics.durationSeconds
        averageHeartRate = metrics.averageHeartRate.map { ($0 * 10).rounded() / 10 }
        minimumHeartRate = metrics.minimumHeartRate
        maximumHeartRate = metrics.maximumHeartRate
        kilocalories = metrics.kilocalories.map { ($0 * 10).rounded() / 10 }
        distanceMeters = metrics.distanceMeters.map { $0.rounded() }
        secondsInZones = metrics.secondsInZones.flatMap { zones in
            zones.count == 5 ? ZoneSeconds(none: zones[0], low: zones[1], moderate: zones[2], high: zones[3], redLine: zones[4]) : nil
        }
        // A friend sees what scoring needs (the zone anchors), never the owner's age, weight or sex.
        let snapshot = workout.profile
        profile = Snapshot(
            ageYears: viewerIsOwner ? snapshot.ageYears : nil, restingHeartRate: snapshot.restingHeartRate,
            maxHeartRate: snapshot.maximumHeartRate, maxHeartRateMethod: snapshot.maximumHeartRateSource?.rawValue,
            weightKilograms: viewerIsOwner ? snapshot.weightKilograms : nil, sex: viewerIsOwner ? snapshot.sex?.rawValue : nil,
            zoneThresholds: snapshot.zoneProfile?.reserveZoneThresholds.map { ($0 * 1000).rounded() / 1000 })
        rrIntervalCount = workout.rrCount
        trackPointCount = workout.trackCount
        shared = workout.shared
    }
}

/// The answer to an upload: the summary, and what was left out or cut on the way in.
struct WorkoutCreatedResponse: ResponseEncodable {
    struct Warning: Encodable {
        let message: String
        let field: String?
        let line: Int?
        let byte: Int?
        let count: Int
    }

    struct Replaced: Encodable {
        /// How long the copy was that this file replaced.
        let durationSeconds: Int
        let message: String
    }

    let summary: WorkoutSummaryResponse
    /// Empty when the file was read whole with nothing left out.
    let warnings: [Warning]
    /// Set when the file was a longer copy of an activity stored before (a cut file uploaded
    /// first), which it replaced: the workout keeps its id, sharing and creation time.
    let replaced: Replaced?

    init(_ uploaded: UploadedWorkout) {
        let record = uploaded.workout
        summary = WorkoutSummaryResponse(record, viewerIsOwner: true)
        warnings = record.notes.map { Warning(message: $0.message, field: $0.field, line: $0.line, byte: $0.byte, count: $0.count) }
        replaced = uploaded.replaced.map {
            Replaced(
                durationSeconds: $0.durationSeconds,
                message:
                    "replaced the shorter copy stored before (\(Self.clock($0.durationSeconds)) of \(Self.clock(record.metrics.durationSeconds))): a cut file, now complete"
            )
        }
    }

    init(_ record: WorkoutRecord) { self.init(UploadedWorkout(workout: record)) }

    /// 7:28, 1:02:03.
    static func clock(_ seconds: Int) -> String {
        let s = max(0, seconds)
        let (h, m, r) = (s / 3600, s / 60 % 60, s % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, r) : String(format: "%d:%02d", m, r)
    }
}

// Written by JSONWriter for the hot lists; the same shape as the Encodable form.
extension WorkoutSummaryResponse {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("averageHeartRate", averageHeartRate)
        json.field("device", device)
        json.field("distanceMeters", distanceMeters)
        json.field("durationSeconds", durationSeconds)
        json.field("id", id)
        json.field("indoor", indoor)
        json.field("kilocalories", kilocalories)
        json.field("maximumHeartRate", maximumHeartRate)
        json.field("minimumHeartRate", minimumHeartRate)
        json.field("ownerID", ownerID)
        json.key("profile")
        json.beginObject()
        json.field("ageYears", profile.ageYears)
        json.field("maxHeartRate", profile.maxHeartRate)
        json.field("maxHeartRateMethod", profile.maxHeartRateMethod)
        json.field("restingHeartRate", profile.restingHeartRate)
        json.field("sex", profile.sex)
        json.field("weightKilograms", profile.weightKilograms)
        if let thresholds = profile.zoneThresholds {
            json.key("zoneThresholds")
            json.beginArray()
            for threshold in thresholds { json.number(threshold) }
            json.endArray()
        }
        json.endObject()
        json.field("rrIntervalCount", rrIntervalCount)
        if let zones = secondsInZones {
            json.key("secondsInZones")
            json.beginObject()
            json.field("high", zones.high)
            json.field("low", zones.low)
            json.field("moderate", zones.moderate)
            json.field("none", zones.none)
            json.field("redLine", zones.redLine)
            json.endObject()
        }
        json.field("shared", shared)
        json.field("sport", sport)
        json.field("startTime", startTime)
        json.field("title", title)
        json.field("trackPointCount", trackPointCount)
        json.endObject()
    }
}
