import Foundation
import HeartworkCore
import HeartworkStore

/// Turns an upload into a stored workout: the owner's profile snapshot and everything the
/// server derives (heart-rate summary, time in zones, Keytel calories, track distance).
struct WorkoutService: Sendable {
    let store: HeartworkStore

    /// The profile as it stood at `date`: age then, the latest weight and resting heart rate
    /// measured up to then (or the earliest one after, if none was measured before).
    func snapshot(for user: UserRecord, at date: Date) async throws -> ProfileSnapshot {
        let weights = try await store.users.weights(userID: user.id)
        let restings = try await store.users.restingHeartRates(userID: user.id)
        func asOf(_ entries: [MeasurementEntry]) -> Double? {
            entries.last { $0.measuredAt <= date }?.value ?? entries.first?.value
        }
        let age = user.dateOfBirth.flatMap { ProfileFacts.age(dateOfBirth: $0, at: date) }
        let resting = asOf(restings)
        var maximum = ProfileFacts.maximumHeartRate(user, ageYears: age)
        // A snapshot keeps only anchors that make valid zones.
        if let resting, let value = maximum, (try? ZoneProfile(restingHeartRate: resting, maximumHeartRate: value)) == nil { maximum = nil }
        return ProfileSnapshot(
            ageYears: age, restingHeartRate: resting, maximumHeartRate: maximum,
            maximumHeartRateMethod: user.maxHeartRateMethod, weightKilograms: asOf(weights), sex: user.sex)
    }

    func store(_ upload: WorkoutUploadRequest, for user: UserRecord, now: Date = Date()) async throws -> (WorkoutRecord, WorkoutStreams) {
        let (sport, streams) = try upload.validated(now: now)
        let snapshot = try await snapshot(for: user, at: upload.startTime)
        let record = Self.derive(
            userID: user.id, sport: sport, startTime: upload.startTime, indoor: upload.indoor, streams: streams,
            snapshot: snapshot, givenDistance: upload.distanceMeters, givenKilocalories: upload.kilocalories,
            shared: user.autoShareWorkouts, now: now)
        try await store.workouts.insert(record, streams: streams, maxShared: user.maxSharedWorkouts)
        return (record, streams)
    }

    /// Everything derived from the streams and the snapshot; pure.
    static func derive(
        userID: String, sport: Sport, startTime: Date, indoor: Bool, streams: WorkoutStreams, snapshot: ProfileSnapshot,
        givenDistance: Double?, givenKilocalories: Double?, shared: Bool, now: Date
    ) -> WorkoutRecord {
        let series = HeartRateSeries(beatsPerMinute: streams.heartRate.map { $0.map(Double.init) })
        let summary = HeartRateSummary(series)
        var zones: [Int]?
        if let profile = snapshot.zoneProfile {
            var tally = ZoneTally<ReserveZone>()
            for bpm in series.beatsPerMinute { tally.add(bpm.map(profile.reserveZone(beatsPerMinute:)) ?? .none) }
            zones = ReserveZone.allCases.map { tally[$0] }
        }
        var kilocalories = givenKilocalories
        if kilocalories == nil, let sex = snapshot.sex, let weight = snapshot.weightKilograms, let age = snapshot.ageYears {
            var energy = KeytelAccumulator(sex: sex, weightKilograms: weight, ageYears: Double(age))
            for (second, bpm) in series.beatsPerMinute.enumerated() {
                if let bpm { energy.add(beatsPerMinute: bpm, elapsedSeconds: Double(second + 1)) }
            }
            kilocalories = energy.kilocalories
        }
        let distance = streams.track.count >= 2 ? TrackDistance.meters(along: streams.track) : givenDistance
        return WorkoutRecord(
            userID: userID, sport: sport, startedAt: startTime, indoor: indoor, durationSeconds: streams.heartRate.count,
            averageHeartRate: summary?.meanBPM, minimumHeartRate: summary?.minimumBPM, maximumHeartRate: summary?.maximumBPM,
            kilocalories: kilocalories, distanceMeters: distance, secondsInZones: zones, profile: snapshot,
            rrCount: streams.rrIntervalsMilliseconds.count, trackCount: streams.track.count,
            shared: shared, sharedAt: shared ? now : nil, createdAt: now)
    }
}
