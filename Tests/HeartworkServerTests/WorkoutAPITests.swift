import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import Testing

@Suite("Workouts API")
struct WorkoutAPITests {
    /// A FIT activity uploads like JSON (application/vnd.ant.fit); a broken one is refused with
    /// what was wrong.
    @Test func aFitFileUploadsByContentType() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("fitter")
            try await server.completeProfile(token)
            var activity = ActivityRecording()
            let start = Date(timeIntervalSince1970: 1_780_000_000)
            activity.records = (0..<900).map { ActivityRecording.Record(time: start.addingTimeInterval(Double($0)), heartRate: 110 + $0 / 20, distance: Double($0) * 3) }
            activity.sessions = [ActivityRecording.Session(sport: 1, start: start, elapsedSeconds: 899, distance: 2697, calories: 210)]
            let reply = try await server.request(.post, "/api/workouts", token: token, raw: Data(FITEncoder.encode(activity)), contentType: "application/vnd.ant.fit")
            #expect(reply.status == .created, "\(reply.text)")
            let summary = try #require(reply.json["summary"] as? [String: Any])
            #expect(summary["sport"] as? String == "running" && summary["durationSeconds"] as? Int == 900 && summary["maximumHeartRate"] as? Double == 154)
            #expect(summary["kilocalories"] as? Double == 210 && summary["distanceMeters"] as? Double == 2697)
            let broken = try await server.request(.post, "/api/workouts", token: token, raw: Data("not a fit file".utf8), contentType: "application/vnd.ant.fit")
            #expect(broken.status == .unprocessableContent && broken.problemField == "file" && broken.text.contains("byte 0"))
            #expect(try await server.request(.post, "/api/workouts", token: token, raw: Data([1, 2, 3]), contentType: "application/octet-stream").status == .unprocessableContent)
            #expect(try await server.request(.post, "/api/workouts", token: token, raw: Data([1, 2, 3]), contentType: "text/plain").status == .unsupportedMediaType)
        }
    }

    /// TCX and GPX by content type (and any of them as octet-stream); the same activity twice is
    /// recognised (409 with the Location of the stored one); every export format reads back; only
    /// the owner exports.
    @Test func tcxAndGpxUploadDuplicatesAreRecognisedAndEveryFormatExports() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("filer")
            try await server.completeProfile(token)
            let start = Date(timeIntervalSince1970: 1_780_000_000)
            let workout = NewWorkout(
                sport: .cycling, startTime: start, heartRate: (0..<600).map { 100 + $0 % 50 }, rrIntervalsMilliseconds: [800, 810, 790],
                track: (0..<600).map { NewWorkout.TrackPoint(latitudeDegrees: 48.2 + Double($0) * 1e-4, longitudeDegrees: 16.37, elevationMeters: 200, timeSeconds: Double($0)) },
                kilocalories: 300, device: "Edge 540/77")
            let gpx = try ActivityFiles.bytes(of: workout, format: .gpx)
            let stored = try await server.request(.post, "/api/workouts", token: token, raw: Data(gpx), contentType: "application/gpx+xml")
            #expect(stored.status == .created, "\(stored.text)")
            let id = try #require((stored.json["summary"] as? [String: Any])?["id"] as? String)
            // The same ride as TCX, and as FIT sent as octet-stream: recognised, not stored twice.
            for (bytes, type) in [
                (try ActivityFiles.bytes(of: workout, format: .tcx), "application/vnd.garmin.tcx+xml"),
                (try ActivityFiles.bytes(of: workout, format: .fit), "application/octet-stream"),
            ] {
                let again = try await server.request(.post, "/api/workouts", token: token, raw: Data(bytes), contentType: type)
                #expect(again.status == .conflict && again.headers[.location] == "/api/workouts/\(id)", "\(again.text)")
                #expect(again.text.contains("already stored as workout \(id)") && again.text.contains("Edge 540/77"))
            }
            // Another device at the same second is another recording; another start is another activity.
            var other = workout
            other.device = "Forerunner 965"
            #expect(
                try await server.request(
                    .post, "/api/workouts", token: token, raw: Data(try ActivityFiles.bytes(of: other, format: .tcx)),
                    contentType: "application/vnd.garmin.tcx+xml"
                ).status == .created)
            let json = ServerHarness.workoutJSON(seconds: 120, bpm: 130, start: "2026-06-01T06:00:00Z")
            #expect(try await server.request(.post, "/api/workouts", token: token, json: json).status == .created)
            let repeated = try await server.request(.post, "/api/workouts", token: token, json: json)
            #expect(repeated.status == .conflict && repeated.headers[.location] != nil)
            #expect(try await server.request(.get, "/api/workouts", token: token).json["workouts"].map { ($0 as? [Any])?.count } == 3)

            // Exports: each format's media type, a file name, and the workout back.
            for format in ActivityFileFormat.allCases {
                let file = try await server.request(.get, "/api/workouts/\(id)/export?format=\(format.rawValue)", token: token)
                #expect(file.status == .ok && file.headers[.contentType] == format.mediaType, "\(format): \(file.text.prefix(300))")
                #expect(file.headers[.contentDisposition] == "attachment; filename=\"heartwork-cycling-2026-05-28-2026.\(format.rawValue)\"")
                let back = try ActivityFiles.workout(Array(file.body), format: format)
                #expect(back.startTime == start && back.heartRate == workout.heartRate && back.track.count == 600 && back.sport == .cycling, "\(format)")
                #expect(back.device == "Edge 540/77", "\(format)")
            }
            // Issue 28: the file is named by the day and time the athlete knows (their zone).
            #expect(try await server.request(.patch, "/api/me", token: token, json: ["timeZone": "Europe/Vienna"]).status == .ok)
            let local = try await server.request(.get, "/api/workouts/\(id)/export?format=fit", token: token)
            #expect(local.headers[.contentDisposition] == "attachment; filename=\"heartwork-cycling-2026-05-28-2226.fit\"")
            #expect(try await server.request(.get, "/api/workouts/\(id)/export", token: token).headers[.contentType] == "application/json")
            let bad = try await server.request(.get, "/api/workouts/\(id)/export?format=pdf", token: token)
            #expect(bad.status == .unprocessableContent && bad.problemField == "format")
            // An indoor workout has no GPX.
            let indoorJSON = ServerHarness.workoutJSON(seconds: 60, bpm: 120, start: "2026-06-02T06:00:00Z", track: false)
            let indoor = try await server.request(.post, "/api/workouts", token: token, json: indoorJSON)
            let indoorID = try #require((indoor.json["summary"] as? [String: Any])?["id"] as? String)
            let noTrack = try await server.request(.get, "/api/workouts/\(indoorID)/export?format=gpx", token: token)
            #expect(noTrack.status == .conflict && noTrack.text.contains("no GPS track"))
            // Someone else's workout does not exist for them, shared or not.
            let (_, stranger) = try await server.signUp("stranger")
            #expect(try await server.request(.get, "/api/workouts/\(id)/export?format=fit", token: stranger).status == .notFound)
            // A broken GPX names its line.
            let cut = Data(gpx.prefix(gpx.count / 3))
            let broken = try await server.request(
                .post, "/api/workouts", token: stranger, raw: Data("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>x</time>".utf8), contentType: "application/gpx+xml")
            #expect(broken.status == .unprocessableContent && broken.problemField == "file" && broken.text.contains("line 1"), "\(broken.text)")
            let partial = try await server.request(.post, "/api/workouts", token: stranger, raw: cut, contentType: "application/gpx+xml")
            #expect(partial.status == .created, "a cut file keeps what came before the cut: \(partial.text)")
        }
    }

    @Test func uploadDerivesSummaryZonesCaloriesAndDistance() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("runner")
            try await server.completeProfile(token)
            let reply = try await server.request(.post, "/api/workouts", token: token, json: ServerHarness.workoutJSON(seconds: 600, bpm: 150))
            #expect(reply.status == .created)
            let summary = try #require(reply.json["summary"] as? [String: Any])
            #expect(summary["durationSeconds"] as? Int == 600)
            // bpm 150 + (second mod 10): mean 154.5 over the 599 readings that exist (second 5 is null).
            #expect(abs((summary["averageHeartRate"] as? Double ?? 0) - 154.5) < 0.1)
            #expect(summary["minimumHeartRate"] as? Double == 150 && summary["maximumHeartRate"] as? Double == 159)
            let zones = try #require(summary["secondsInZones"] as? [String: Int])
            #expect(zones.values.reduce(0, +) == 600)
            // Age 34 at the start (born 1992-02-22), resting 65: low from 65 + 0.6·(184.12 − 65) = 136.5, moderate from 148.4, high from 160.3.
            #expect(zones["moderate"] == 599 && zones["none"] == 1)
            let profile = try #require(summary["profile"] as? [String: Any])
            #expect(profile["ageYears"] as? Int == 34 && profile["restingHeartRate"] as? Double == 65 && profile["sex"] as? String == "male")
            #expect((summary["kilocalories"] as? Double ?? 0) > 100)
            // 300 fixes 0.00003° apart along a meridian: 299 × 3.336 m ≈ 997 m.
            #expect(abs((summary["distanceMeters"] as? Double ?? 0) - 997) < 2)
            let id = try #require(summary["id"] as? String)
            #expect(reply.headers[.location] == "/api/workouts/\(id)")
            let detail = try await server.request(.get, "/api/workouts/\(id)", token: token)
            #expect((detail.json["heartRate"] as? [Any])?.count == 600)
            #expect((detail.json["heartRate"] as? [Any])?[5] is NSNull)
            #expect((detail.json["track"] as? [Any])?.count == 300)
            #expect((detail.json["rrIntervals"] as? [Double])?.first.map { abs($0 - 400) < 0.5 } == true)
        }
    }

    @Test func listsAreNewestFirstPagedAndFilteredByDate() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("lister")
            for day in 1...25 {
                _ = try await server.upload(token, ServerHarness.workoutJSON(seconds: 60, start: String(format: "2026-10-%02dT07:00:00Z", day), track: false, rr: false))
            }
            let first = try await server.request(.get, "/api/workouts", token: token)
            let workouts = try #require(first.json["workouts"] as? [[String: Any]])
            #expect(workouts.count == 20)
            #expect((workouts.first?["startTime"] as? String)?.hasPrefix("2026-10-25") == true)
            #expect(try await server.request(.get, "/api/workouts?limit=20&offset=20", token: token).json["workouts"].map { ($0 as? [Any])?.count } == 5)
            let range = try await server.request(.get, "/api/workouts?from=2026-10-10&to=2026-10-15", token: token)
            #expect((range.json["workouts"] as? [Any])?.count == 5)
            #expect(try await server.request(.get, "/api/workouts?limit=500", token: token).problemField == "limit")
            #expect(try await server.request(.get, "/api/workouts?from=yesterday", token: token).problemField == "from")
        }
    }

    @Test func deleteShareAndTheSharingCap() async throws {
        try await ServerHarness.run { server in
            let (ownerID, owner) = try await server.signUp("owner")
            let (_, friend) = try await server.signUp("pal")
            try await server.request(.put, "/api/me/settings", token: owner, json: ["autoShareWorkouts": true, "maxSharedWorkouts": 2])
            var ids = [String]()
            for day in 1...3 {
                ids.append(try await server.upload(owner, ServerHarness.workoutJSON(seconds: 60, start: "2026-11-0\(day)T07:00:00Z", track: false, rr: false)))
            }
            // Befriend.
            let request = try await server.request(.post, "/api/friend-requests", token: friend, json: ["userID": ownerID])
            try await server.request(.post, "/api/friend-requests/\(request.json["id"] as? String ?? "")/accept", token: owner)
            let shared = try await server.request(.get, "/api/friends/\(ownerID)/workouts", token: friend)
            let sharedIDs = (shared.json["workouts"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(Set(sharedIDs ?? []) == Set(ids.suffix(2)), "the cap of 2 unshared the oldest")
            #expect(try await server.request(.get, "/api/workouts/\(ids[0])", token: friend).status == .notFound)
            #expect(try await server.request(.get, "/api/workouts/\(ids[2])", token: friend).status == .ok)
            #expect(try await server.request(.delete, "/api/workouts/\(ids[2])/share", token: owner).json["shared"] as? Bool == false)
            #expect(try await server.request(.get, "/api/workouts/\(ids[2])", token: friend).status == .notFound)
            #expect(try await server.request(.delete, "/api/workouts/\(ids[1])", token: friend).status == .notFound)
            #expect(try await server.request(.delete, "/api/workouts/\(ids[1])", token: owner).status == .noContent)
            #expect(try await server.request(.get, "/api/workouts/\(ids[1])", token: owner).status == .notFound)
            #expect(try await server.store.workouts.count(userID: ownerID) == 2)
        }
    }

    /// One broken thing per case, and the field the answer must name.
    enum BadUpload: String, CaseIterable, Sendable, Hashable {
        case zeroHeartRate = "heartRate[3]"
        case heartRateAbove250 = "heartRate[1]"
        case trackTimeGoesBack = "track[1].t"
        case latitudeBeyond90 = "track[0].lat"
        case longitudeBeyond180 = "track[0].lon"
        case negativeRR = "rrIntervals[0]"
        case unknownSport = "sport"
        case unreadableStart = "startTime"
        case unknownField = "shoeSize"
        case unknownTrackField = "track[0].speed"
        case missingHeartRate = "heartRate"

        func apply(to body: inout [String: Any]) {
            switch self {
            case .zeroHeartRate: body["heartRate"] = [120, 121, 122, 0]
            case .heartRateAbove250: body["heartRate"] = [120, 251]
            case .trackTimeGoesBack: body["track"] = [["lat": 1, "lon": 1, "t": 5], ["lat": 1, "lon": 1, "t": 4]]
            case .latitudeBeyond90: body["track"] = [["lat": 91, "lon": 1, "t": 0]]
            case .longitudeBeyond180: body["track"] = [["lat": 1, "lon": 181, "t": 0]]
            case .negativeRR: body["rrIntervals"] = [-3]
            case .unknownSport: body["sport"] = "curling"
            case .unreadableStart: body["startTime"] = "next tuesday"
            case .unknownField: body["shoeSize"] = 44
            case .unknownTrackField: body["track"] = [["lat": 1, "lon": 1, "t": 0, "speed": 3]]
            case .missingHeartRate: body.removeValue(forKey: "heartRate")
            }
        }
    }

    /// A value a recording can hold but a body cannot (0 bpm, 251 bpm, a time stepping back, a
    /// place off the Earth, a negative RR interval): left out, the rest stored, and the answer's
    /// `warnings` name the first such value's field (issue 28: never refuse the whole for a part).
    static let artifacts: Set<BadUpload> = [.zeroHeartRate, .heartRateAbove250, .trackTimeGoesBack, .latitudeBeyond90, .longitudeBeyond180, .negativeRR]

    @Test(arguments: BadUpload.allCases)
    func badUploadsNameTheField(bad: BadUpload) async throws {
        try await ServerHarness.run { server in
            let (id, token) = try await server.signUp("sloppy")
            var body = ServerHarness.workoutJSON(seconds: 60, track: false, rr: false)
            bad.apply(to: &body)
            let reply = try await server.request(.post, "/api/workouts", token: token, json: body)
            if Self.artifacts.contains(bad) {
                #expect(reply.status == .created, "\(reply.text)")
                let warnings = try #require(reply.json["warnings"] as? [[String: Any]])
                #expect(warnings.first?["field"] as? String == bad.rawValue, "\(warnings)")
                #expect((warnings.first?["message"] as? String)?.contains("left out") == true)
                #expect(try await server.store.workouts.count(userID: id) == 1)
            } else {
                // The document's shape is wrong: nothing to keep.
                #expect(reply.status == .unprocessableContent || reply.status == .badRequest)
                #expect(reply.headers[.contentType] == "application/problem+json")
                #expect(reply.problemField == bad.rawValue, "\(reply.text)")
                #expect(try await server.store.workouts.count(userID: id) == 0)
            }
        }
    }

    @Test func malformedAndOversizedBodies() async throws {
        try await ServerHarness.run { server in
            let (id, token) = try await server.signUp("mangler")
            let broken = try await server.request(.post, "/api/workouts", token: token, raw: Data("{\"sport\": ".utf8), contentType: "application/json")
            #expect(broken.status == .badRequest && (broken.json["detail"] as? String)?.contains("not valid JSON") == true)
            let wrongType = try await server.request(.post, "/api/workouts", token: token, json: ["sport": "running", "startTime": "2026-11-20T07:00:00Z", "heartRate": "fast"])
            #expect(wrongType.status == .badRequest && wrongType.problemField == "heartRate")
            let huge = Data("{\"sport\":\"running\",\"heartRate\":[".utf8) + Data(repeating: UInt8(ascii: "1"), count: 33 * 1024 * 1024)
            #expect(try await server.request(.post, "/api/workouts", token: token, raw: huge, contentType: "application/json").status == .contentTooLarge)
            let xml = try await server.request(.post, "/api/workouts", token: token, raw: Data("<workout/>".utf8), contentType: "application/xml")
            #expect(xml.status == .unsupportedMediaType)
            #expect(try await server.store.workouts.count(userID: id) == 0)
        }
    }
}
