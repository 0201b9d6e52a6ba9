/// How large a workout may be: what one recording of 24 hours can hold. Readers stop at these
/// while reading (so an oversized upload costs no memory), and the workout service checks
/// them again for workouts from any source.
public enum WorkoutLimits {
    /// One heart-rate value per second for 24 hours.
    public static let seconds = 24 * 3600
    /// Beats in 24 hours at well above any resting or exercising heart rate.
    public static let rrIntervals = 200_000
    /// A GPS fix every half second for 24 hours.
    public static let trackPoints = 2 * seconds
}
