/// One GPS fix.
public struct GeoPoint: Sendable, Hashable, Codable {
    public let latitudeDegrees: Double
    public let longitudeDegrees: Double
    public let elevationMeters: Double?
    /// Seconds since the track's reference instant, if known.
    public let timeSeconds: Double?

    public init(
        latitudeDegrees: Double,
        longitudeDegrees: Double,
        elevationMeters: Double? = nil,
        timeSeconds: Double? = nil
    ) throws(GeoError) {
        guard latitudeDegrees.isFinite, (-90.0...90.0).contains(latitudeDegrees) else {
            throw .latitudeOutOfRange(latitudeDegrees)
        }
        guard longitudeDegrees.isFinite, (-180.0...180.0).contains(longitudeDegrees) else {
            throw .longitudeOutOfRange(longitudeDegrees)
        }
        if let elevationMeters, !elevationMeters.isFinite { throw .elevationNotFinite }
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.elevationMeters = elevationMeters
        self.timeSeconds = timeSeconds
    }
}

public enum GeoError: Error, Hashable, Sendable, CustomStringConvertible {
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)
    case elevationNotFinite

    public var description: String {
        switch self {
        case .latitudeOutOfRange(let value): "latitude \(value) is outside −90…90 degrees"
        case .longitudeOutOfRange(let value): "longitude \(value) is outside −180…180 degrees"
        case .elevationNotFinite: "elevation is not a finite number of metres"
        }
    }
}
