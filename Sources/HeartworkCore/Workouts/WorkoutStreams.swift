/// A workout's time series.
public struct WorkoutStreams: Sendable, Hashable {
    /// One value per second from the start; nil where there was no reading.
    public var heartRate: [Int?]
    public var rrIntervalsMilliseconds: [Double]
    /// GPS fixes with `timeSeconds` from the start.
    public var track: [GeoPoint]

    public init(heartRate: [Int?], rrIntervalsMilliseconds: [Double] = [], track: [GeoPoint] = []) {
        self.heartRate = heartRate
        self.rrIntervalsMilliseconds = rrIntervalsMilliseconds
        self.track = track
    }
}
