import Foundation
import HeartworkCore

/// The rules every incoming workout meets, whatever file or request it came from. The
/// error names the first field at fault with the path of Heartwork's JSON document.
enum WorkoutValidation {
    static let maximumSeconds = WorkoutLimits.seconds
    static let maximumRRIntervals = WorkoutLimits.rrIntervals
    /// Shorter than 20 ms (3,000 bpm) is not a beat; longer than 5 s is a gap, not an interval.
    static let rrMilliseconds = 20...RRValidation.maximumIntervalMilliseconds

    static func streams(of workout: NewWorkout, now: Date) throws(AppError) -> WorkoutStreams {
        guard workout.startTime <= now.addingTimeInterval(86_400), workout.startTime > Date(timeIntervalSince1970: 0) else {
            throw AppError.invalid("the start time is in the future or before 1970", field: "startTime")
        }
        let heartRate = workout.heartRate
        guard !heartRate.isEmpty else {
            throw AppError.invalid("at least one second is needed (one value a second, null where no heart rate was recorded)", field: "heartRate")
        }
        guard heartRate.count <= maximumSeconds else {
            throw AppError.invalid("at most 24 hours (86,400 seconds) per workout", field: "heartRate")
        }
        for (index, value) in heartRate.enumerated() {
            if let value, !(1...250).contains(value) {
                throw AppError.invalid("\(value) bpm is not a heart rate (1–250 bpm, or null for no reading)", field: "heartRate[\(index)]")
            }
        }
        // Every second null is a workout recorded without heart rate (a watch that did not
        // measure it): its length, sport, energy, distance and route still stand.
        let rr = workout.rrIntervalsMilliseconds
        guard rr.count <= maximumRRIntervals else { throw AppError.invalid("at most 200,000 RR intervals", field: "rrIntervals") }
        for (index, value) in rr.enumerated() {
            guard rrMilliseconds.contains(value) else {
                throw AppError.invalid("\(value) ms is not an RR interval (20–5000 ms)", field: "rrIntervals[\(index)]")
            }
        }
        guard workout.track.count <= WorkoutLimits.trackPoints else { throw AppError.invalid("at most 172,800 track points", field: "track") }
        var points = [GeoPoint]()
        points.reserveCapacity(workout.track.count)
        var previousTime = -Double.infinity
        for (index, point) in workout.track.enumerated() {
            let path = "track[\(index)]"
            guard (-90...90).contains(point.latitudeDegrees) else {
                throw AppError.invalid("latitude \(point.latitudeDegrees) is outside −90…90", field: "\(path).lat")
            }
            guard (-180...180).contains(point.longitudeDegrees) else {
                throw AppError.invalid("longitude \(point.longitudeDegrees) is outside −180…180", field: "\(path).lon")
            }
            if let elevation = point.elevationMeters, !(-500...9_000).contains(elevation) {
                throw AppError.invalid("elevation \(elevation) m is outside −500…9000 m", field: "\(path).ele")
            }
            guard point.timeSeconds >= 0, point.timeSeconds <= Double(maximumSeconds) else {
                throw AppError.invalid("t is seconds from the start, 0–86400", field: "\(path).t")
            }
            guard point.timeSeconds >= previousTime else {
                throw AppError.invalid("t \(point.timeSeconds) comes before the previous point's \(previousTime): points must be in time order", field: "\(path).t")
            }
            previousTime = point.timeSeconds
            do {
                points.append(
                    try GeoPoint(
                        latitudeDegrees: point.latitudeDegrees, longitudeDegrees: point.longitudeDegrees,
                        elevationMeters: point.elevationMeters, timeSeconds: point.timeSeconds))
            } catch {
                throw AppError.invalid(error.description, field: path)
            }
        }
        if let distance = workout.distanceMeters, !(0...1_000_000).contains(distance) {
            throw AppError.invalid("distance is 0–1,000,000 m", field: "distanceMeters")
        }
        if let kilocalories = workout.kilocalories, !(0...20_000).contains(kilocalories) {
            throw AppError.invalid("energy is 0–20,000 kcal", field: "kilocalories")
        }
        return WorkoutStreams(heartRate: heartRate, rrIntervalsMilliseconds: rr, track: points)
    }
}
