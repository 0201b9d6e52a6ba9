import Foundation

/// Great-circle distance by the haversine formula (Sinnott 1984, "Virtues of the
/// Haversine", Sky and Telescope 68:159) on a sphere of the IUGG mean Earth radius.
public enum Haversine {
    /// IUGG mean radius R1 = (2a + b)/3 of WGS-84, in metres.
    public static let earthRadiusMeters = 6_371_008.8

    public static func distanceMeters(from start: GeoPoint, to end: GeoPoint) -> Double {
        distanceMeters(fromLatitude: start.latitudeDegrees, longitude: start.longitudeDegrees, toLatitude: end.latitudeDegrees, longitude: end.longitudeDegrees)
    }

    /// The same for coordinates in degrees (not yet checked as a `GeoPoint`).
    public static func distanceMeters(
        fromLatitude startLatitude: Double, longitude startLongitude: Double,
        toLatitude endLatitude: Double, longitude endLongitude: Double
    ) -> Double {
        let toRadians = Double.pi / 180
        let latitude1 = startLatitude * toRadians
        let latitude2 = endLatitude * toRadians
        let deltaLatitude = latitude2 - latitude1
        let deltaLongitude = (endLongitude - startLongitude) * toRadians
        let h =
            sin(deltaLatitude / 2) * sin(deltaLatitude / 2)
            + cos(latitude1) * cos(latitude2) * sin(deltaLongitude / 2) * sin(deltaLongitude / 2)
        return 2 * earthRadiusMeters * asin(min(1, h.squareRoot()))
    }
}

/// Distance along a recorded track (seed-000 §3.12: the sum over consecutive fixes).
///
/// A standing runner's GPS wanders by a few metres; summing every wobble would invent
/// distance. A fix therefore counts only once it is at least `minimumMovementMeters` from
/// the last fix that counted, and the distance is measured from that fix, so slow but
/// real movement still accumulates in full. The last fix always counts, so a track does
/// not lose its final few metres.
public enum TrackDistance {
    public static let defaultMinimumMovementMeters = 5.0

    public static func meters(
        along track: [GeoPoint],
        minimumMovementMeters: Double = defaultMinimumMovementMeters
    ) -> Double {
        guard var anchor = track.first, let last = track.last else { return 0 }
        var total = 0.0
        for point in track.dropFirst() {
            let step = Haversine.distanceMeters(from: anchor, to: point)
            if step >= minimumMovementMeters {
                total += step
                anchor = point
            }
        }
        return total + Haversine.distanceMeters(from: anchor, to: last)
    }
}

/// Length conversions at the edges; inside, distances are metres.
public enum Length {
    public static let metersPerMile = 1609.344
    public static func kilometers(fromMeters meters: Double) -> Double { meters / 1000 }
    public static func miles(fromMeters meters: Double) -> Double { meters / metersPerMile }
}
