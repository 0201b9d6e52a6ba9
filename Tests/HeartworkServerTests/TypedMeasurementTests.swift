import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkTestSupport
import Hummingbird
import Testing

@testable import HeartworkServer

/// A weight the user types wins over an imported one of the same day (issue 24's review), even
/// when it is dated earlier in the day: adding it deletes that day's imported values, the day
/// being the profile's time zone's.
@Suite("A typed measurement wins over the day's imported one")
struct TypedMeasurementTests {
    /// A body mass of the export, at a local time in New York in November (UTC−5).
    static func weight(_ day: CalendarDay, _ time: String, _ kilograms: String) -> String {
        " <Record type=\"HKQuantityTypeIdentifierBodyMass\" sourceName=\"Scale\" unit=\"kg\" creationDate=\"\(day) \(time) -0500\" startDate=\"\(day) \(time) -0500\" endDate=\"\(day) \(time) -0500\" value=\"\(kilograms)\"/>\n"
    }

    @Test(arguments: TestDatabase.all)
    func aTypedWeightReplacesTheDaysImportedOne(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("typedwins")
            #expect(try await server.request(.patch, "/api/me", token: token, json: ["timeZone": "America/New_York"]).status == .ok)
            let day = CalendarDay(Date()).adding(days: -4)
            // 71 kg the evening before (23:30 in New York, already `day` in UTC) and 72 kg at
            // 07:30 on `day`.
            let export = HealthExportFixture.xml(days: [day.adding(days: 2).description]).replacingOccurrences(
                of: "</HealthData>\n", with: Self.weight(day.adding(days: -1), "23:30:00", "71") + Self.weight(day, "07:30:00", "72") + "</HealthData>\n")
            let done = try await DailyAPITests.importExport(server, token, Data(export.utf8), contentType: "application/xml")
            #expect((done["body"] as? [String: Any])?["weightsAdded"] as? Int == 2, "\(done)")

            func weights() async throws -> [(value: Double?, source: String?)] {
                let entries = try #require(try await server.request(.get, "/api/me/weights", token: token).json["entries"] as? [[String: Any]])
                return entries.map { ($0["value"] as? Double, $0["source"] as? String) }
            }
            func current() async throws -> Double? {
                try await server.request(.get, "/api/me", token: token).json["weightKilograms"] as? Double
            }
            #expect(try await current() == 72)

            // The user types 66 kg at 07:00 (12:00 UTC), before the import's 07:30.
            let typed = try await server.request(.post, "/api/me/weights", token: token, json: ["kilograms": 66, "measuredAt": "\(day)T12:00:00Z"])
            #expect(typed.status == .created, "\(typed.text)")
            #expect(try await current() == 66, "the typed weight is the current one")
            var list = try await weights()
            #expect(list.map { $0.value } == [71, 66], "the day's imported weight is gone, the day before's (same UTC day) stays: \(list)")
            #expect(list.first?.source == "Apple Health: Scale" && list.last?.source == nil)

            // A weight typed on another day leaves the imports alone.
            let other = try await server.request(
                .post, "/api/me/weights", token: token, json: ["kilograms": 65, "measuredAt": "\(day.adding(days: 1))T14:00:00Z"])
            #expect(other.status == .created, "\(other.text)")
            list = try await weights()
            #expect(list.map { $0.value } == [71, 66, 65], "\(list)")

            // The export again: the typed day's weight stays out, the other is already there.
            let again = try await DailyAPITests.importExport(server, token, Data(export.utf8), contentType: "application/xml")
            let body = try #require(again["body"] as? [String: Any])
            #expect(body["weightsAdded"] as? Int == 0 && body["alreadyStored"] as? Int == 1, "\(body)")
            #expect(try await weights().map { $0.value } == [71, 66, 65])
            #expect(try await current() == 65)
        }
    }
}
