import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore

/// Gadgetbridge imports (issue 24; docs/DAILY-HEALTH.md): the database the Android app exports
/// (Settings → Database management → Export DB, or its auto-export), uploaded as it is and read
/// by the same import job as an Apple Health export. The table and column meanings are
/// `GadgetbridgeSchema`'s (Formats); the file is read by `SQLiteFileReader` (Store) a page at a
/// time.
extension DailyHealthService {
    /// Rows read from the file at once.
    /// Tables of kinds not read that are still counted for the summary.
    static let unreadTablesCounted = 100
    static let gadgetbridgePageRows = 5_000

    /// Refuses, at upload, a file that is not an SQLite database or not Gadgetbridge's.
    func checkGadgetbridge(path: String) async throws {
        let reader: SQLiteFileReader
        do {
            reader = try await SQLiteFileReader.open(path: path)
        } catch {
            throw AppError.invalid("\(error); upload the database file Gadgetbridge exports (Settings → Database management → Export DB)", field: nil)
        }
        defer { Task { await reader.close() } }
        let tables: [String]
        do {
            tables = try await reader.tables()
        } catch {
            throw AppError.invalid("the database cannot be read (\(error))", field: nil)
        }
        guard GadgetbridgeSchema.isGadgetbridge(tables: tables) else {
            let known = GadgetbridgeSchema.tables.map(\.name).joined(separator: ", ")
            throw AppError.invalid(
                "the SQLite file is not a Gadgetbridge database: it has none of the sample tables read (\(known)); upload the file Gadgetbridge exports (Settings → Database management → Export DB)",
                field: nil)
        }
    }

    /// The import job for a Gadgetbridge database: every known sample table in key order, a
    /// page at a time; samples stored in batches (exact repeats once); the days touched
    /// recomputed. A table that cannot be read (a damaged file) ends the import as failed with
    /// what was read before kept. A run after a crash reads the file again and adds only what
    /// is missing.
    func runGadgetbridgeImport(_ start: HealthImportRecord, user: UserRecord, resumed: Bool, context: JobContext) async throws {
        var record = start
        let previousAdded = record.samplesAdded
        var failure: String?
        var earliest: CalendarDay?
        var latest: CalendarDay?
        var read: Int64 = 0
        var added: Int64 = 0
        let fileBytes = max(record.bytesTotal, 1)

        let reader: SQLiteFileReader
        do {
            reader = try await SQLiteFileReader.open(path: record.filePath)
        } catch {
            record.state = .failed
            record.error = "\(error)"
            record.finishedAt = Date()
            record.updatedAt = Date()
            try await store.daily.updateImport(record)
            unlink(record.filePath)
            return
        }
        defer { Task { await reader.close() } }

        let timeUp = "the import took longer than \(JobRunner.describe(Self.importTimeLimit)) and was stopped; what was read before is kept"
        var gadgetbridge: GadgetbridgeReader
        var damaged = [String]()
        var plan = [(table: GadgetbridgeSchema.Table, rows: Int)]()
        // Tables with data not read, counted once the sample tables are read (so that, with
        // more kinds than `notUnderstood` names, what the reading found is named first).
        var unread = [String]()
        do {
            let tables = try await reader.tables()
            let devices = try await Self.gadgetbridgeDevices(reader, tables: tables)
            gadgetbridge = GadgetbridgeReader(devices: devices.devices, timeZone: TimeZones.zone(user.timeZone))
            if let refused = devices.refused { gadgetbridge.note("DEVICE (\(refused): not read)") }
            // Planning counts rows (full scans of a large file): the time limit is checked
            // between its steps too.
            planning: for name in tables {
                // A table that cannot be read (a damaged page) is named; the others are read.
                do {
                    if let table = GadgetbridgeSchema.table(named: name) {
                        guard !context.isExpired else {
                            failure = timeUp
                            break planning
                        }
                        if let refused = try await reader.refusal(of: name) {
                            gadgetbridge.note("\(name) (\(refused): not read)")
                            continue
                        }
                        let columns = Set(try await reader.columns(of: name))
                        let missing = table.columns.filter { !columns.contains($0) }
                        let rows = try await reader.count(name)
                        guard missing.isEmpty else {
                            gadgetbridge.note("\(name) (without \(missing.joined(separator: ", ")))", rows)
                            continue
                        }
                        guard !context.isExpired else {
                            failure = timeUp
                            break planning
                        }
                        // A table Gadgetbridge writes is keyed by its time; one without that
                        // index is read only if it fits in one page (else each page would sort it all).
                        if rows > Self.gadgetbridgePageRows, try await !reader.keyIsIndexed(name, key: table.key) {
                            gadgetbridge.note(
                                "\(name) (no index on \(table.key.joined(separator: ", ")), which the tables Gadgetbridge writes have: not read; export the database from Gadgetbridge again)",
                                rows)
                            continue
                        }
                        gadgetbridge.note("\(name): rows without a number as key", try await reader.countUnkeyed(name, key: table.key))
                        if rows > 0 { plan.append((table, rows)) }
                    } else if GadgetbridgeSchema.holdsUnreadData(name) {
                        unread.append(name)
                    }
                } catch {
                    damaged.append("\(name) (\(error))")
                }
            }
        } catch {
            gadgetbridge = GadgetbridgeReader(devices: [], timeZone: TimeZone(secondsFromGMT: 0)!)
            failure = "\(error)"
        }

        let totalRows = max(1, plan.reduce(0) { $0 + $1.rows })
        var rowsDone = 0
        var pending = [HealthSample]()
        func flush(_ final: Bool) async throws -> Bool {
            guard final || pending.count >= HealthExportSource.batchSize else { return true }
            if !pending.isEmpty {
                let result = try await self.store.health.add(userID: user.id, pending, now: Date())
                read += Int64(pending.count)
                added += Int64(result.added)
                for sample in pending {
                    earliest = min(earliest ?? sample.day, sample.day)
                    latest = max(latest ?? sample.day, sample.day)
                }
                pending.removeAll(keepingCapacity: true)
            }
            record.bytesDone = min(fileBytes, Int64(Double(fileBytes) * Double(rowsDone) / Double(totalRows)))
            record.samplesRead = read
            record.samplesAdded = (resumed ? previousAdded : 0) + added
            record.read = gadgetbridge.read
            record.notUnderstood = gadgetbridge.notUnderstood
            if let earliest { record.firstDay = min(record.firstDay ?? earliest, earliest) }
            if let latest { record.lastDay = max(record.lastDay ?? latest, latest) }
            record.updatedAt = Date()
            return try await self.store.daily.updateImport(record)
        }

        do {
            tables: for (table, _) in plan where failure == nil {
                var after: [DatabaseValue]?
                while true {
                    await context.checkpoint()
                    if context.isExpired {
                        failure = timeUp
                        break tables
                    }
                    let rows: [[DatabaseValue]]
                    do {
                        rows = try await reader.page(table.name, columns: table.columns, key: table.key, after: after, limit: Self.gadgetbridgePageRows)
                    } catch {
                        // What the table gave before the damaged page is kept; the next table is read.
                        damaged.append("\(table.name) (\(error))")
                        break
                    }
                    for row in rows { gadgetbridge.read(row, of: table, into: &pending) }
                    rowsDone += rows.count
                    guard let last = rows.last, rows.count == Self.gadgetbridgePageRows else { break }
                    after = Array(last.prefix(table.key.count))
                    guard try await flush(false) else { return removeUploads([record.filePath]) }
                }
                gadgetbridge.finishTable(into: &pending)
            }
            // Tables it does not read are counted for the summary, the first 100 of them.
            if unread.count > Self.unreadTablesCounted {
                gadgetbridge.note("\(unread.count - Self.unreadTablesCounted) more tables of kinds not read (not counted)")
                unread.removeLast(unread.count - Self.unreadTablesCounted)
            }
            for name in unread where failure == nil {
                if context.isExpired {
                    failure = timeUp
                    break
                }
                do {
                    if let refused = try await reader.refusal(of: name) {
                        gadgetbridge.note("\(name) (\(refused): not read)")
                    } else {
                        gadgetbridge.note(name, try await reader.count(name))
                    }
                } catch {
                    damaged.append("\(name) (\(error))")
                }
            }
            guard try await flush(true) else { return removeUploads([record.filePath]) }
        } catch {
            // The account went while it ran (its rows are gone): so does its upload.
            if try await self.store.daily.findImport(id: record.id) == nil { return removeUploads([record.filePath]) }
            throw error
        }
        if let earliest { try await queueRecompute(userID: user.id, from: earliest) }
        if failure == nil, !damaged.isEmpty {
            failure = "the file is damaged: \(damaged.joined(separator: "; ")) could not be read to the end; everything else was read and kept"
        }
        record.state = failure == nil ? .done : .failed
        record.error = failure
        record.finishedAt = Date()
        record.updatedAt = Date()
        try await self.store.daily.updateImport(record)
        unlink(record.filePath)
    }

    /// The `DEVICE` table (at most `GadgetbridgeReader.maximumDevices` rows; older schemas
    /// have no TYPE_NAME, the oldest no TYPE), or why it is not read (`SQLiteFileReader.refusal`).
    static func gadgetbridgeDevices(_ reader: SQLiteFileReader, tables: [String]) async throws -> (devices: [GadgetbridgeDevice], refused: String?) {
        guard tables.contains("DEVICE") else { return ([], nil) }
        if let refused = try await reader.refusal(of: "DEVICE") { return ([], refused) }
        let available = Set(try await reader.columns(of: "DEVICE"))
        let wanted = ["_id", "NAME", "MANUFACTURER", "IDENTIFIER", "TYPE", "TYPE_NAME"].filter { available.contains($0) }
        guard wanted.contains("_id") else { return ([], nil) }
        let devices = try await reader.all("DEVICE", columns: wanted, limit: GadgetbridgeReader.maximumDevices).compactMap { row -> GadgetbridgeDevice? in
            func value(_ name: String) -> DatabaseValue { wanted.firstIndex(of: name).map { row[$0] } ?? .null }
            guard let id = value("_id").integer else { return nil }
            return GadgetbridgeDevice(
                id: id, name: value("NAME").text ?? "", manufacturer: value("MANUFACTURER").text ?? "", identifier: value("IDENTIFIER").text ?? "",
                type: value("TYPE").integer, typeName: value("TYPE_NAME").text)
        }
        return (devices, nil)
    }
}
