import Foundation
import HeartworkCore
import Testing

@Suite("Geo")
struct GeoTests {
    private func point(_ latitude: Double, _ longitude: Double) throws -> GeoPoint {
        try GeoPoint(latitudeDegrees: latitude, longitudeDegrees: longitude)
    }

    /// Golden, hand calculation: along a meridian the haversine distance is R·Δφ, so one
    /// degree is 6 371 008.8 × π / 180 = 111 195.0802 m; a quarter meridian is R·π/2.
    @Test func haversineAlongAMeridian() throws {
        let oneDegree = Haversine.distanceMeters(from: try point(10, 20), to: try point(11, 20))
        #expect(abs(oneDegree - 6_371_008.8 * Double.pi / 180) < 1e-6)
        #expect(abs(oneDegree - 111_195.0802) < 1e-3)
        let quarter = Haversine.distanceMeters(from: try point(0, 0), to: try point(90, 0))
        #expect(abs(quarter - 6_371_008.8 * Double.pi / 2) < 1e-6)
    }

    /// Golden, hand calculation of the haversine formula for (0°, 0°) → (0°, 1°) at 60° N is
    /// 2R·asin(cos 60°·sin 0.5°) = 55 597.0109 m (about half of a degree on the equator).
    @Test func haversineAlongAParallel() throws {
        let distance = Haversine.distanceMeters(from: try point(60, 0), to: try point(60, 1))
        let expected = 2 * 6_371_008.8 * asin(cos(Double.pi / 3) * sin(Double.pi / 360))
        #expect(abs(distance - expected) < 1e-6)
        #expect(abs(distance - 55_597.0109) < 1e-3)
    }

    @Test func standingStillWithJitterAddsNoDistance() throws {
        let origin = try point(48.2, 16.37)
        let metre = 1.0 / 111_195.08
        let jitter = try (0..<600).map { index in
            try point(48.2 + metre * 2 * sin(Double(index)), 16.37 + metre * 2 * cos(Double(index * 7)))
        }
        let track = [origin] + jitter
        #expect(TrackDistance.meters(along: track) < 5)
        // Without the filter the same jitter would count hundreds of metres.
        #expect(TrackDistance.meters(along: track, minimumMovementMeters: 0) > 500)
    }

    @Test func slowRealMovementCountsInFull() throws {
        let metre = 1.0 / 111_195.0802
        let walk = try (0...103).map { try point(10 + Double($0) * metre, 20) }
        #expect(abs(TrackDistance.meters(along: walk) - 103) < 0.01)
    }

    @Test func unitsAndValidation() {
        #expect(Length.miles(fromMeters: 1609.344) == 1)
        #expect(Length.kilometers(fromMeters: 4200) == 4.2)
        #expect(throws: GeoError.latitudeOutOfRange(91)) { try GeoPoint(latitudeDegrees: 91, longitudeDegrees: 0) }
        #expect(throws: GeoError.longitudeOutOfRange(-181)) { try GeoPoint(latitudeDegrees: 0, longitudeDegrees: -181) }
        #expect(TrackDistance.meters(along: []) == 0)
    }
}
