import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import Testing

@testable import HeartworkServer

/// Issue 24, what the imports already read, kept: the export's owner (birth date, sex) and
/// its body-mass and height samples fill the empty profile and become weight and height
/// histories (a value the user typed that day wins), zones and nutrition follow; a workout
/// without heart-rate samples is kept as a workout; records of types not read are counted.
@Suite("Body and workouts without heart rate from an import")
struct HealthBodyImportTests {
    static var today: CalendarDay { CalendarDay(Date()) }

    /// One `Record` line of an export, UTC.
    static func record(_ type: String, unit: String, day: CalendarDay, time: String, value: String, source: String = "Test Watch") -> String {
        " <Record type=\"\(type)\" sourceName=\"\(source)\" unit=\"\(unit)\" creationDate=\"\(day) \(time) +0000\" startDate=\"\(day) \(time) +0000\" endDate=\"\(day) \(time) +0000\" value=\"\(value)\"/>\n"
    }

    /// The fixture's day of watch data (today), with: two body masses on the day before
    /// yesterday (the later one, 70.1 kg, is the day's), one of 160 lb yesterday (the user
    /// typed a weight that day), a height of 172 cm, two records of a type not read, and a
    /// 31.7-minute strength workout five days ago with energy and no heart rate.
    static func export() -> String {
        let twoDaysAgo = today.adding(days: -2)
        let yesterday = today.adding(days: -1)
        let five = today.adding(days: -5)
        var extra = ""
        extra += record("HKQuantityTypeIdentifierBodyMass", unit: "kg", day: twoDaysAgo, time: "07:00:00", value: "70.5", source: "Scale")
        extra += record("HKQuantityTypeIdentifierBodyMass", unit: "kg", day: twoDaysAgo, time: "20:00:00", value: "70.1", source: "Scale")
        extra += record("HKQuantityTypeIdentifierBodyMass", unit: "lb", day: yesterday, time: "07:00:00", value: "160", source: "Scale")
        extra += record("HKQuantityTypeIdentifierHeight", unit: "cm", day: twoDaysAgo, time: "07:00:00", value: "172", source: "Phone")
        extra += record("HKQuantityTypeIdentifierBloodGlucose", unit: "mg/dL", day: twoDaysAgo, time: "07:00:00", value: "90")
        extra += record("HKQuantityTypeIdentifierBloodGlucose", unit: "mg/dL", day: twoDaysAgo, time: "19:00:00", value: "110")
        extra += """
             <Workout workoutActivityType="HKWorkoutActivityTypeTraditionalStrengthTraining" duration="31.7" durationUnit="min" totalEnergyBurned="120" totalEnergyBurnedUnit="kcal" sourceName="Test Watch" device="\(HealthExportFixture.watch)" creationDate="\(five) 05:32:00 +0000" startDate="\(five) 05:00:18 +0000" endDate="\(five) 05:32:00 +0000">
             </Workout>
            </HealthData>

            """
        return HealthExportFixture.xml(days: [today.description]).replacingOccurrences(of: "</HealthData>\n", with: extra)
    }

    @Test(arguments: TestDatabase.all)
    func theProfileIsFilledFromAnExportAndAWorkoutWithoutHeartRateIsKept(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("bodyimport")
            let before = try await server.request(.get, "/api/me", token: token).json
            #expect(before["dateOfBirth"] == nil && before["sex"] == nil && before["heightMeters"] == nil)
            #expect((before["maxHeartRate"] as? [String: Any])?["bpm"] == nil, "no age, no maximum")
            #expect(try await server.request(.get, "/api/nutrition", token: token).json["calories"] == nil)
            // A weight typed yesterday: the import's weight of that day is left out.
            let typed = try await server.request(
                .post, "/api/me/weights", token: token, json: ["kilograms": 80, "measuredAt": "\(Self.today.adding(days: -1))T09:00:00Z"])
            #expect(typed.status == .created, "\(typed.text)")

            let done = try await DailyAPITests.importExport(server, token, Data(Self.export().utf8), contentType: "application/xml")
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["workoutsAdded"] as? Int == 2, "the run and the strength workout without heart rate")
            #expect((done["workoutsSkipped"] as? [Any])?.isEmpty == true, "\(done)")
            let body = try #require(done["body"] as? [String: Any])
            #expect(body["profileFilled"] as? [String] == ["dateOfBirth", "sex", "heightMeters"], "\(body)")
            #expect(body["weightsAdded"] as? Int == 1 && body["heightsAdded"] as? Int == 1, "\(body)")
            let leftOut = try #require(body["leftOut"] as? [[String: Any]])
            #expect(leftOut.count == 1 && leftOut[0]["reason"] as? String == "you entered a body mass that day" && leftOut[0]["count"] as? Int == 1, "\(leftOut)")
            #expect((done["recordsSkipped"] as? [String: Any])?["HKQuantityTypeIdentifierBloodGlucose"] as? Int == 2, "\(done)")

            // The profile, its histories, the zones' maximum and nutrition follow.
            let me = try await server.request(.get, "/api/me", token: token).json
            #expect(me["dateOfBirth"] as? String == "1990-05-17" && me["sex"] as? String == "female", "\(me)")
            #expect(me["heightMeters"] as? Double == 1.72)
            #expect(me["weightKilograms"] as? Double == 80, "the latest weight is the one typed yesterday")
            #expect((me["maxHeartRate"] as? [String: Any])?["bpm"] as? Double != nil, "an age gives a maximum heart rate: \(me)")
            let weights = try #require(try await server.request(.get, "/api/me/weights", token: token).json["entries"] as? [[String: Any]])
            #expect(weights.count == 2, "\(weights)")
            #expect(weights.first?["value"] as? Double == 70.1 && weights.first?["source"] as? String == "Apple Health: Scale", "\(weights)")
            #expect(weights.last?["value"] as? Double == 80 && weights.last?["source"] == nil)
            let heights = try #require(try await server.request(.get, "/api/me/measurements/height", token: token).json["entries"] as? [[String: Any]])
            #expect(heights.count == 1 && heights.first?["value"] as? Double == 1.72, "\(heights)")
            let nutrition = try await server.request(.get, "/api/nutrition", token: token).json
            #expect((nutrition["missing"] as? [String])?.isEmpty == true, "\(nutrition)")
            #expect(nutrition["calories"] as? Double != nil)

            // The workout without heart rate: its time, sport and energy, nothing of heart rate.
            let list = try #require(try await server.request(.get, "/api/workouts", token: token).json["workouts"] as? [[String: Any]])
            let strength = try #require(list.first { $0["sport"] as? String == "strength" }, "\(list)")
            #expect(strength["durationSeconds"] as? Int == 1902)
            #expect(strength["kilocalories"] as? Double == 120)
            #expect(strength["averageHeartRate"] == nil && strength["secondsInZones"] == nil, "\(strength)")
            #expect((strength["profile"] as? [String: Any])?["ageYears"] as? Int != nil, "the workout's snapshot has the imported age")
            let id = try #require(strength["id"] as? String)
            let session = try await server.webSession("bodyimport")
            let page = try await server.request(.get, "/workouts/\(id)", headers: [.cookie: session.cookie])
            #expect(page.status == .ok)
            #expect(page.text.contains("No heart rate recorded during this workout"))
            #expect(!page.text.contains("Race as a ghost"))
            for format in ["fit", "tcx", "json"] {
                #expect(try await server.request(.get, "/api/workouts/\(id)/export?format=\(format)", token: token).status == .ok, "\(format)")
            }

            // The same export again: nothing added twice, the typed weight still wins.
            let again = try await DailyAPITests.importExport(server, token, Data(Self.export().utf8), contentType: "application/xml")
            #expect(again["workoutsAdded"] as? Int == 0 && again["workoutsDuplicate"] as? Int == 2, "\(again)")
            let second = try #require(again["body"] as? [String: Any])
            #expect((second["profileFilled"] as? [String])?.isEmpty == true && second["weightsAdded"] as? Int == 0, "\(second)")
            #expect(second["alreadyStored"] as? Int == 2, "\(second)")
            #expect((try await server.request(.get, "/api/me/weights", token: token).json["entries"] as? [Any])?.count == 2)
        }
    }

    /// A profile field the user set is never changed by an import; the empty ones are filled.
    @Test func aTypedProfileStands() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("bodytyped")
            let patch = try await server.request(.patch, "/api/me", token: token, json: ["dateOfBirth": "1985-01-02", "heightMeters": 1.8])
            #expect(patch.status == .ok, "\(patch.text)")
            let done = try await DailyAPITests.importExport(server, token, Data(Self.export().utf8), contentType: "application/xml")
            #expect((done["body"] as? [String: Any])?["profileFilled"] as? [String] == ["sex"], "\(done)")
            let me = try await server.request(.get, "/api/me", token: token).json
            #expect(me["dateOfBirth"] as? String == "1985-01-02" && me["heightMeters"] as? Double == 1.8 && me["sex"] as? String == "female")
        }
    }

    /// An uploaded file or document without heart rate is a workout too (a GPS track alone).
    @Test(arguments: TestDatabase.all)
    func anUploadWithoutHeartRateIsAWorkout(engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("bodyupload")
            var points = ""
            for step in 0..<61 {
                let time = String(format: "07:%02d:%02d", step * 10 / 60, step * 10 % 60)
                let latitude = 48.2 + Double(step) * 0.0003
                points += "<trkpt lat=\"\(latitude)\" lon=\"16.37\"><time>2026-10-01T\(time)Z</time></trkpt>\n"
            }
            let gpx = """
                <?xml version="1.0"?><gpx version="1.1" creator="Phone" xmlns="http://www.topografix.com/GPX/1/1">
                <trk><type>running</type><trkseg>\(points)</trkseg></trk></gpx>
                """
            let upload = try await server.request(.post, "/api/workouts", token: token, raw: Data(gpx.utf8), contentType: "application/gpx+xml")
            #expect(upload.status == .created, "\(upload.text)")
            let summary = try #require(upload.json["summary"] as? [String: Any])
            #expect(summary["durationSeconds"] as? Int == 601)
            #expect((summary["distanceMeters"] as? Double ?? 0) > 1900)
            #expect(summary["averageHeartRate"] == nil && summary["kilocalories"] == nil && summary["secondsInZones"] == nil, "\(summary)")

            let json = try await server.request(
                .post, "/api/workouts", token: token,
                json: ["sport": "other", "startTime": "2026-10-02T07:00:00Z", "heartRate": [NSNull(), NSNull(), NSNull()], "kilocalories": 5])
            #expect(json.status == .created, "\(json.text)")
            let empty = try await server.request(.post, "/api/workouts", token: token, json: ["sport": "other", "startTime": "2026-10-03T07:00:00Z", "heartRate": []])
            #expect(empty.status == .unprocessableContent, "a workout still needs a length")
        }
    }
}
