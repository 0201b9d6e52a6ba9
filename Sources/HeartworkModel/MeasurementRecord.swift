import Foundation
import HeartworkCore

/// One dated value of a measurement history, in the kind's SI unit.
public struct MeasurementRecord: Sendable, Hashable {
    public var id: String
    public var kind: MeasurementKind
    public var measuredAt: Date
    public var value: Double

    public init(id: String = UUID().uuidString.lowercased(), kind: MeasurementKind, measuredAt: Date, value: Double) {
        self.id = id
        self.kind = kind
        self.measuredAt = measuredAt
        self.value = value
    }
}
