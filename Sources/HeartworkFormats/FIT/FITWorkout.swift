import Foundation
import HeartworkCore

/// Why a FIT file does not make a workout.
public struct FITWorkoutError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// A FIT activity as a Heartwork workout: heart rate on the exact 1 Hz grid from the start
/// (a reading at second n of the activity goes to index n; the last one wins), GPS fixes as the
/// track, the RR intervals of hrv messages, the session's sport, distance and calories. When a
/// file has RR intervals but no heart rate (a strap recorded in HRV mode), the per-second heart
/// rate is rebuilt from them: each second takes 60 000 / the interval of the beat that fell in it.
public enum FITWorkout {
    /// Longest activity taken from a file (a corrupt timestamp must not make a year-long grid).
    public static let maximumSeconds = 48 * 3600

    public static func newWorkout(from activity: FITActivity) throws(FITWorkoutError) -> NewWorkout {
        let records = activity.records.sorted { $0.time < $1.time }
        let hasHeartRate = records.contains { $0.heartRate != nil }
        guard hasHeartRate || !activity.rrIntervalsMilliseconds.isEmpty else {
            let why = activity.warnings.first.map { ": \($0)" } ?? ""
            throw FITWorkoutError(message: "the FIT file holds no heart rate (no record with heart_rate, no hrv message)\(why)")
        }
        guard let start = activity.sessions.first?.start ?? records.first?.time ?? activity.created else {
            throw FITWorkoutError(message: "the FIT file gives no start time")
        }
        var heartRate = [Int?]()
        if hasHeartRate {
            let last = records.last?.time.timeIntervalSince(start) ?? 0
            guard last <= Double(maximumSeconds) else {
                throw FITWorkoutError(message: "the records span \(Int(last / 3600)) hours; at most \(maximumSeconds / 3600) are taken (a damaged timestamp?)")
            }
            heartRate = Array(repeating: nil, count: max(0, Int(last.rounded(.down))) + 1)
            for record in records {
                let second = Int(record.time.timeIntervalSince(start).rounded(.down))
                guard second >= 0, second < heartRate.count, let bpm = record.heartRate else { continue }
                heartRate[second] = bpm
            }
        } else {
            var elapsed = 0.0
            for rr in activity.rrIntervalsMilliseconds where rr > 0 {
                elapsed += rr / 1000
                let second = Int(elapsed.rounded(.down))
                guard second <= maximumSeconds else { break }
                if second >= heartRate.count { heartRate += Array(repeating: nil, count: second - heartRate.count + 1) }
                heartRate[second] = Int((60_000 / rr).rounded())
            }
        }
        let track = records.compactMap { record -> NewWorkout.TrackPoint? in
            guard let lat = record.latitude, let lon = record.longitude else { return nil }
            return NewWorkout.TrackPoint(latitudeDegrees: lat, longitudeDegrees: lon, elevationMeters: record.altitude,
                                         timeSeconds: record.time.timeIntervalSince(start))
        }
        let sport: Sport = switch activity.sessions.first?.sport {
        case 1?, 11?: .running  // running, walking
        case 2?: .cycling
        case 10?: .strength  // training (strength_training is its sub-sport)
        default: .other
        }
        return NewWorkout(
            sport: sport, startTime: start, indoor: track.count < 2, heartRate: heartRate, rrIntervalsMilliseconds: activity.rrIntervalsMilliseconds,
            track: track, distanceMeters: activity.sessions.first?.distance ?? records.last(where: { $0.distance != nil })?.distance,
            kilocalories: activity.sessions.first?.calories.map(Double.init))
    }
}
