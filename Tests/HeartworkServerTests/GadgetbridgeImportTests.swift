import Foundation
import HeartworkCore
import HeartworkTestSupport
import Testing

@testable import HeartworkApp
@testable import HeartworkServer
@testable import HeartworkStore

/// Issue 24, Gadgetbridge: the database Gadgetbridge exports, uploaded to
/// `POST /api/imports/gadgetbridge` and read by the import job. The fixture is built from
/// Gadgetbridge's own DDL by `Tests/Reference/make_gadgetbridge_db.py` (a Mi Band 2, an Amazfit
/// Bip, a Pebble Time, an Amazfit GTR 4, rows of an unnamed device, invalid heart rates, tables
/// not read); the script worked out `gadgetbridge.expected.json` by its own reading of the rules.
@Suite("Gadgetbridge import")
struct GadgetbridgeImportTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Resources/gadgetbridge"))
        return try Data(contentsOf: url)
    }

    static var expected: [String: Any] {
        get throws { try #require(try JSONSerialization.jsonObject(with: fixture("gadgetbridge.expected.json")) as? [String: Any]) }
    }

    static func upload(_ server: ServerHarness, _ token: String, _ body: Data) async throws -> [String: Any] {
        let accepted = try await server.request(.post, "/api/imports/gadgetbridge", token: token, raw: body, contentType: "application/octet-stream")
        #expect(accepted.status == .accepted, "\(accepted.text)")
        let id = try #require(accepted.json["id"] as? String)
        #expect(accepted.headers[.location] == "/api/imports/\(id)")
        #expect(accepted.json["format"] as? String == "gadgetbridge")
        await server.services.jobs.runUntilIdle()
        return try await server.request(.get, "/api/imports/\(id)", token: token).json
    }

    @Test(arguments: TestDatabase.all)
    func aGadgetbridgeDatabaseIsReadWithWhatItDidNotUnderstand(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (userID, token) = try await server.signUp("gadgetgreta")
            let database = try Self.fixture("gadgetbridge.db")
            let expected = try Self.expected
            let samples = try #require(expected["samples"] as? [String: Int])

            let done = try await Self.upload(server, token, database)
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["progress"] as? Double == 1)
            #expect(done["samplesRead"] as? Int == expected["samplesTotal"] as? Int)
            #expect(done["samplesAdded"] as? Int == expected["samplesTotal"] as? Int)
            #expect(done["firstDay"] as? String == expected["firstDay"] as? String)
            #expect(done["lastDay"] as? String == expected["lastDay"] as? String)
            #expect(done["notUnderstood"] as? [String: Int] == expected["notUnderstood"] as? [String: Int], "\(done["notUnderstood"] ?? "")")
            #expect(done["read"] as? [String: Int] == expected["read"] as? [String: Int], "\(done["read"] ?? "")")

            // What the store holds, kind by kind, device by device, stage by stage.
            let first = CalendarDay(iso: "2026-02-28")!
            let last = CalendarDay(iso: "2026-03-05")!
            for (name, kind) in [("heartRate", HealthSample.Kind.heartRate), ("restingHeartRate", .restingHeartRate), ("steps", .steps), ("sleep", .sleep)] {
                let stored = try await server.store.health.samples(userID: userID, kind: kind, from: first, through: last)
                #expect(stored.count == samples[name], "\(name)")
                if kind == .steps { #expect(Int(stored.reduce(0) { $0 + $1.value }) == expected["stepsTotal"] as? Int) }
                if kind == .sleep {
                    var minutes = [String: Int]()
                    for sample in stored {
                        let stage = HealthSample.SleepStage(rawValue: Int(sample.value))
                        let name = stage == .core ? "core" : stage == .deep ? "deep" : stage == .rem ? "rem" : "other"
                        minutes[name, default: 0] += Int(sample.end.timeIntervalSince(sample.start)) / 60
                    }
                    #expect(minutes == expected["sleepMinutes"] as? [String: Int])
                }
                let devices = Set(stored.compactMap(\.device))
                #expect(devices.isSubset(of: Set(expected["devices"] as? [String] ?? [])))
                #expect(stored.allSatisfy { $0.source == $0.device })
            }
            let heart = try await server.store.health.samples(userID: userID, kind: .heartRate, from: first, through: last)
            #expect(heart.allSatisfy { (10...250).contains($0.value) }, "255, 0 and -1 are no heart rate")
            #expect(Set(heart.compactMap(\.device)) == ["Mi Band 2", "Amazfit Bip", "Pebble Time", "Amazfit GTR 4"])

            // The same file again adds nothing.
            let again = try await Self.upload(server, token, database)
            #expect(again["state"] as? String == "done" && again["samplesAdded"] as? Int == 0, "\(again)")
            #expect(again["samplesRead"] as? Int == expected["samplesTotal"] as? Int)

            // The days were worked out from it.
            let day = try await server.request(.get, "/api/days/2026-03-02", token: token)
            #expect(day.json["hasData"] as? Bool == true, "\(day.text)")
        }
    }

    @Test(arguments: TestDatabase.all)
    func whatIsNotAGadgetbridgeDatabaseIsRefused(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("gadgetgus")
            // Not SQLite at all.
            let text = try await server.request(
                .post, "/api/imports/gadgetbridge", token: token, raw: Data("just some text, not a database".utf8), contentType: "application/octet-stream")
            #expect(text.status == .badRequest && text.text.contains("not an SQLite database"), "\(text.text)")
            // An SQLite header and nothing after it.
            let cut = try Self.fixture("gadgetbridge.db").prefix(2000)
            let damaged = try await server.request(.post, "/api/imports/gadgetbridge", token: token, raw: Data(cut), contentType: "application/vnd.sqlite3")
            #expect(damaged.status == .badRequest, "\(damaged.text)")
            // An SQLite database, but not Gadgetbridge's.
            let other = try Self.otherDatabase()
            let notOurs = try await server.request(.post, "/api/imports/gadgetbridge", token: token, raw: other, contentType: "application/x-sqlite3")
            #expect(notOurs.status == .badRequest && notOurs.text.contains("not a Gadgetbridge database"), "\(notOurs.text)")
            // Nothing was kept of them.
            let imports = try await server.request(.get, "/api/imports", token: token).json["imports"] as? [Any]
            #expect(imports?.isEmpty == true)
        }
    }

    /// A file a hostile writer could make (untyped columns, text, real, NULL and 64-bit
    /// keys, blobs and long text for numbers, duplicate keys, a known table without its
    /// columns, a quote in a table name): read without a trap, everything else named.
    @Test(arguments: TestDatabase.all)
    func aHostileFileIsReadAsFarAsItGoes(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (userID, token) = try await server.signUp("gadgetgwen")
            let expected = try #require(try Self.expected["hostile"] as? [String: Any])
            let samples = try #require(expected["samples"] as? [String: Int])
            let done = try await Self.upload(server, token, try Self.fixture("gadgetbridge-hostile.db"))
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["samplesAdded"] as? Int == samples.values.reduce(0, +))
            #expect(done["notUnderstood"] as? [String: Int] == expected["notUnderstood"] as? [String: Int], "\(done["notUnderstood"] ?? "")")
            let first = CalendarDay(iso: "2026-03-01")!
            let last = CalendarDay(iso: "2026-03-03")!
            for (name, kind) in [("heartRate", HealthSample.Kind.heartRate), ("steps", .steps), ("sleep", .sleep)] {
                let stored = try await server.store.health.samples(userID: userID, kind: kind, from: first, through: last)
                #expect(stored.count == samples[name], "\(name)")
            }

            // The fixture with its last pages overwritten (MI_BAND_ACTIVITY_SAMPLE's and Pebble's):
            // the tables still readable are read and kept, the import fails naming the others
            // with SQLite's words.
            var damaged = [UInt8](try Self.fixture("gadgetbridge.db"))
            for index in (damaged.count - 6 * 4096)..<damaged.count { damaged[index] = 0xA5 }
            let failed = try await Self.upload(server, token, Data(damaged))
            let error = failed["error"] as? String ?? ""
            #expect(failed["state"] as? String == "failed", "\(failed)")
            #expect(error.contains("MI_BAND_ACTIVITY_SAMPLE") && error.contains("malformed"), "\(error)")
            let read = try #require(try Self.expected["read"] as? [String: Int])
            let readable = read.filter { $0.key.hasPrefix("Amazfit GTR 4:") || $0.key == "Amazfit Bip: resting heart rate" }.values.reduce(0, +)
            #expect(failed["samplesAdded"] as? Int == readable)
        }
    }

    /// Issue 40: a known sample table of 6,000 rows without its primary key (each page of it
    /// would sort the whole table: 400,000 such rows took 46.7 s of CPU against 10.1) is named
    /// with the way out and not read; the import ends at once.
    @Test(arguments: TestDatabase.all)
    func aTableWithoutItsIndexIsNamedAndNotRead(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("gadgeturi")
            let expected = try #require(try Self.expected["unindexed"] as? [String: Any])
            let done = try await Self.upload(server, token, try Self.fixture("gadgetbridge-unindexed.db"))
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["samplesAdded"] as? Int == 0)
            #expect(done["notUnderstood"] as? [String: Int] == expected["notUnderstood"] as? [String: Int], "\(done["notUnderstood"] ?? "")")
        }
    }

    /// The uploaded file's schema is not trusted: `trusted_schema` is off; a virtual table
    /// (rtree, fts5) or a table with a generated column, though named like a sample table, is
    /// refused before anything of it runs; the reader's queries run on its own thread, not on
    /// the pool sign-in's bcrypt uses.
    @Test func theReaderDoesNotRunTheFilesSchema() async throws {
        let url = try #require(Bundle.module.url(forResource: "gadgetbridge-hostile.db", withExtension: nil, subdirectory: "Resources/gadgetbridge"))
        let reader = try await SQLiteFileReader.open(path: url.path)
        do {
            #expect(try await reader.trustedSchema() == false)
            #expect(!reader.runsOnSharedThreadPool)
            #expect(try await reader.refusal(of: "GARMIN_ACTIVITY_SAMPLE") == "generated columns")
            #expect(try await reader.refusal(of: "XIAOMI_ACTIVITY_SAMPLE") == "a virtual table")
            #expect(try await reader.refusal(of: "HUAMI_HEART_RATE_MANUAL_SAMPLE") == "a virtual table")
            #expect(try await reader.refusal(of: "MI_BAND_ACTIVITY_SAMPLE") == nil)
            #expect(try await reader.refusal(of: "XIAOMI_ACTIVITY_SAMPLE_content") == nil, "a shadow table is a plain table")
            // Refused by every query of rows or columns, not only by the import's plan.
            for table in ["GARMIN_ACTIVITY_SAMPLE", "XIAOMI_ACTIVITY_SAMPLE"] {
                await #expect(throws: SQLiteFileReader.Failure.self) { try await reader.count(table) }
                await #expect(throws: SQLiteFileReader.Failure.self) { try await reader.columns(of: table) }
                await #expect(throws: SQLiteFileReader.Failure.self) {
                    try await reader.page(table, columns: ["TIMESTAMP", "DEVICE_ID", "HEART_RATE"], key: ["TIMESTAMP", "DEVICE_ID"], after: nil, limit: 10)
                }
            }
        } catch {
            await reader.close()
            throw error
        }
        await reader.close()
        // The schema's SQL as SQLite's tokenizer reads it (comments and white space skipped).
        #expect(SQLiteFileReader.isPlainCreateTable("create  table \"A\" (x)"))
        #expect(SQLiteFileReader.isPlainCreateTable("-- a comment\n CREATE/**/TABLE A (x)"))
        #expect(!SQLiteFileReader.isPlainCreateTable("CREATE /* a comment */ VIRTUAL TABLE A USING fts5(x)"))
        #expect(!SQLiteFileReader.isPlainCreateTable("CREATE VIRTUAL TABLE A USING rtree(id, a, b)"))
        #expect(!SQLiteFileReader.isPlainCreateTable(""))
    }

    /// A file that cannot be opened is said to be so in fixed words: SQLiteNIO's own name the
    /// upload's path (`file:/…/upload-<uuid>?mode=ro&immutable=1`), which is not the user's to see.
    @Test(arguments: TestDatabase.all)
    func aFileThatCannotBeOpenedDoesNotNameItsPath(engine: TestDatabase) async throws {
        let missing = NSTemporaryDirectory() + "no-such-directory-\(UUID().uuidString)/upload-\(UUID().uuidString)"
        do {
            _ = try await SQLiteFileReader.open(path: missing)
            Issue.record("a missing file opened")
        } catch {
            #expect("\(error)" == SQLiteFileReader.cannotOpen)
        }
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("gadgetgail")
            let accepted = try await server.request(
                .post, "/api/imports/gadgetbridge", token: token, raw: try Self.fixture("gadgetbridge.db"), contentType: "application/octet-stream")
            #expect(accepted.status == .accepted, "\(accepted.text)")
            let id = try #require(accepted.json["id"] as? String)
            // The upload goes before the job reads it.
            let record = try #require(try await server.store.daily.findImport(id: id))
            #expect(unlink(record.filePath) == 0)
            await server.services.jobs.runUntilIdle()
            let failed = try await server.request(.get, "/api/imports/\(id)", token: token).json
            let error = failed["error"] as? String ?? ""
            #expect(failed["state"] as? String == "failed", "\(failed)")
            #expect(error == SQLiteFileReader.cannotOpen, "\(error)")
            #expect(!error.contains("upload-") && !error.contains("file:"))
        }
    }

    /// Planning counts every table's rows (full scans of an upload of gigabytes): an import
    /// whose time is up stops there too, counting nothing more, and says why.
    @Test(arguments: TestDatabase.all)
    func anImportWhoseTimeIsUpStopsWhilePlanning(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("gadgetgert")
            let accepted = try await server.request(
                .post, "/api/imports/gadgetbridge", token: token, raw: try Self.fixture("gadgetbridge.db"), contentType: "application/octet-stream")
            #expect(accepted.status == .accepted, "\(accepted.text)")
            let id = try #require(accepted.json["id"] as? String)
            let record = try #require(try await server.store.daily.findImport(id: id))
            let job = JobRecord(kind: DailyHealthService.ImportJob.jobName, userID: record.userID, payload: "{}", runAfter: Date(), createdAt: Date())
            try await server.services.daily.runImport(
                DailyHealthService.ImportJob(importID: id, file: URL(fileURLWithPath: record.filePath).lastPathComponent),
                context: JobContext(job: job, deadline: .now))
            let stopped = try await server.request(.get, "/api/imports/\(id)", token: token).json
            #expect(stopped["state"] as? String == "failed", "\(stopped)")
            #expect((stopped["error"] as? String)?.contains("took longer than") == true, "\(stopped)")
            #expect((stopped["notUnderstood"] as? [String: Int] ?? [:]).isEmpty, "nothing counted after the time was up: \(stopped)")
            #expect(stopped["samplesAdded"] as? Int == 0)
        }
    }

    /// A valid SQLite file that is not Gadgetbridge's.
    static func otherDatabase() throws -> Data {
        // The fixture's header and page size, with its schema's table names changed: still a
        // database SQLite opens, no longer Gadgetbridge's.
        var bytes = [UInt8](try fixture("gadgetbridge.db"))
        for name in [
            "MI_BAND_ACTIVITY_SAMPLE", "HUAMI_EXTENDED_ACTIVITY_SAMPLE", "PEBBLE_HEALTH_ACTIVITY_SAMPLE", "PEBBLE_HEALTH_ACTIVITY_OVERLAY", "HUAMI_HEART_RATE_RESTING_SAMPLE",
        ] {
            let from = Array(name.utf8)
            var to = from
            to[0] = UInt8(ascii: "Q")
            var index = 0
            while index + from.count <= bytes.count {
                if bytes[index..<index + from.count].elementsEqual(from) { bytes.replaceSubrange(index..<index + from.count, with: to) }
                index += 1
            }
        }
        return Data(bytes)
    }
}
