/// Battery Level (characteristic 0x2A19): one byte, a percentage 0–100.
public struct BatteryLevel: Sendable, Hashable, Codable {
    public let percent: UInt8

    /// Returns nil for values above 100, which the Bluetooth specification forbids.
    public init?(percent: UInt8) {
        guard percent <= 100 else { return nil }
        self.percent = percent
    }

    /// Display step 0…4, five steps of 20 % each: [0, 20) → 0 … [80, 100] → 4
    /// (PRODUCT.md "Battery shows five 20 % steps"; seed-001 Fig. 27 labels).
    public var step: Int { min(Int(percent) / 20, 4) }

    public static let stepCount = 5
}
