import Foundation
import HeartworkCore

/// A user's health samples (heart rate, HRV, steps, sleep …), kept as blocks per kind and
/// local day (`health_blocks`).
public protocol HealthSampleRepository: Sendable {
    /// Adds samples of any kinds and days, each to its block, leaving out exact repeats (so a
    /// re-imported export adds nothing); returns how many were new, and the (kind, day) blocks
    /// that changed.
    func add(userID: String, _ samples: [HealthSample], now: Date) async throws -> (added: Int, days: Set<HealthDayKey>)
    /// Merges a phone sync's samples (`HealthSampleMerge.upsert`: one per source and instant,
    /// a changed value replaces the earlier); returns what changed, by kind, and the blocks it touched.
    func sync(userID: String, _ samples: [HealthSample], now: Date) async throws -> (change: [HealthSample.Kind: HealthSampleMerge.Upsert], days: Set<HealthDayKey>)
    /// The stored samples of a kind whose local day lies in `from...through`, every source,
    /// by start.
    func samples(userID: String, kind: HealthSample.Kind, from: CalendarDay, through: CalendarDay) async throws -> [HealthSample]
    /// How many samples of each kind the user has, and the first and last day.
    func summary(userID: String) async throws -> [HealthKindSummary]
}

public struct HealthDayKey: Sendable, Hashable {
    public var kind: HealthSample.Kind
    public var day: CalendarDay

    public init(kind: HealthSample.Kind, day: CalendarDay) {
        self.kind = kind
        self.day = day
    }
}

public struct HealthKindSummary: Sendable, Hashable {
    public var kind: HealthSample.Kind
    public var samples: Int
    public var firstDay: CalendarDay
    public var lastDay: CalendarDay
}
