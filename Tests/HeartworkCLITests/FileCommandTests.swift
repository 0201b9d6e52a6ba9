import Foundation
import HeartworkTestSupport
import Testing

/// `heartwork inspect`, `convert` and `import` as a user runs them, on the fixtures of the
/// format tests (Tests/HeartworkFormatsTests/Resources: a fit-tool FIT file, Garmin and Strava
/// GPX and TCX, RR exports of Kubios, Polar and Elite HRV) and against a real server.
@Suite("heartwork inspect, convert and import", .serialized)
struct FileCommandTests {
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("HeartworkFormatsTests/Resources")

    static func fixture(_ path: String) -> String { resources.appendingPathComponent(path).path }

    func run(_ arguments: [String]) throws -> ExecutableTests.Run {
        let process = Process()
        process.executableURL = try ExecutableTests.executable()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ExecutableTests.Run(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func inspectReadsEveryFormat() throws {
        // ride.fit: 600 records, 594 with a heart rate, 1,200 RR intervals (fitdecode's reading, FITTests).
        let fit = try run(["inspect", Self.fixture("fit/ride.fit"), "--format", "json"])
        #expect(fit.status == 0, "\(fit.standardError)")
        let summary = try json(fit.standardOutput)
        #expect(summary["format"] as? String == "fit")
        #expect(summary["records"] as? Int == 600)
        #expect(summary["heartRateRecords"] as? Int == 594)
        #expect(summary["rrIntervals"] as? Int == 1200)
        #expect(summary["workout"] as? Bool == true)
        #expect(summary["sport"] as? String == "cycling")

        let table = try run(["inspect", Self.fixture("tcx/garmin.tcx")])
        #expect(table.status == 0)
        #expect(table.standardOutput.contains("Format      TCX") || table.standardOutput.contains("TCX"))
        #expect(table.standardOutput.contains("Workout     yes"))

        let rr = try json(try run(["inspect", Self.fixture("rr/polar-sensor-logger.txt"), "--format", "json"]).standardOutput)
        #expect(rr["format"] as? String == "rr")
        #expect(rr["rrIntervals"] as? Int == 200)
        #expect(rr["rrColumn"] as? String == "RR-interval [ms]")
        #expect(rr["start"] as? String == "2026-06-04T06:58:03.256Z")
    }

    @Test func inspectSummarisesAnAppleHealthExport() throws {
        let directory = try TemporaryDirectory()
        let export = try directory.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (ExportDate,Me,(Record|Workout)*)>
            ]>
            <HealthData locale="en_US">
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-05-17" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2026-03-27 08:00:58 +0100" endDate="2026-03-27 08:00:58 +0100" value="72"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2026-03-28 08:00:58 +0100" endDate="2026-03-28 08:00:58 +0100" value="70"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2026-03-28 09:00:00 +0100" endDate="2026-03-28 09:10:00 +0100" value="812"/>
             <Record type="HKQuantityTypeIdentifierDietaryWater" sourceName="Phone" unit="mL" startDate="2026-03-28 09:00:00 +0100" endDate="2026-03-28 09:00:00 +0100" value="250"/>
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="Watch" startDate="2026-03-28 18:00:00 +0200" endDate="2026-03-28 18:31:30 +0200"><WorkoutRoute><FileReference path="/workout-routes/r.gpx"/></WorkoutRoute></Workout>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2026-03-29 08:00:58 +0100"
            """, to: "export.xml")
        let result = try run(["inspect", export, "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let summary = try json(result.standardOutput)
        #expect(summary["format"] as? String == "apple-health" && summary["sex"] as? String == "female" && summary["dateOfBirth"] as? String == "1990-05-17")
        let kinds = summary["kinds"] as? [[String: Any]] ?? []
        #expect(kinds.map { $0["kind"] as? String } == ["heartRate", "steps"])
        #expect(kinds.first?["samples"] as? Int == 2 && kinds.first?["firstDay"] as? String == "2026-03-27" && kinds.first?["lastDay"] as? String == "2026-03-28")
        #expect(summary["workouts"] as? Int == 1 && summary["routes"] as? Int == 1)
        #expect((summary["skipped"] as? [String: Int])?["HKQuantityTypeIdentifierDietaryWater"] == 1)
        // The file is cut in its last record: what came before is counted, the end is named.
        #expect((summary["warnings"] as? [String])?.first?.contains("ends inside a tag") == true)
        let table = try run(["inspect", export])
        #expect(table.standardOutput.contains("Apple Health export") && table.standardOutput.contains("heartRate"))
    }

    @Test func aCutFITFileShowsWhatWasReadAndWhereItBroke() throws {
        let directory = try TemporaryDirectory()
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("fit/ride.fit")))
        let cut = directory.url.appendingPathComponent("cut.fit")
        try whole.prefix(9_000).write(to: cut)
        let run = try run(["inspect", cut.path, "--format", "json"])
        #expect(run.status == 0)
        let summary = try json(run.standardOutput)
        let records = try #require(summary["records"] as? Int)
        #expect(records > 100 && records < 600)
        let warnings = try #require(summary["warnings"] as? [String])
        #expect(warnings.contains { $0.contains("byte") }, "\(warnings)")
    }

    @Test func convertGoesThroughEveryFormatAndBack() throws {
        let directory = try TemporaryDirectory()
        func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }
        for (input, output) in [
            (Self.fixture("fit/ride.fit"), "ride.tcx"), (path("ride.tcx"), "ride-via-tcx.json"),
            (Self.fixture("fit/ride.fit"), "ride.json"), (Self.fixture("fit/ride.fit"), "ride.gpx"),
            (path("ride.gpx"), "ride-via-gpx.fit"), (path("ride-via-gpx.fit"), "ride-via-gpx-fit.json"),
        ] {
            let run = try run(["convert", input, path(output)])
            #expect(run.status == 0, "\(input) → \(output): \(run.standardError)")
        }
        let direct = try json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path("ride.json"))), as: UTF8.self))
        let viaTCX = try json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path("ride-via-tcx.json"))), as: UTF8.self))
        let viaGPX = try json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path("ride-via-gpx-fit.json"))), as: UTF8.self))
        #expect((direct["heartRate"] as? [Any])?.count == 600)
        #expect(direct["heartRate"] as? NSArray == viaTCX["heartRate"] as? NSArray)
        #expect(direct["startTime"] as? String == viaTCX["startTime"] as? String)
        #expect((direct["track"] as? [Any])?.count == (viaGPX["track"] as? [Any])?.count)
        #expect(direct["heartRate"] as? NSArray == viaGPX["heartRate"] as? NSArray)

        // The RR intervals out as text, one per line, as Kubios reads them.
        #expect(try run(["convert", Self.fixture("fit/ride.fit"), path("ride-rr.txt")]).status == 0)
        let lines = try String(contentsOfFile: path("ride-rr.txt"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1200)

        // An existing file is kept unless --force.
        let again = try run(["convert", Self.fixture("fit/ride.fit"), path("ride.json")])
        #expect(again.status != 0)
        #expect(again.standardError.contains("--force"))
        #expect(try run(["convert", Self.fixture("fit/ride.fit"), path("ride.json"), "--force"]).status == 0)
        let wrong = try run(["convert", Self.fixture("fit/ride.fit"), path("ride.docx")])
        #expect(wrong.status != 0)
        #expect(wrong.standardError.contains(".docx"))
    }

    @Test func anRRExportBecomesAWorkoutAtItsStart() throws {
        let directory = try TemporaryDirectory()
        // Elite HRV names its exports after the recording's start.
        let named = directory.url.appendingPathComponent("2017-06-29 13-11-53.txt")
        try Data(contentsOf: URL(fileURLWithPath: Self.fixture("rr/elite-hrv.txt"))).write(to: named)
        let out = directory.url.appendingPathComponent("elite.json")
        let run = try run(["convert", named.path, out.path])
        #expect(run.status == 0, "\(run.standardError)")
        let workout = try json(String(decoding: try Data(contentsOf: out), as: UTF8.self))
        #expect(workout["startTime"] as? String == "2017-06-29T13:11:53Z")
        #expect((workout["rrIntervals"] as? [Any])?.count == 200)
        let rates = (workout["heartRate"] as? [Any])?.compactMap { $0 as? Int } ?? []
        #expect(rates.count > 150)
        #expect(rates.allSatisfy { (50...100).contains($0) })

        // Kubios's report does not carry the recording's date: the user gives it.
        let kubios = try self.run(["convert", Self.fixture("rr/kubios-export.txt"), directory.url.appendingPathComponent("k.json").path])
        #expect(kubios.status != 0)
        #expect(kubios.standardError.contains("--start"))
        let given = try self.run([
            "convert", Self.fixture("rr/kubios-export.txt"), directory.url.appendingPathComponent("k.json").path,
            "--start", "2026-06-04T06:58:00Z", "--sport", "running",
        ])
        #expect(given.status == 0, "\(given.standardError)")
    }

    @Test func importSendsAFolderAndSkipsWhatIsThereAlready() async throws {
        let data = try TemporaryDirectory()
        let server = try ServeTests.Server(dataDirectory: data.url.path)
        let registration = Data(#"{"username":"stopper","fullName":"Im Porter","email":"i@example.org","password":"12345678"}"#.utf8)
        #expect(try await server.call("POST", "/api/auth/register", body: registration).status == 201)
        let token = try await server.signIn()

        let folder = try TemporaryDirectory()
        let nested = folder.url.appendingPathComponent("2026/June")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        for (fixture, name) in [("fit/ride.fit", "ride.fit"), ("tcx/garmin.tcx", "2026/run.tcx"), ("gpx/strava.gpx", "2026/June/walk.gpx")] {
            try Data(contentsOf: URL(fileURLWithPath: Self.fixture(fixture))).write(to: folder.url.appendingPathComponent(name))
        }
        try Data("<gpx version=\"1.1\"><trk><trkseg></trkseg></trk></gpx>".utf8).write(to: folder.url.appendingPathComponent("empty.gpx"))
        try Data("not an activity".utf8).write(to: folder.url.appendingPathComponent("notes.md"))
        try Data("hidden".utf8).write(to: folder.url.appendingPathComponent(".hidden.fit"))
        let rr = try TemporaryDirectory()
        let elite = rr.url.appendingPathComponent("2017-06-29 13-11-53.txt")
        try Data(contentsOf: URL(fileURLWithPath: Self.fixture("rr/elite-hrv.txt"))).write(to: elite)

        let address = "http://127.0.0.1:\(server.port)"
        let first = try run(["import", folder.url.path, elite.path, "--server", address, "--token", token])
        #expect(first.status == 1, "a failed file makes the exit status 1")
        #expect(first.standardOutput.contains("4 imported, 0 duplicates skipped, 1 failed"), "\(first.standardOutput)\(first.standardError)")
        #expect(first.standardOutput.contains("empty.gpx: 422"), "\(first.standardOutput)")

        let second = try run(["import", folder.url.path, elite.path, "--server", address, "--token", token, "--format", "json"])
        let summary = try json(second.standardOutput)
        #expect(summary["imported"] as? Int == 0)
        #expect(summary["duplicates"] as? Int == 4)
        #expect(summary["failed"] as? Int == 1)

        let list = try await server.call("GET", "/api/workouts", token: token)
        #expect(ServeTests.startTimes(list.data).count == 4)

        let wrongToken = try run(["import", folder.url.path, "--server", address, "--token", "nope"])
        #expect(wrongToken.status != 0)
        #expect(wrongToken.standardError.contains("401") || wrongToken.standardOutput.contains("401"))
        let nowhere = try run(["import", folder.url.path, "--server", "ftp://example.org", "--token", token])
        #expect(nowhere.status != 0)
        #expect(nowhere.standardError.contains("--server"))
        #expect(server.stop() == 0)
    }
}
