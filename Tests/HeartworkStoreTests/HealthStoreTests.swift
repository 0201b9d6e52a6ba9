import Foundation
import HeartworkCore
import HeartworkStore
import HeartworkTestSupport
import Testing

/// Health samples in the store (issue 11), on both engines: blocks per kind and local day,
/// exact repeats stored once, days cut where the sample was taken.
@Suite("Health samples store")
struct HealthStoreTests {
    static func sample(_ iso: String, offset: Int, _ value: Double, _ source: String = "Anna’s Apple Watch", kind: HealthSample.Kind = .heartRate) -> HealthSample {
        let date = ISO8601DateFormatter().date(from: iso) ?? Date(timeIntervalSince1970: 0)
        return HealthSample(kind: kind, start: date, end: date, utcOffsetSeconds: offset, value: value, source: source, device: nil)
    }

    @Test(arguments: TestDatabase.all)
    func samplesAreStoredPerDayOnceAndReadBack(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let user = UserRecord(username: "hanna", fullName: "Hanna Health", email: "hanna@example.org", passwordHash: "$2b$04$hash")
            try await store.users.create(user)
            // 23:30 UTC on the 28th in New York (−5 h) is the 28th there; in Berlin (+1 h) it is the 29th.
            let samples = [
                Self.sample("2026-03-28T23:30:00Z", offset: -18_000, 64),
                Self.sample("2026-03-28T23:30:00Z", offset: 3600, 66, "Anna’s iPhone"),
                Self.sample("2026-03-29T08:00:00Z", offset: 7200, 70),
                Self.sample("2026-03-29T08:00:00Z", offset: 7200, 812, kind: .steps),
            ]
            let first = try await store.health.add(userID: user.id, samples, now: Date())
            #expect(first.added == 4)
            #expect(
                first.days == [
                    HealthDayKey(kind: .heartRate, day: CalendarDay(year: 2026, month: 3, day: 28)!),
                    HealthDayKey(kind: .heartRate, day: CalendarDay(year: 2026, month: 3, day: 29)!),
                    HealthDayKey(kind: .steps, day: CalendarDay(year: 2026, month: 3, day: 29)!),
                ])
            // The same export again adds nothing and changes no day.
            let again = try await store.health.add(userID: user.id, samples, now: Date())
            #expect(again.added == 0 && again.days.isEmpty)
            let march28 = try await store.health.samples(
                userID: user.id, kind: .heartRate, from: CalendarDay(year: 2026, month: 3, day: 28)!,
                through: CalendarDay(year: 2026, month: 3, day: 28)!)
            #expect(march28.map(\.value) == [64] && march28.first?.utcOffsetSeconds == -18_000)
            let both = try await store.health.samples(
                userID: user.id, kind: .heartRate, from: CalendarDay(year: 2026, month: 3, day: 1)!,
                through: CalendarDay(year: 2026, month: 3, day: 31)!)
            #expect(Set(both.map(\.value)) == [64, 66, 70])
            let summary = try await store.health.summary(userID: user.id)
            #expect(summary.map(\.kind) == [.heartRate, .steps] && summary.first?.samples == 3)
            // Nobody else sees them; deleting the account takes them along.
            #expect(try await store.health.summary(userID: "someone-else").isEmpty)
            #expect(try await store.deleteAccount(userID: user.id, username: user.username))
            #expect(try await store.health.summary(userID: user.id).isEmpty)
        }
    }
}
