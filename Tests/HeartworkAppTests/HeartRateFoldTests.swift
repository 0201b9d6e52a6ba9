import Foundation
import HeartworkCore
import Testing

@testable import HeartworkApp

/// `GET /api/heart-rate` reads a long range a window at a time (issue 24's review: a year of
/// raw samples is not loaded at once); the answer is the one reading every sample at once gives.
@Suite("Heart rate read window by window")
struct HeartRateFoldTests {
    /// 2026-11-20T00:00:00Z.
    static let t0 = Date(timeIntervalSince1970: 1_795_132_800)

    /// A deterministic generator (SplitMix64).
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func sample(_ seconds: Double, _ bpm: Double, _ source: String, device: String? = nil, length: Double = 0, offset: Int = 0) -> HealthSample {
        let start = t0.addingTimeInterval(seconds)
        return HealthSample(
            kind: .heartRate, start: start, end: start.addingTimeInterval(length), utcOffsetSeconds: offset, value: bpm, source: source, device: device)
    }

    /// Four days from three sources in three time zones: readings every few seconds to half an
    /// hour apart (gaps past 10 minutes), some lasting a minute, a reading of no value, the
    /// sources' readings overlapping each other (at midnight UTC too, where the windows meet),
    /// and a source whose first device ranks it.
    static func days() -> [HealthSample] {
        var generator = Generator(state: 24)
        var samples = [HealthSample]()
        let sources: [(name: String, device: String?, offset: Int)] = [
            ("Mike's Apple Watch", "Watch6,1", -5 * 3600), ("Gadgetbridge", "Mi Band 6", 9 * 3600), ("Health", "iPhone", 14 * 3600),
        ]
        for (index, source) in sources.enumerated() {
            var time = -86_400.0 + Double(index) * 0.3
            while time < 5 * 86_400 {
                let length = Double.random(in: 0..<1, using: &generator) < 0.1 ? 60.0 : 0
                let bpm = Double(Int.random(in: 45...180, using: &generator))
                samples.append(sample(time, Int.random(in: 0..<500, using: &generator) == 0 ? 0 : bpm, source.name, device: source.device, length: length, offset: source.offset))
                time += [1, 5, 60, 300, 700, 1800].randomElement(using: &generator)! + Double(Int.random(in: 0...9, using: &generator)) / 10
            }
        }
        for day in 0...5 {
            let midnight = Double(day) * 86_400
            samples += [
                sample(midnight - 0.2, 150, "Health", device: "iPhone", offset: 14 * 3600),
                sample(midnight + 0.1, 70, "Gadgetbridge", device: "Mi Band 6", offset: 9 * 3600),
                sample(midnight - 30, 90, "Mike's Apple Watch", device: "Watch6,1", length: 45, offset: -5 * 3600),
            ]
        }
        return samples
    }

    /// Each local day's samples, as the store keeps them, and the days each read asked for.
    final class Store: @unchecked Sendable {
        let byDay: [CalendarDay: [HealthSample]]
        var reads: [(CalendarDay, CalendarDay)] = []
        var largestRead = 0

        init(_ samples: [HealthSample]) {
            byDay = Dictionary(grouping: samples, by: \.day)
        }

        func samples(from first: CalendarDay, through last: CalendarDay) -> [HealthSample] {
            reads.append((first, last))
            let samples = byDay.filter { $0.key >= first && $0.key <= last }.sorted { $0.key < $1.key }.flatMap { $0.value }.sorted { $0.start < $1.start }
            largestRead = max(largestRead, samples.count)
            return samples
        }
    }

    /// What reading it all at once gives (the computation before the review).
    static func atOnce(_ store: Store, from: Date, to: Date, bucketSeconds: Int, priority: HealthSourcePriority) -> HeartRateRange {
        let samples = priority.resolve(
            store.samples(from: CalendarDay(from).adding(days: -1), through: CalendarDay(to).adding(days: 1))
                .filter { $0.start >= from && $0.start < to.addingTimeInterval(RISE.maximumSampleSeconds) })
        return HeartRateRange.summarize(samples, from: from, to: to, bucketSeconds: bucketSeconds)
    }

    @Test(arguments: [1, 2, 7])
    func windowByWindowGivesTheAnswerOfAllAtOnce(windowDays: Int) async throws {
        let all = Self.days()
        #expect(HealthSourcePriority().resolve(all).count < all.count - 6, "sources displace each other, at midnight too")
        let ranges: [(Date, Date, Int)] = [
            (Self.t0, Self.t0.addingTimeInterval(4 * 86_400), 60),
            (Self.t0.addingTimeInterval(5000.5), Self.t0.addingTimeInterval(3 * 86_400 + 1234), 3600),
            (Self.t0.addingTimeInterval(86_400 - 600), Self.t0.addingTimeInterval(86_400 + 600), 1),
        ]
        for priority in [HealthSourcePriority(), HealthSourcePriority(order: ["Health", "Gadgetbridge"])] {
            for (from, to, bucketSeconds) in ranges {
                let expected = Self.atOnce(Store(all), from: from, to: to, bucketSeconds: bucketSeconds, priority: priority)
                let store = Store(all)
                let folded = try await DailyHealthService.foldHeartRate(
                    from: from, to: to, bucketSeconds: bucketSeconds, priority: priority, windowDays: windowDays
                ) { first, last in store.samples(from: first, through: last) }
                #expect(expected.samples > 2 && expected.buckets.count > 1)
                #expect(folded == expected, "window of \(windowDays) days, \(from)..<\(to)")
                // Every day read once, a window (and a day either side) at a time.
                let days = store.reads.flatMap { read in (0...(read.1.daysSinceEpoch - read.0.daysSinceEpoch)).map { read.0.adding(days: $0) } }
                #expect(Set(days).count == days.count)
                #expect(days.first == CalendarDay(from).adding(days: -1) && days.last == CalendarDay(to).adding(days: 1))
                #expect(store.reads.allSatisfy { $0.1.daysSinceEpoch - $0.0.daysSinceEpoch + 1 <= windowDays + 2 })
            }
        }
        // One window holds a day's samples, not the range's.
        let store = Store(all)
        _ = try await DailyHealthService.foldHeartRate(
            from: Self.t0, to: Self.t0.addingTimeInterval(4 * 86_400), bucketSeconds: 60, priority: HealthSourcePriority(), windowDays: 1
        ) { first, last in store.samples(from: first, through: last) }
        #expect(store.largestRead < all.count / 2)
    }

    /// Two per-second streams a third of a second apart overlap without a break: the resolver
    /// cuts anyway (its horizon) and still gives what resolving them at once gives.
    @Test func sourcesThatOverlapWithoutABreakAreStillCut() {
        let watch = (0..<3600).map { Self.sample(Double($0), 60 + Double($0 % 7), "Watch") }
        let strap = (0..<3600).map { Self.sample(Double($0) + 0.3, 100 + Double($0 % 5), "Polar H10", device: "Polar H10") }
        let all = (watch + strap).sorted { $0.start < $1.start }
        for priority in [HealthSourcePriority(), HealthSourcePriority(order: ["Polar H10"])] {
            var stream = HealthSourcePriority.Stream(priority, horizon: 600, margin: 60)
            var answered = [HealthSample]()
            var largest = 0
            for window in 0..<12 {
                let end = Self.t0.addingTimeInterval(Double(window + 1) * 300)
                let part = all.filter { $0.start >= Self.t0.addingTimeInterval(Double(window) * 300) && $0.start < end }
                let out = stream.add(part, before: end)
                answered += out
                largest = max(largest, out.count)
            }
            answered += stream.finish()
            #expect(answered == priority.resolve(all))
            #expect(largest < all.count / 2, "answered as it goes, not all at the end")
        }
    }
}
