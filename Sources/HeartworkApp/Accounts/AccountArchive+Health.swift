import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

extension AccountArchive {
    /// Daily health, readable (issue 41): `health/samples/<kind>/<yyyy-mm>.csv`, a month of
    /// one kind at a time in memory, and `health/days.csv` / `.json`, a line a day from the
    /// first day with samples to the last, with each day's sources.
    func writeHealth(for user: UserRecord, add: (String, [UInt8]) async throws -> Void) async throws {
        guard let range = try await store.daily.dataRange(userID: user.id), range.first <= range.last else { return }
        var rows = [HealthCSV.Day]()
        var month = CalendarDay(year: range.first.year, month: range.first.month, day: 1) ?? range.first
        while month <= range.last {
            let from = max(month, range.first)
            let last = CalendarDay(year: month.year, month: month.month, day: CalendarDay.daysInMonth(year: month.year, month: month.month)) ?? month
            let through = min(last, range.last)
            var sources = [String: [String: Set<String>]]()
            for kind in HealthCSV.kinds {
                let samples = try await store.health.samples(userID: user.id, kind: kind.kind, from: from, through: through)
                guard !samples.isEmpty else { continue }
                for sample in samples { sources[sample.day.description, default: [:]][kind.name, default: []].insert(sample.source) }
                let name = "health/samples/\(kind.name)/" + String(format: "%04d-%02d.csv", month.year, month.month)
                try await add(name, Array(HealthCSV.samples(samples, unit: kind.unit).utf8))
            }
            let summaries = Dictionary(
                try await store.daily.days(userID: user.id, from: from, through: through).map { ($0.date, $0) }, uniquingKeysWith: { a, _ in a })
            var day = from
            while day <= through {
                let date = day.description
                let summary = summaries[date]
                let daySources = (sources[date] ?? [:]).mapValues { $0.sorted() }
                if summary?.hasData == true || !daySources.isEmpty { rows.append(HealthCSV.Day(summary, date: date, sources: daySources)) }
                day = day.adding(days: 1)
            }
            month = last.adding(days: 1)
        }
        try await add("health/days.csv", Array(HealthCSV.days(rows).utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try await add("health/days.json", Array(try encoder.encode(rows)) + [0x0A])
    }
}
