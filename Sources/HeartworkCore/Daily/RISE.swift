import Foundation

/// RISE's daily metrics (seed 004, `../shared/spec/seed-004-digest.md` §3; PRODUCT.md "RISE"):
/// recovery from time in bed and sleep quality, workout intensity 0–10 from points earned in
/// the four intensity zones of the user's 6-month maximum heart rate, the intensity of
/// elevated heart rate outside workouts, inactive hours, and the day's strain.
///
/// Where the seed left gaps, Heartwork's choices (docs/DAILY-HEALTH.md):
/// - Sleep quality q (1–10) counts as q/10; recovery is not capped: it is the seed's
///   formula as it stands, so more than 8 hours in bed at a high quality is above 100 %
///   (9 h at quality 10 → 112.5 %; seed 004 §7.3 leaves the cap open, issue 25 asks for the
///   seed's number).
/// - Intensity is piecewise linear in log2(points) through (1, 0), (30, 1), (60, 5) and
///   (240, 10): one minute of light effort is the floor (0); 30 minutes of light, moderate
///   and extreme effort (1, 2 and 8 points a minute) are the seed's three anchors; 10 is the cap.
/// - A heart-rate sample stands for the time until the next sample, at most
///   `maximumSampleSeconds` (a watch records every 1–5 s in a workout and every few minutes
///   otherwise; a longer gap is time the watch was not worn and counts as nothing).
/// - Inactive time is time outside workouts with heart rate from the resting rate up to 45 %
///   of the maximum; elevated time is time outside workouts at 45 % or more. Time below the
///   resting rate counts as neither.
/// - Strain = (Σ workout intensities + elevated intensity)/2 − inactive hours/4, clamped to
///   [0, 10], evaluated after every sample of the day; the day keeps the highest value.
public enum RISE {
    /// The CDC's recommended night (seed 004 §3.1).
    public static let standardSleepHours = 8.0
    /// A sample counts for at most this long (see the type's notes).
    public static let maximumSampleSeconds = 600.0
    /// The Intensity view lists at most this many workouts a day (seed 004 F3: "up to 10
    /// daily Workout Intensities"); every workout of the day counts towards strain.
    public static let listedWorkouts = 10
    /// The intensity curve's anchors: (points, intensity).
    public static let intensityAnchors: [(points: Double, intensity: Double)] = [(1, 0), (30, 1), (60, 5), (240, 10)]

    /// Recovery % = hours in bed × quality/10 ÷ 8 × 100, not capped (seed 004 Figure-2).
    /// Nil when the quality is not 1–10 or the hours are not a finite non-negative number.
    public static func recoveryPercent(hoursInBed: Double, quality: Int) -> Double? {
        guard hoursInBed.isFinite, hoursInBed >= 0, (1...10).contains(quality) else { return nil }
        return hoursInBed * Double(quality) / 10 / standardSleepHours * 100
    }

    /// The sleep quality assumed until the user gives one: the share of the time in bed spent
    /// asleep, in tenths (the seed's "how much of the night they were asleep"), at least 1;
    /// 8 when the watch recorded time in bed only (a typical sleep efficiency of 80–90 %).
    public static func estimatedSleepQuality(inBedSeconds: Double, asleepSeconds: Double?) -> Int {
        guard let asleepSeconds, inBedSeconds > 0, asleepSeconds.isFinite, inBedSeconds.isFinite else { return 8 }
        let share = min(1, max(0, asleepSeconds / inBedSeconds))
        return max(1, min(10, Int((share * 10).rounded())))
    }

    /// Intensity 0–10 of a number of zone points (see the type's notes), to one decimal.
    public static func intensity(points: Double) -> Double {
        guard points.isFinite, points > 1 else { return 0 }
        let x = log2(points)
        for (low, high) in zip(intensityAnchors, intensityAnchors.dropFirst()) where points <= high.points {
            let (x0, x1) = (log2(low.points), log2(high.points))
            let value = low.intensity + (x - x0) / (x1 - x0) * (high.intensity - low.intensity)
            return (value * 10).rounded() / 10
        }
        return 10
    }

    /// A workout of the day: when it ran and what it was.
    public struct Workout: Sendable, Hashable {
        public var id: String
        public var name: String
        /// Seconds since the day's start (local midnight); may start before 0 or end after the day.
        public var startSeconds: Double
        public var endSeconds: Double

        public init(id: String, name: String, startSeconds: Double, endSeconds: Double) {
            self.id = id
            self.name = name
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
        }

        func contains(_ time: Double) -> Bool { time >= startSeconds && time < endSeconds }
    }

    public struct WorkoutIntensity: Sendable, Hashable, Codable {
        public var id: String
        public var name: String
        public var points: Double
        public var intensity: Double
        public var minutesInZones: [Double]  // light, moderate, vigorous, extreme
    }

    /// One day's RISE metrics.
    public struct Day: Sendable, Hashable, Codable {
        public var workouts: [WorkoutIntensity]
        public var elevatedPoints: Double
        public var elevatedIntensity: Double
        public var elevatedHours: Double
        public var inactiveHours: Double
        /// The strain at the end of the samples, and the highest it reached during the day.
        public var strain: Double
        public var maximumStrain: Double
        /// Seconds of heart rate that counted (worn time).
        public var coveredSeconds: Double
    }

    /// Strain = (Σ workout intensities + elevated intensity)/2 − inactive hours/4, in [0, 10]
    /// (seed 004 Figure-5).
    public static func strain(workoutIntensities: [Double], elevatedIntensity: Double, inactiveHours: Double) -> Double {
        let raw = (workoutIntensities.reduce(0, +) + elevatedIntensity) / 2 - inactiveHours / 4
        guard raw.isFinite else { return 0 }
        return (min(10, max(0, raw)) * 10).rounded() / 10
    }

    /// A day's metrics from its heart-rate samples (seconds since the day's start, any order;
    /// samples at or after `daySeconds` are not the day's), its workouts, the resting heart
    /// rate and the 6-month maximum. Samples of a workout count towards that workout only.
    public static func day(
        samples: [TimedHeartRate], workouts: [Workout], restingHeartRate: Double, maximumHeartRate: Double,
        daySeconds: Double = 86_400
    ) -> Day {
        let sorted = samples.filter { $0.timeSeconds.isFinite && $0.beatsPerMinute.isFinite && $0.timeSeconds >= 0 && $0.timeSeconds < daySeconds }
            .sorted { $0.timeSeconds < $1.timeSeconds }
        var workoutPoints = [Double](repeating: 0, count: workouts.count)
        var workoutMinutes = [[Double]](repeating: [0, 0, 0, 0], count: workouts.count)
        var elevatedPoints = 0.0
        var elevatedSeconds = 0.0
        var inactiveSeconds = 0.0
        var covered = 0.0
        var maximumStrain = 0.0
        var strain = 0.0
        let validMaximum = maximumHeartRate.isFinite && maximumHeartRate > 0
        let inactiveCeiling = 0.45 * maximumHeartRate
        for (i, sample) in sorted.enumerated() {
            let next = i + 1 < sorted.count ? sorted[i + 1].timeSeconds : min(daySeconds, sample.timeSeconds + maximumSampleSeconds)
            let seconds = min(maximumSampleSeconds, max(0, next - sample.timeSeconds))
            guard seconds > 0, validMaximum else { continue }
            covered += seconds
            let zone = IntensityZone(percentOfMaximum: 100 * sample.beatsPerMinute / maximumHeartRate)
            let points = Double(zone.pointsPerMinute) * seconds / 60
            if let w = workouts.firstIndex(where: { $0.contains(sample.timeSeconds) }) {
                workoutPoints[w] += points
                if zone != .rest { workoutMinutes[w][zone.rawValue - 1] += seconds / 60 }
            } else if zone != .rest {
                elevatedPoints += points
                elevatedSeconds += seconds
            } else if sample.beatsPerMinute >= restingHeartRate && sample.beatsPerMinute < inactiveCeiling {
                inactiveSeconds += seconds
            }
            strain = Self.strain(
                workoutIntensities: workoutPoints.map(intensity(points:)), elevatedIntensity: intensity(points: elevatedPoints),
                inactiveHours: inactiveSeconds / 3600)
            maximumStrain = max(maximumStrain, strain)
        }
        let intensities = workouts.indices.map { w in
            WorkoutIntensity(
                id: workouts[w].id, name: workouts[w].name, points: (workoutPoints[w] * 10).rounded() / 10,
                intensity: intensity(points: workoutPoints[w]), minutesInZones: workoutMinutes[w].map { ($0 * 10).rounded() / 10 })
        }
        return Day(
            workouts: intensities, elevatedPoints: (elevatedPoints * 10).rounded() / 10, elevatedIntensity: intensity(points: elevatedPoints),
            elevatedHours: (elevatedSeconds / 360).rounded() / 10, inactiveHours: (inactiveSeconds / 360).rounded() / 10,
            strain: strain, maximumStrain: maximumStrain, coveredSeconds: covered)
    }

    /// The weekly evaluation: the values of the days that have one and their mean (seed 004
    /// F5: recovery and strain bars with weekly averages, intensity as a line).
    public static func weeklyAverage(_ values: [Double?]) -> Double? {
        let present = values.compactMap { $0 }.filter(\.isFinite)
        guard !present.isEmpty else { return nil }
        return (present.reduce(0, +) / Double(present.count) * 10).rounded() / 10
    }
}
