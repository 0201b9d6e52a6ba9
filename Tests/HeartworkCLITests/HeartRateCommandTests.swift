import ArgumentParser
import Foundation
import HeartworkTestSupport
import Testing

@testable import HeartworkCLI

/// `heartwork heart-rate` and `heartwork day`'s own day (issue 24).
@Suite("heartwork heart-rate", .serialized)
struct HeartRateCommandTests {
    static let server = ["--server", "http://127.0.0.1:8080", "--token", "t"]

    @Test func theRangeIsTheLastHoursOrDaysUpToNow() throws {
        let now = Date(timeIntervalSince1970: 1_795_132_800)  // 2026-11-20T00:00:00Z
        let day = try HeartRateCommand.parse(["--last", "24h"] + Self.server)
        #expect(day.query(now: now).map { "\($0.name)=\($0.value ?? "")" } == ["from=2026-11-19T00:00:00Z", "to=2026-11-20T00:00:00Z", "resolution=hour"])
        let month = try HeartRateCommand.parse(["--last", "30d", "--resolution", "minute"] + Self.server)
        #expect(month.query(now: now).first?.value == "2026-10-21T00:00:00Z" && month.query(now: now).last?.value == "minute")
        let range = try HeartRateCommand.parse(["--from", "2026-11-19T06:00:00Z"] + Self.server)
        #expect(range.query(now: now).map(\.name) == ["from", "resolution"], "the server's now is the end")
        for wrong in [["--last", "2w"], ["--last", "24h", "--from", "2026-11-19"], [], ["--to", "2026-11-19"], ["--last", "0h"]] {
            #expect(throws: (any Error).self, "\(wrong)") { try HeartRateCommand.parse(wrong + Self.server) }
        }
    }

    @Test func theTableGivesTheRangeThenABucketARow() throws {
        let json: [String: Any] = [
            "from": "2026-11-19T00:00:00Z", "to": "2026-11-20T00:00:00Z", "resolution": "hour", "bucketSeconds": 3600, "minimum": 52,
            "maximum": 141, "average": 63.4, "samples": 290, "coveredSeconds": 84_600,
            "series": [["start": "2026-11-19T00:00:00Z", "minimum": 52, "average": 55.5, "maximum": 61, "seconds": 3600]],
        ]
        let rendered = HeartRateCommand.table(json, zone: try #require(TimeZone(identifier: "Europe/Vienna")))
        // Columns are padded; compare with single spaces.
        let table = rendered.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }.joined(separator: "\n")
        for line in [
            "From 2026-11-19 01:00 (Europe/Vienna)", "Lowest 52 bpm", "Average 63.4 bpm over time (23.5 h covered)", "Highest 141 bpm", "Samples 290",
            "Per hour (bpm):", "2026-11-19 01:00 52 55.5 61",
        ] {
            #expect(table.contains(line), "\(line)\n\(table)")
        }
        let empty = HeartRateCommand.table(["from": "2026-11-19T00:00:00Z", "to": "2026-11-20T00:00:00Z", "series": []], zone: .gmt)
        #expect(empty.contains("none recorded in this range"))
        #expect(DayCommand.today(in: try #require(TimeZone(identifier: "Pacific/Kiritimati")), now: Date(timeIntervalSince1970: 1_795_132_800 - 3600)) == "2026-11-20")
    }

    /// Against a running server: the last 24 hours of an import, and `day` without --date in
    /// the profile's time zone (Kiritimati, UTC+14: its day is rarely UTC's).
    @Test func fromARunningServer() async throws {
        let directory = try TemporaryDirectory()
        let server = try ServeTests.Server(dataDirectory: directory.url.path)
        let registration = Data(#"{"username":"stopper","fullName":"Stop Per","email":"s@example.org","password":"12345678"}"#.utf8)
        #expect(try await server.call("POST", "/api/auth/register", body: registration).status == 201)
        let token = try await server.signIn()
        let zone = Data(#"{"timeZone":"Pacific/Kiritimati"}"#.utf8)
        #expect(try await server.call("PATCH", "/api/me", token: token, body: zone).status == 200)
        let file = directory.url.appendingPathComponent("export.xml")
        let days = [ServeTests.CalendarDayText.day(offset: -1), ServeTests.CalendarDayText.day(offset: 0)]
        try Data(HealthExportFixture.xml(days: days).utf8).write(to: file)
        let address = "http://127.0.0.1:\(server.port)"
        let cli = ExecutableTests()
        #expect(try cli.run(["import", "apple-health", file.path, "--server", address, "--token", token]).status == 0)

        let table = try cli.run(["heart-rate", "--last", "48h", "--server", address, "--token", token])
        #expect(table.status == 0, "\(table.standardError)")
        #expect(
            table.standardOutput.contains("(Pacific/Kiritimati)") && table.standardOutput.contains("Lowest") && table.standardOutput.contains("Per hour"), "\(table.standardOutput)"
        )
        let json = try cli.run(["heart-rate", "--last", "24h", "--resolution", "minute", "--format", "json", "--server", address, "--token", token])
        let answer = (try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]) ?? [:]
        #expect(answer["resolution"] as? String == "minute" && answer["series"] is [Any], "\(json.standardOutput)")
        let tooMuch = try cli.run(["heart-rate", "--last", "30d", "--resolution", "second", "--server", address, "--token", token])
        #expect(tooMuch.status != 0 && tooMuch.standardError.contains("ask per minute"), "\(tooMuch.standardError)")

        let today = DayCommand.today(in: try #require(TimeZone(identifier: "Pacific/Kiritimati")))
        let day = try cli.run(["day", "--server", address, "--token", token])
        #expect(day.status == 0 && day.standardOutput.contains("Day  ") && day.standardOutput.contains(today), "\(day.standardOutput)")
        #expect(server.stop() == 0)
    }
}
