import Foundation
import HeartworkCore
import HeartworkFormats
import SQLKit

struct SQLHealthSampleRepository: HealthSampleRepository {
    let database: DatabaseConnection

    func add(userID: String, _ samples: [HealthSample], now: Date) async throws -> (added: Int, days: Set<HealthDayKey>) {
        let (change, days) = try await merge(userID: userID, samples, now: now) { stored, incoming in
            let (merged, new) = HealthSampleMerge.union(stored, incoming)
            return (merged, HealthSampleMerge.Upsert(added: new, unchanged: incoming.count - new))
        }
        return (change.values.reduce(0) { $0 + $1.added }, days)
    }

    func sync(userID: String, _ samples: [HealthSample], now: Date) async throws -> (change: [HealthSample.Kind: HealthSampleMerge.Upsert], days: Set<HealthDayKey>) {
        try await merge(userID: userID, samples, now: now, findingCopiesNextDoor: true, HealthSampleMerge.upsert)
    }

    /// Reads each (kind, day) block the samples fall in, merges them in, and writes back the
    /// blocks that changed, in one transaction. With `findingCopiesNextDoor` (a phone sync), a
    /// sample whose copy lies in the block of the day before or after — sent first from another
    /// time zone, where the same instant was another local day — goes to that block, so a
    /// resend after a flight is recognised rather than stored twice.
    private func merge(
        userID: String, _ samples: [HealthSample], now: Date, findingCopiesNextDoor: Bool = false,
        _ combine: @escaping @Sendable ([HealthSample], [HealthSample]) -> (samples: [HealthSample], change: HealthSampleMerge.Upsert)
    ) async throws -> (change: [HealthSample.Kind: HealthSampleMerge.Upsert], days: Set<HealthDayKey>) {
        // Compared as they would read back, so a sample sent again matches its stored copy.
        let grouped = Dictionary(grouping: samples.map(HealthBlockCodec.stored)) { HealthDayKey(kind: $0.kind, day: $0.day) }
        guard !grouped.isEmpty else { return ([:], []) }
        let lock: SQLQueryString = database.engine == .postgres ? " FOR UPDATE" : ""
        return try await database.transaction { sql in
            // The user's row first: FOR UPDATE locks a block that exists, not one two writers
            // are both about to create (the second's upsert would overwrite the first's merge).
            if database.engine == .postgres {
                _ = try await sql.readFirst("SELECT id FROM users WHERE id = \(bind: userID) FOR UPDATE")
            }
            var groups = grouped
            // Each block read (and locked) once.
            var blocks = [HealthDayKey: [HealthSample]]()
            func block(_ key: HealthDayKey) async throws -> [HealthSample] {
                if let cached = blocks[key] { return cached }
                var stored = [HealthSample]()
                if let row = try await sql.readFirst(
                    """
                    SELECT data FROM health_blocks WHERE user_id = \(bind: userID) AND kind = \(bind: key.kind.rawValue) AND day = \(bind: key.day.description)\(lock)
                    """)
                {
                    do {
                        stored = try HealthBlockCodec.decode([UInt8](try row.data("data")))
                    } catch {
                        throw StoreError.corruptData("health block \(key.kind.rawValue) \(key.day): \(error)")
                    }
                }
                blocks[key] = stored
                return stored
            }
            if findingCopiesNextDoor {
                var moved = [HealthDayKey: [HealthSample]]()
                for (key, incoming) in grouped {
                    let own = Set(try await block(key).map(HealthSampleMerge.SyncKey.init))
                    var neighbours = [(HealthDayKey, Set<HealthSampleMerge.SyncKey>)]()
                    for offset in [-1, 1] {
                        let next = HealthDayKey(kind: key.kind, day: key.day.adding(days: offset))
                        let stored = try await block(next)
                        if !stored.isEmpty { neighbours.append((next, Set(stored.map(HealthSampleMerge.SyncKey.init)))) }
                    }
                    guard !neighbours.isEmpty else { continue }
                    var stay = [HealthSample]()
                    for sample in incoming {
                        let id = HealthSampleMerge.SyncKey(sample)
                        if !own.contains(id), let (home, _) = neighbours.first(where: { $0.1.contains(id) }) {
                            moved[home, default: []].append(sample)
                        } else {
                            stay.append(sample)
                        }
                    }
                    groups[key] = stay
                }
                for (key, samples) in moved { groups[key, default: []] += samples }
            }
            var total = [HealthSample.Kind: HealthSampleMerge.Upsert]()
            var changed = Set<HealthDayKey>()
            for (key, incoming) in groups.sorted(by: { ($0.key.day, $0.key.kind.rawValue) < ($1.key.day, $1.key.kind.rawValue) }) where !incoming.isEmpty {
                let stored = try await block(key)
                let (merged, change) = combine(stored, incoming)
                total[key.kind, default: HealthSampleMerge.Upsert()].added += change.added
                total[key.kind, default: HealthSampleMerge.Upsert()].updated += change.updated
                total[key.kind, default: HealthSampleMerge.Upsert()].unchanged += change.unchanged
                guard change.added + change.updated > 0 else { continue }
                changed.insert(key)
                try await sql.raw(
                    """
                    INSERT INTO health_blocks (user_id, kind, day, sample_count, updated_at, data)
                    VALUES (\(bind: userID), \(bind: key.kind.rawValue), \(bind: key.day.description), \(bind: merged.count),
                        \(bind: now.millisecondsSince1970), \(bind: Data(HealthBlockCodec.encode(merged))))
                    ON CONFLICT (user_id, kind, day) DO UPDATE SET sample_count = excluded.sample_count,
                        updated_at = excluded.updated_at, data = excluded.data
                    """
                ).run()
            }
            return (total, changed)
        }
    }

    func samples(userID: String, kind: HealthSample.Kind, from: CalendarDay, through: CalendarDay) async throws -> [HealthSample] {
        let rows = try await database.all(
            """
            SELECT day, data FROM health_blocks WHERE user_id = \(bind: userID) AND kind = \(bind: kind.rawValue)
                AND day >= \(bind: from.description) AND day <= \(bind: through.description) ORDER BY day
            """)
        var samples = [HealthSample]()
        for row in rows {
            do {
                samples += try HealthBlockCodec.decode([UInt8](try row.data("data")))
            } catch {
                throw StoreError.corruptData("health block \(kind.rawValue) \((try? row.string("day")) ?? "?"): \(error)")
            }
        }
        return samples.sorted { $0.start < $1.start }
    }

    func summary(userID: String) async throws -> [HealthKindSummary] {
        try await database.all(
            """
            SELECT kind, SUM(sample_count) AS samples, MIN(day) AS first_day, MAX(day) AS last_day FROM health_blocks
            WHERE user_id = \(bind: userID) GROUP BY kind ORDER BY kind
            """
        ).compactMap { row in
            guard let kind = HealthSample.Kind(rawValue: try row.string("kind")),
                let first = CalendarDay(iso: try row.string("first_day")), let last = CalendarDay(iso: try row.string("last_day"))
            else { return nil }
            return HealthKindSummary(kind: kind, samples: try row.int("samples"), firstDay: first, lastDay: last)
        }
    }
}
