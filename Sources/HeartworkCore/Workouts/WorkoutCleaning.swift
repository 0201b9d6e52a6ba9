import Foundation

/// What happened to a workout on its way in: values left out or cut, counted, with where the
/// first one was, in words a person reads ("1 RR interval of 6,712 ms was a gap, not a beat:
/// left out"). Shown with the upload's answer, on the upload page and the workout's page, and
/// by `heartwork import`.
public struct WorkoutNote: Sendable, Hashable, Codable {
    /// The first value concerned, as a path in Heartwork's JSON document (`rrIntervals[5123]`).
    public var field: String?
    /// The line or byte of the file it was at, when the file said.
    public var line: Int?
    public var byte: Int?
    /// How many values it concerns (1 for a single fault).
    public var count: Int
    public var message: String

    public init(field: String? = nil, line: Int? = nil, byte: Int? = nil, count: Int = 1, message: String) {
        self.field = field
        self.line = line
        self.byte = byte
        self.count = count
        self.message = message
    }
}

/// Real recordings have artifacts: a strap off the skin (0 bpm), a glitch (255 bpm), a
/// missed beat (an RR "interval" of 6.7 s), a GPS jump, a clock stepping back. Such a value is
/// left out — never the workout — and counted in a `WorkoutNote`. What is left must still be
/// a workout (at least one heart-rate reading); the limits that protect the server (24 hours,
/// 200,000 RR intervals, 172,800 track points) are the validator's, not this.
public enum WorkoutCleaning {
    /// Heart rates a person can have, per second (Core's `PhysiologicalLimits`, as live
    /// readings; 0 means "no reading").
    public static let heartRate = Int(PhysiologicalLimits.plausibleHeartRate.lowerBound)...Int(PhysiologicalLimits.plausibleHeartRate.upperBound)
    /// Shorter than 20 ms (3,000 bpm) is not a beat; longer than 5 s is a gap, not an interval.
    public static let rrMilliseconds = 20.0...RRValidation.maximumIntervalMilliseconds
    /// Faster than this between two track points is a GPS jump (an airliner's cruise).
    public static let maximumSpeedMetersPerSecond = 250.0
    public static let elevationMeters = -500.0...9_000.0

    public static func clean(_ workout: NewWorkout) -> (workout: NewWorkout, notes: [WorkoutNote]) {
        var cleaned = workout
        var notes = [WorkoutNote]()

        // Heart rate: 0 and values past 250 are "no reading".
        var outside = [(index: Int, value: Int)]()
        for (index, value) in workout.heartRate.enumerated() {
            guard let value, !heartRate.contains(value) else { continue }
            outside.append((index, value))
            cleaned.heartRate[index] = nil
        }
        if let first = outside.first {
            let zeros = outside.filter { $0.value <= 0 }.count
            let what =
                zeros == outside.count
                ? "\(plural(outside.count, "heart-rate reading")) of 0 bpm (the strap off the skin)"
                : "\(plural(outside.count, "heart-rate reading")) outside \(heartRate.lowerBound)–\(heartRate.upperBound) bpm (a strap's glitch or no contact)"
            notes.append(
                WorkoutNote(
                    field: "heartRate[\(first.index)]", count: outside.count,
                    message: "\(what) left out; the first was \(first.value) bpm, \(clock(first.index)) in"))
        }

        // RR intervals: gaps and impossible beats go; the rest stay in order.
        var kept = [Double]()
        kept.reserveCapacity(workout.rrIntervalsMilliseconds.count)
        var gaps = [(index: Int, value: Double)]()
        for (index, value) in workout.rrIntervalsMilliseconds.enumerated() {
            if value.isFinite, rrMilliseconds.contains(value) { kept.append(value) } else { gaps.append((index, value)) }
        }
        if let first = gaps.first {
            cleaned.rrIntervalsMilliseconds = kept
            let longest = gaps.map(\.value).filter(\.isFinite).max() ?? first.value
            let message =
                gaps.allSatisfy({ $0.value > rrMilliseconds.upperBound })
                ? "\(plural(gaps.count, "RR interval")) longer than 5 s (a gap in the recording, not a beat) left out; the longest was \(Int(longest)) ms"
                : "\(plural(gaps.count, "RR interval")) outside 20–5000 ms left out (a gap or a strap's artifact); the first was \(format(first.value)) ms"
            notes.append(WorkoutNote(field: "rrIntervals[\(first.index)]", count: gaps.count, message: message))
        }

        // The track: impossible places and times go, so do jumps; a bad elevation only loses itself.
        var track = [NewWorkout.TrackPoint]()
        track.reserveCapacity(workout.track.count)
        var placeless = [(index: Int, field: String)]()
        var backwards = [Int]()
        var jumps = [Int]()
        var heights = [Int]()
        for (index, point) in workout.track.enumerated() {
            guard point.latitudeDegrees.isFinite, (-90...90).contains(point.latitudeDegrees) else {
                placeless.append((index, "lat"))
                continue
            }
            guard point.longitudeDegrees.isFinite, (-180...180).contains(point.longitudeDegrees) else {
                placeless.append((index, "lon"))
                continue
            }
            guard point.timeSeconds.isFinite, point.timeSeconds >= 0, point.timeSeconds <= Double(WorkoutLimits.seconds) else {
                placeless.append((index, "t"))
                continue
            }
            var point = point
            if let elevation = point.elevationMeters, !elevation.isFinite || !elevationMeters.contains(elevation) {
                heights.append(index)
                point.elevationMeters = nil
            }
            if let previous = track.last {
                guard point.timeSeconds >= previous.timeSeconds else {
                    backwards.append(index)
                    continue
                }
                let meters = Haversine.distanceMeters(
                    fromLatitude: previous.latitudeDegrees, longitude: previous.longitudeDegrees,
                    toLatitude: point.latitudeDegrees, longitude: point.longitudeDegrees)
                let seconds = max(point.timeSeconds - previous.timeSeconds, 1)
                if meters / seconds > maximumSpeedMetersPerSecond {
                    jumps.append(index)
                    continue
                }
            }
            track.append(point)
        }
        cleaned.track = track
        if let first = placeless.first {
            notes.append(
                WorkoutNote(
                    field: "track[\(first.index)].\(first.field)", count: placeless.count,
                    message: "\(plural(placeless.count, "track point")) with no place on Earth or a time outside the workout left out"))
        }
        if let first = backwards.first {
            notes.append(
                WorkoutNote(
                    field: "track[\(first)].t", count: backwards.count,
                    message: "\(plural(backwards.count, "track point")) whose time went back (a clock's step) left out"))
        }
        if let first = jumps.first {
            notes.append(
                WorkoutNote(
                    field: "track[\(first)]", count: jumps.count,
                    message: "\(plural(jumps.count, "track point")) that jumped faster than 250 m/s (a GPS jump) left out"))
        }
        if let first = heights.first {
            notes.append(
                WorkoutNote(
                    field: "track[\(first)].ele", count: heights.count,
                    message: "\(plural(heights.count, "elevation")) outside −500…9000 m left out (the points kept)"))
        }

        // Totals a file states: an impossible one is worked out instead; 0 kcal means "not measured".
        if let distance = workout.distanceMeters, !distance.isFinite || !(0...1_000_000).contains(distance) {
            cleaned.distanceMeters = nil
            notes.append(WorkoutNote(field: "distanceMeters", message: "a distance of \(format(distance)) m is not possible; worked out from the track instead"))
        }
        if let energy = workout.kilocalories {
            if !energy.isFinite || !(0...20_000).contains(energy) {
                cleaned.kilocalories = nil
                notes.append(WorkoutNote(field: "kilocalories", message: "\(format(energy)) kcal is not possible; estimated from the heart rate instead"))
            } else if energy == 0 {
                cleaned.kilocalories = nil
            }
        }
        return (cleaned, notes)
    }

    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) \(noun)\(count == 1 ? "" : "s")"
    }

    static func clock(_ seconds: Int) -> String {
        seconds >= 3600 ? String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60) : String(format: "%d:%02d", seconds / 60, seconds % 60)
    }

    static func format(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
