import Foundation
import HTTPTypes
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import HeartworkTestSupport
import Testing

/// Issue 25, FitLabTeam F2: the sensors list says which straps are connected (heard in the last
/// 10 s), and a sensor can be deleted, its readings kept or deleted as the coach chooses — on
/// both engines, with the SQLite store's in-memory log and cache forgetting a deleted sensor.
@Suite("Sensor delete and connected state")
struct SensorDeleteTests {
    /// Readings of `address` with sequence numbers `sequences`, one a second from `start`.
    static func send(_ server: ServerHarness, _ gateway: GatewayRecord, _ address: String, sequences: Range<Int>, from start: Date) async throws {
        let base = Int(start.timeIntervalSince1970 * 1000)
        let readings = sequences.map { sequence in
            GatewayReading(
                sensor: address, sequence: sequence, atMilliseconds: base + (sequence - sequences.lowerBound) * 1000,
                measurement: HeartRateMeasurement(beatsPerMinute: 120, sensorContact: .detected, rrIntervalTicks: [512]), battery: 80)
        }
        _ = try await server.services.live.ingest(readings, from: gateway, now: start)
    }

    static func sensors(_ server: ServerHarness, _ token: String) async throws -> [[String: Any]] {
        try #require(try await server.request(.get, "/api/sensors", token: token).json["sensors"] as? [[String: Any]])
    }

    @Test func connectedMeansHeardInTheLastTenSeconds() {
        // seed-001 digest F2: green = "already sending data", red = "not connected"; 10 s is issue 25's window.
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(SensorPresence.isConnected(lastAt: now.addingTimeInterval(-10), now: now))
        #expect(!SensorPresence.isConnected(lastAt: now.addingTimeInterval(-10.001), now: now))
        #expect(SensorPresence.isConnected(lastAt: now.addingTimeInterval(2), now: now), "a gateway's clock a little ahead")
        #expect(!SensorPresence.isConnected(lastAt: nil, now: now))
    }

    @Test(arguments: TestDatabase.all)
    func deleteKeepingOrDeletingTheReadings(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (userID, token) = try await server.signUp("coach")
            let user = try #require(try await server.store.users.find(id: userID))
            let gatewayToken = try #require(try await server.request(.post, "/api/gateways", token: token, json: ["name": "Pi"]).json["token"] as? String)
            let gateway = try #require(try await server.services.gateways.authenticate(token: gatewayToken))
            // Whole seconds, as the store keeps times to the millisecond.
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let past = now.addingTimeInterval(-600)
            // "gone" was heard ten minutes ago, for a minute; "keep" a moment ago (sent last and
            // timed as it is sent, so a loaded machine does not age it past the 10-s window).
            try await Self.send(server, gateway, "gone", sequences: 0..<60, from: past)
            let moment = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            try await Self.send(server, gateway, "keep", sequences: 0..<3, from: moment.addingTimeInterval(-2))
            var listed = try await Self.sensors(server, token)
            let keepID = try #require(listed.first { $0["address"] as? String == "keep" }?["id"] as? String)
            let goneID = try #require(listed.first { $0["address"] as? String == "gone" }?["id"] as? String)
            #expect(listed.first { $0["id"] as? String == keepID }?["connected"] as? Bool == true)
            #expect(listed.first { $0["id"] as? String == goneID }?["connected"] as? Bool == false)

            // Both are worn; a session used "gone".
            let team = try #require(try await server.request(.post, "/api/teams", token: token, json: ["name": "Squad"]).json["id"] as? String)
            let ana = try #require(
                try await server.request(.post, "/api/players", token: token, json: ["name": "Ana", "teamID": team, "sensorID": goneID]).json["id"] as? String)
            _ = try await server.request(.post, "/api/players", token: token, json: ["name": "Bea", "teamID": team, "sensorID": keepID])
            let session = try await server.services.teamSessions.start(teamID: team, participants: [.init(playerID: ana)], for: user, now: past)
            _ = try await server.services.teamSessions.save(session.id, of: user, now: past.addingTimeInterval(60))

            // The choice is asked for, and only the owner may delete.
            #expect(try await server.request(.delete, "/api/sensors/\(keepID)", token: token).status == .badRequest)
            let wrong = try await server.request(.delete, "/api/sensors/\(keepID)?readings=maybe", token: token)
            #expect(wrong.status == .badRequest && wrong.problemField == "readings")
            let (_, other) = try await server.signUp("rival")
            #expect(try await server.request(.delete, "/api/sensors/\(keepID)?readings=delete", token: other).status == .notFound)
            #expect(try await Self.sensors(server, token).count == 2)

            // Keeping the readings: the sensor leaves the list and its wearer; the session keeps them.
            let kept = try await server.request(.delete, "/api/sensors/\(goneID)?readings=keep", token: token)
            #expect(kept.status == .ok && kept.json["readings"] as? String == "kept", "\(kept.text)")
            listed = try await Self.sensors(server, token)
            #expect(listed.map { $0["id"] as? String } == [keepID])
            #expect(try await server.request(.get, "/api/sensors/\(goneID)", token: token).status == .notFound)
            #expect(try await server.request(.get, "/api/players/\(ana)", token: token).json["sensorID"] == nil)
            let review = try await server.request(.get, "/api/team-sessions/\(session.id)/review", token: token)
            #expect((review.json["players"] as? [[String: Any]])?.first?["readingCount"] as? Int == 60, "\(review.text)")
            // Heard again (a reading newer than the removal: the clock now, as a slow machine
            // may be seconds past `now`), it comes back with its history.
            let heardAgain = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.up) + 1)
            try await Self.send(server, gateway, "gone", sequences: 60..<62, from: heardAgain)
            try await server.store.sensors.flush()
            listed = try await Self.sensors(server, token)
            #expect(Set(listed.compactMap { $0["id"] as? String }) == [keepID, goneID], "\(listed)")
            #expect(try await server.store.sensors.readings(sensorID: goneID, from: past, to: heardAgain.addingTimeInterval(10)).count == 62)

            // Deleting the readings: the sensor, its blocks and what memory held of it go.
            let deleted = try await server.request(.delete, "/api/sensors/\(keepID)?readings=delete", token: token)
            #expect(deleted.status == .ok && deleted.json["readings"] as? String == "deleted")
            #expect(try await server.store.sensors.readings(sensorID: keepID, from: past, to: now.addingTimeInterval(10)).isEmpty)
            #expect(try await Self.sensors(server, token).map { $0["id"] as? String } == [goneID])
            #expect(try await server.request(.delete, "/api/sensors/\(keepID)?readings=delete", token: token).status == .notFound)
            let players = try await server.request(.get, "/api/players", token: token).json["players"] as? [[String: Any]] ?? []
            let bea = players.first { $0["name"] as? String == "Bea" }
            #expect(bea?["sensorID"] == nil)
            // Nothing of it stays in memory: a newer reading is not handed on as the old sensor's.
            let probe = SensorReading(sequence: 10, atMilliseconds: Int(now.timeIntervalSince1970 * 1000) + 5000, beatsPerMinute: 100, contact: .detected)
            #expect(server.store.sensors.claim(userID: userID, readings: ["keep": [probe]]).isEmpty)
            try await server.store.sensors.flush()
            #expect(try await server.store.sensors.readings(sensorID: keepID, from: past, to: now.addingTimeInterval(10)).isEmpty)
            // Heard again, it is a new sensor with none of the old readings.
            let newest = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            try await Self.send(server, gateway, "keep", sequences: 0..<2, from: newest)
            let again = try await Self.sensors(server, token).first { $0["address"] as? String == "keep" }
            let newID = try #require(again?["id"] as? String)
            #expect(newID != keepID && again?["connected"] as? Bool == true)
            #expect(try await server.store.sensors.readings(sensorID: newID, from: past, to: newest.addingTimeInterval(10)).count == 2)
        }
    }

    @Test func theSensorsListAsksAndSaysWhichWasDone() async throws {
        try await ServerHarness.run { server in
            let (_, token) = try await server.signUp("coachweb")
            let web = try await server.webSession("coachweb")
            let gatewayToken = try #require(try await server.request(.post, "/api/gateways", token: token, json: ["name": "Pi"]).json["token"] as? String)
            let gateway = try #require(try await server.services.gateways.authenticate(token: gatewayToken))
            try await Self.send(server, gateway, "live", sequences: 0..<2, from: Date().addingTimeInterval(-2))
            try await Self.send(server, gateway, "old", sequences: 0..<2, from: Date().addingTimeInterval(-300))
            let ids = Dictionary(uniqueKeysWithValues: try await Self.sensors(server, token).map { ($0["address"] as! String, $0["id"] as! String) })
            let page = try await WebPageTests.page(server, "/teams", cookie: web.cookie)
            #expect(page.text.contains("● Connected") && page.text.contains("○ Not connected"))
            #expect(page.text.contains("action=\"/sensors/\(ids["old"]!)/delete\"") && page.text.contains("Keep them"))

            _ = try await server.signUp("other")
            let other = try await server.webSession("other")
            #expect(try await WebTeamPageTests.form(server, "/sensors/\(ids["live"]!)/delete", "readings=delete", session: other).status == .notFound)
            #expect(try await Self.sensors(server, token).count == 2)

            let unanswered = try await WebTeamPageTests.form(server, "/sensors/\(ids["old"]!)/delete", "", session: web)
            #expect(unanswered.status == .unprocessableContent && unanswered.text.contains("choose whether to keep"))
            let kept = try await WebTeamPageTests.form(server, "/sensors/\(ids["old"]!)/delete", "readings=keep", session: web)
            #expect(kept.status == .seeOther)
            let after = try await WebPageTests.page(server, "/teams", cookie: web.cookie.appending("; hw_notice=sensor-removed-kept"))
            #expect(after.text.contains("Its readings were kept") && !after.text.contains("<code>old</code>"))
            let deleted = try await WebTeamPageTests.form(server, "/sensors/\(ids["live"]!)/delete", "readings=delete", session: web)
            #expect(deleted.status == .seeOther)
            let last = try await WebPageTests.page(server, "/teams", cookie: web.cookie.appending("; hw_notice=sensor-deleted-readings"))
            #expect(last.text.contains("every reading it sent was deleted") && last.text.contains("No sensor heard yet"))

        }
    }
}
