import Foundation
import HeartworkCore
import HeartworkFormats

/// What `heartwork inspect` prints for an Apple Health `export.xml`: read as a stream (1 MB
/// at a time, so any size), samples counted per kind with their days and sources.
struct HealthExportSummary: Encodable {
    struct Kind: Encodable {
        var kind: String
        var samples: Int
        var firstDay: String
        var lastDay: String
        var sources: [String: Int]
    }

    var file: String
    var format = "apple-health"
    var bytes: Int
    var dateOfBirth: String?
    var sex: String?
    var kinds: [Kind]
    var workouts: Int
    var routes: Int
    /// Record types Heartwork does not keep, with their counts.
    var skipped: [String: Int]
    var warnings: [String]

    /// Whether the file starts like an Apple Health export (its root within the first 64 KB).
    static func looksLikeExport(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 65_536) else { return false }
        return String(decoding: head, as: UTF8.self).contains("<HealthData")
    }

    static func make(path: String) throws -> HealthExportSummary {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CommandFailure("\(path) cannot be read") }
        defer { try? handle.close() }
        var reader = AppleHealthReader()
        var counts = [HealthSample.Kind: (samples: Int, first: CalendarDay, last: CalendarDay, sources: [String: Int])]()
        var summary = HealthExportSummary(file: path, bytes: 0, kinds: [], workouts: 0, routes: 0, skipped: [:], warnings: [])
        func take(_ item: AppleHealthReader.Item) {
            switch item {
            case .sample(let sample):
                let day = sample.day
                var entry = counts[sample.kind] ?? (0, day, day, [:])
                entry.samples += 1
                entry.first = min(entry.first, day)
                entry.last = max(entry.last, day)
                entry.sources[sample.source, default: 0] += 1
                counts[sample.kind] = entry
            case .workout(let workout):
                summary.workouts += 1
                if workout.routePath != nil { summary.routes += 1 }
            case .owner(let owner):
                summary.dateOfBirth = owner.dateOfBirth?.description
                summary.sex = owner.sex?.rawValue
            }
        }
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                summary.bytes += chunk.count
                try reader.feed(chunk, take)
            }
            try reader.finish()
        } catch let failure as AppleHealthReader.Failure {
            summary.warnings.append(failure.description)
        }
        summary.skipped = reader.skipped
        summary.kinds = counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { kind, entry in
            Kind(kind: kind.rawValue, samples: entry.samples, firstDay: entry.first.description, lastDay: entry.last.description, sources: entry.sources)
        }
        return summary
    }

    var table: String {
        var rows: [(String, String)] = [("File", file), ("Format", "Apple Health export"), ("Size", "\(bytes) bytes")]
        if let dateOfBirth { rows.append(("Born", dateOfBirth)) }
        if let sex { rows.append(("Sex", sex)) }
        for kind in kinds {
            let sources = kind.sources.sorted { $0.value > $1.value }.prefix(3).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            rows.append((kind.kind, "\(kind.samples) samples, \(kind.firstDay) – \(kind.lastDay) (\(sources)\(kind.sources.count > 3 ? ", …" : ""))"))
        }
        rows.append(("Workouts", "\(workouts)\(routes > 0 ? ", \(routes) with a route" : "")"))
        let skippedCount = skipped.values.reduce(0, +)
        if skippedCount > 0 { rows.append(("Not kept", "\(skippedCount) records of \(skipped.count) other types")) }
        return LabelledRows.render(rows, warnings: warnings)
    }
}
