import Foundation
import HeartworkCore

/// Why an activity file does not make a workout.
public struct ActivityWorkoutError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// An activity file's recording (FIT, TCX, GPX) as a Heartwork workout, and back: heart rate on the exact 1 Hz grid from the start
/// (a reading at second n of the activity goes to index n; the last one wins), GPS fixes as the
/// track, the RR intervals of hrv messages, the session's sport, distance and calories. When a
/// file has RR intervals but no heart rate (a strap recorded in HRV mode), the per-second heart
/// rate is rebuilt from them: each second takes 60 000 / the interval of the beat that fell in it.
public enum ActivityWorkout {
    /// Longest activity taken from a file (a corrupt timestamp must not make a year-long grid).
    public static let maximumSeconds = 48 * 3600

    public static func newWorkout(from activity: ActivityRecording) throws(ActivityWorkoutError) -> NewWorkout {
        // Devices write records in time order; sort (a copy) only when one is out of place.
        let inOrder = zip(activity.records, activity.records.dropFirst()).allSatisfy { $0.time <= $1.time }
        let records = inOrder ? activity.records : activity.records.sorted { $0.time < $1.time }
        let hasHeartRate = records.contains { $0.heartRate != nil }
        // Without heart rate or RR intervals, records that span time (a GPS track) or a session
        // with its elapsed time still make a workout, with no heart rate; nothing timed makes none.
        let sessionSeconds = activity.sessions.first?.elapsedSeconds.flatMap { $0.isFinite && $0 >= 1 ? $0 : nil } ?? 0
        let span = max(sessionSeconds, (records.first?.time).flatMap { first in records.last.map { $0.time.timeIntervalSince(first) } } ?? 0)
        guard hasHeartRate || !activity.rrIntervalsMilliseconds.isEmpty || span >= 1 else {
            let why = activity.warnings.first.map { ": \($0)" } ?? ""
            throw ActivityWorkoutError(message: "the file holds no heart rate and nothing timed (no record with a heart rate, no RR intervals, no track over time)\(why)")
        }
        guard let start = activity.sessions.first?.start ?? records.first?.time ?? activity.created else {
            throw ActivityWorkoutError(message: "the file gives no start time\(activity.warnings.first.map { ": \($0)" } ?? "")")
        }
        var heartRate = [Int?]()
        if hasHeartRate || activity.rrIntervalsMilliseconds.isEmpty {
            var last = records.last?.time.timeIntervalSince(start) ?? 0
            if !hasHeartRate { last = max(last, sessionSeconds - 1) }
            guard last <= Double(maximumSeconds) else {
                throw ActivityWorkoutError(message: "the records span \(Int(last / 3600)) hours; at most \(maximumSeconds / 3600) are taken (a damaged timestamp?)")
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
        var track = [NewWorkout.TrackPoint]()
        track.reserveCapacity(records.count)  // no regrowth copies on a long ride
        for record in records {
            guard let lat = record.latitude, let lon = record.longitude else { continue }
            track.append(
                NewWorkout.TrackPoint(
                    latitudeDegrees: lat, longitudeDegrees: lon, elevationMeters: record.altitude,
                    timeSeconds: record.time.timeIntervalSince(start)))
        }
        let sport: Sport =
            switch activity.sessions.first?.sport {
            case 1?, 11?: .running  // running, walking
            case 2?: .cycling
            case 10?: .strength  // training (strength_training is its sub-sport)
            default: .other
            }
        // Indoors: no track, or a virtual ride (Zwift's track is a game world's: FIT sub-sports
        // treadmill 1, indoor cycling 6, virtual activity 58; Zwift's manufacturer id 260; a
        // creator or GPX type naming it).
        let virtual =
            activity.isVirtual || activity.manufacturer == 260 || [1, 6, 58].contains(activity.sessions.first?.subSport ?? -1)
            || (activity.creator?.lowercased().contains("zwift") ?? false)
        return NewWorkout(
            sport: sport, startTime: start, indoor: track.count < 2 || virtual, heartRate: heartRate,
            rrIntervalsMilliseconds: activity.rrIntervalsMilliseconds,
            track: track, distanceMeters: activity.sessions.first?.distance ?? records.last(where: { $0.distance != nil })?.distance,
            kilocalories: activity.sessions.first?.calories.map(Double.init), device: activity.device, title: activity.name)
    }

    /// A workout as a recording to write as FIT, TCX or GPX: one record a second where there is a
    /// heart rate, one at each track point (with the heart rate of its second), the distance
    /// accumulated along the track, a session with the sport, distance and energy, and the RR
    /// intervals. `newWorkout(from:)` gives the workout back (heart rate, track, RR, sport,
    /// start, distance; energy to the whole kilocalorie).
    /// The file names the workout's own device when it has one (so a file exported and imported
    /// again is recognised), "Heartwork" otherwise.
    public static func recording(from workout: NewWorkout, creator: String? = nil) -> ActivityRecording {
        var activity = ActivityRecording()
        activity.fileType = 4
        activity.creator = creator ?? workout.device ?? "Heartwork"
        activity.created = workout.startTime
        var bySecond = [Int: ActivityRecording.Record]()
        for (second, bpm) in workout.heartRate.enumerated() {
            guard let bpm else { continue }
            bySecond[second] = ActivityRecording.Record(time: workout.startTime.addingTimeInterval(Double(second)), heartRate: bpm)
        }
        var records = [ActivityRecording.Record]()
        var trackSeconds = Set<Int>()
        var distance = 0.0
        var previous: NewWorkout.TrackPoint?
        for point in workout.track where point.timeSeconds.isFinite && point.timeSeconds >= 0 && point.timeSeconds < 1e7 {
            if let previous, let a = try? GeoPoint(latitudeDegrees: previous.latitudeDegrees, longitudeDegrees: previous.longitudeDegrees),
                let b = try? GeoPoint(latitudeDegrees: point.latitudeDegrees, longitudeDegrees: point.longitudeDegrees)
            {
                distance += Haversine.distanceMeters(from: a, to: b)
            }
            previous = point
            let second = Int(point.timeSeconds.rounded(.down))
            trackSeconds.insert(second)
            let heartRate = second < workout.heartRate.count ? workout.heartRate[second] : nil
            records.append(
                ActivityRecording.Record(
                    time: workout.startTime.addingTimeInterval(point.timeSeconds), heartRate: heartRate, latitude: point.latitudeDegrees,
                    longitude: point.longitudeDegrees, altitude: point.elevationMeters, distance: distance))
        }
        records += bySecond.filter { !trackSeconds.contains($0.key) }.values
        records.sort { $0.time < $1.time }
        activity.records = records
        activity.rrIntervalsMilliseconds = workout.rrIntervalsMilliseconds
        let end = max(records.last?.time ?? workout.startTime, workout.startTime.addingTimeInterval(Double(workout.heartRate.count)))
        let sport = fitSport(workout.sport)
        let rates = records.compactMap(\.heartRate)
        activity.sessions = [
            ActivityRecording.Session(
                sport: sport, start: workout.startTime, elapsedSeconds: end.timeIntervalSince(workout.startTime),
                timerSeconds: end.timeIntervalSince(workout.startTime), distance: workout.distanceMeters ?? (workout.track.count >= 2 ? distance : nil),
                calories: workout.kilocalories.flatMap { $0.isFinite && $0 >= 0 && $0 < 65_535 ? Int($0.rounded()) : nil },
                averageHeartRate: rates.isEmpty ? nil : Int((Double(rates.reduce(0, +)) / Double(rates.count)).rounded()), maximumHeartRate: rates.max())
        ]
        return activity
    }
}

extension ActivityWorkout {
    /// An RR export (Kubios, Polar Flow, Elite HRV, Polar Sensor Logger, plain text) as a
    /// workout: the intervals as recorded and the per-second heart rate rebuilt from them.
    /// The start is, in this order: `start` when given; the first row's time when the file
    /// carries dates (ISO 8601 rows); the `YYYY-MM-DD HH-MM-SS` an Elite HRV file is named
    /// after, in `timeZone`. Without any of these the caller must say.
    public static func newWorkout(
        rr recording: RRRecording, start: Date? = nil, fileName: String? = nil, sport: Sport = .other, timeZone: TimeZone = .current
    ) throws(ActivityWorkoutError) -> NewWorkout {
        let fromRows = recording.timestamps?.first.flatMap { $0 > 946_684_800 ? Date(timeIntervalSince1970: $0) : nil }  // after 2000
        guard let begin = start ?? fromRows ?? fileName.flatMap({ startFromName($0, timeZone: timeZone) }) else {
            throw ActivityWorkoutError(message: "the RR file does not say when it was recorded: give the start (--start 2026-06-04T06:58:00Z)")
        }
        var activity = ActivityRecording()
        activity.rrIntervalsMilliseconds = recording.intervalsMilliseconds
        activity.sessions = [ActivityRecording.Session(sport: fitSport(sport), start: begin)]
        return try newWorkout(from: activity)
    }

    /// A sport as FIT's session numbers it (the inverse of `newWorkout(from:)`'s mapping).
    static func fitSport(_ sport: Sport) -> Int {
        switch sport {
        case .running: 1
        case .cycling: 2
        case .strength: 10
        case .other: 0
        }
    }

    /// "2017-06-29 13-11-53.txt" → that local time (Elite HRV names its exports so).
    static func startFromName(_ path: String, timeZone: TimeZone) -> Date? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let digits = name.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard digits.count >= 6 else { return nil }
        var components = DateComponents()
        components.year = digits[0]
        components.month = digits[1]
        components.day = digits[2]
        components.hour = digits[3]
        components.minute = digits[4]
        components.second = digits[5]
        guard (1990...2200).contains(digits[0]), (1...12).contains(digits[1]), (1...31).contains(digits[2]),
            (0...23).contains(digits[3]), (0...59).contains(digits[4]), (0...60).contains(digits[5])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: components)
    }
}
