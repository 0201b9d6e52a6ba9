import Foundation
import HeartworkCore
import HeartworkStore

/// Six months of generated watch data for the demo account (`serve --demo`), so the Today,
/// week and history pages are alive at once: heart rate every 5 minutes (lower asleep, walks
/// during the day, the demo workouts' own heart rate every 5 s), a daily resting heart rate
/// and HRV with a strained fortnight three weeks ago, steps, and nights with sleep stages.
/// Then every day is worked out, as the job queue would after an import.
enum DemoHealth {
    static let days = 182
    static let source = "Demo’s Apple Watch"

    static func seed(_ services: HeartworkServices, user: UserRecord, now: Date, random: inout SplitMix64) async throws {
        let today = CalendarDay(now)
        let first = today.adding(days: -(days - 1))
        let workouts = try await services.workouts.all(for: user, from: first.start(), to: now.addingTimeInterval(86_400))
        var samples = [HealthSample]()
        func add(_ kind: HealthSample.Kind, _ start: Date, _ end: Date? = nil, _ value: Double) {
            guard start <= now else { return }
            samples.append(HealthSample(kind: kind, start: start, end: end ?? start, utcOffsetSeconds: 0, value: value, source: source, device: "Apple Watch"))
        }
        for index in 0..<days {
            let day = first.adding(days: index)
            let midnight = day.start()
            let daysAgo = days - 1 - index
            let strained = (14...27).contains(daysAgo)
            // The night before: in bed about 22:45–06:45, stages within it.
            let bed = midnight.addingTimeInterval(-75 * 60 + Double.random(in: -40...40, using: &random) * 60)
            let rise = midnight.addingTimeInterval(6.75 * 3600 + Double.random(in: -30...45, using: &random) * 60 - (strained ? 3600 : 0))
            add(.sleep, bed, rise, Double(HealthSample.SleepStage.inBed.rawValue))
            var cursor = bed.addingTimeInterval(Double.random(in: 8...25, using: &random) * 60)
            let cycle: [(HealthSample.SleepStage, ClosedRange<Double>)] = [(.core, 30...50), (.deep, 15...35), (.core, 20...30), (.rem, 10...25)]
            while cursor < rise.addingTimeInterval(-20 * 60) {
                for (stage, minutes) in cycle {
                    let end = min(rise.addingTimeInterval(-10 * 60), cursor.addingTimeInterval(Double.random(in: minutes, using: &random) * 60))
                    guard end > cursor else { break }
                    add(.sleep, cursor, end, Double(stage.rawValue))
                    cursor = end
                }
                if Bool.random(using: &random) {
                    let end = cursor.addingTimeInterval(Double.random(in: 2...8, using: &random) * 60)
                    add(.sleep, cursor, end, Double(HealthSample.SleepStage.awake.rawValue))
                    cursor = end
                }
            }
            // Heart rate every 5 minutes outside workouts.
            let resting = 52 + (strained ? 4.5 : 0) + Double.random(in: -1.5...1.5, using: &random)
            let walks = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                midnight.addingTimeInterval(Double.random(in: 8...19, using: &random) * 3600)
            }
            let inWorkout = { (time: Date) in workouts.contains { time >= $0.startedAt && time < $0.startedAt.addingTimeInterval(Double($0.metrics.durationSeconds)) } }
            var daytime = 72.0
            for slot in 0..<288 {
                let time = midnight.addingTimeInterval(Double(slot) * 300)
                guard !inWorkout(time) else { continue }
                let hour = Double(slot) / 12
                let value: Double
                if time < rise || hour >= 23 {
                    value = resting + 3 + Double.random(in: -2...3, using: &random)
                } else if walks.contains(where: { time >= $0 && time < $0.addingTimeInterval(35 * 60) }) {
                    value = 100 + Double.random(in: -6...12, using: &random)
                } else {
                    // Wanders around 75 and comes back (AR(1), φ = 0.8), as a resting heart does:
                    // a plain random walk could sit at 68 for three hours, which the anomaly
                    // detector then rightly flagged on the demo's history page.
                    daytime = min(92, max(62, 75 + 0.8 * (daytime - 75) + Double.random(in: -4...4, using: &random)))
                    value = daytime
                }
                add(.heartRate, time, nil, value.rounded())
            }
            add(.restingHeartRate, midnight, midnight.addingTimeInterval(23 * 3600), resting.rounded())
            let sdnn = exp(log(strained ? 42 : 56) + Double.random(in: -0.18...0.18, using: &random))
            add(.heartRateVariabilitySDNN, midnight.addingTimeInterval(7 * 3600), midnight.addingTimeInterval(7 * 3600 + 60), (sdnn * 10).rounded() / 10)
            // Steps, hourly from 07:00 to 21:00 (fewer on a lazy day).
            let lazy = Int.random(in: 0..<7, using: &random) == 0
            for hour in 7..<21 {
                let start = midnight.addingTimeInterval(Double(hour) * 3600)
                let walking = walks.contains { $0 >= start && $0 < start.addingTimeInterval(3600) }
                let count = (walking ? 2500 : lazy ? 150 : 450) + Int.random(in: 0...300, using: &random)
                add(.steps, start, start.addingTimeInterval(3600), Double(count))
            }
        }
        // The demo workouts' heart rate, every 5 s.
        for workout in workouts {
            guard let streams = try await services.store.workouts.streams(workoutID: workout.id) else { continue }
            for second in stride(from: 0, to: streams.heartRate.count, by: 5) {
                if let bpm = streams.heartRate[second] { add(.heartRate, workout.startedAt.addingTimeInterval(Double(second)), nil, Double(bpm)) }
            }
        }
        for batch in stride(from: 0, to: samples.count, by: 20_000) {
            _ = try await services.store.health.add(userID: user.id, Array(samples[batch..<min(samples.count, batch + 20_000)]), now: now)
        }
        try await services.store.daily.putMark(userID: user.id, DayMarkRecord(day: today.adding(days: -20), sleepQuality: nil, mark: "sick", updatedAt: now))
        try await services.daily.recompute(user, from: first.adding(days: -1), through: today, now: now)
    }
}
