import Foundation
import HeartworkCore

/// One dated value of a measurement history, in the kind's SI unit.
public struct MeasurementRecord: Sendable, Hashable {
    public var id: String
    public var kind: MeasurementKind
    public var measuredAt: Date
    public var value: Double
    /// Where an imported value came from ("Apple Health: iPhone"); nil for a value the user
    /// typed (which wins over an imported one of the same day).
    public var source: String?

    public init(id: String = UUID().uuidString.lowercased(), kind: MeasurementKind, measuredAt: Date, value: Double, source: String? = nil) {
        self.id = id
        self.kind = kind
        self.measuredAt = measuredAt
        self.value = value
        self.source = source
    }

    /// Whether the value came from an import rather than from the user.
    public var isImported: Bool { source != nil }
}
