import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import HeartworkTestSupport
import HeartworkZlib
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import NIOWebSocket
import Testing

@testable import HeartworkServer

/// Issue 29: the adversarial probe's findings, each reproduced with its input generated here
/// and its bound asserted — on both engines where it stores. Time and memory figures are
/// measured by Benchmarks/hostile_probe.py (a benchmark, not a timed test).
@Suite("Hostile input", .timeLimit(.minutes(3)))
struct HostileInputTests {
    static let xml = Data(HealthExportFixture.xml(days: [CalendarDay(Date()).description]).utf8)

    /// A server with its own import directory (to see what is left on disk).
    static func run(_ engine: TestDatabase = .sqlite, setup: TestingSetup = .router, _ body: @Sendable (ServerHarness, String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        let imports = directory.url.appendingPathComponent("imports").path
        try await ServerHarness.run(engine, setup: setup, adjusting: { $0.importDirectory = imports }) { server in
            try await body(server, imports)
        }
    }

    static func files(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("upload-") }
    }

    // MARK: 1. Zip bombs and changed entries

    /// A zip the probe made: export.xml with a run, and the run's route entry declaring 1,000
    /// bytes that inflates to 64 MiB (1 GiB in the probe). The import finishes; the run comes
    /// without its route; nothing is left on disk.
    @Test(arguments: TestDatabase.all)
    func aRouteThatInflatesPastItsSizeCostsOnlyTheRoute(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { server, imports in
            let (_, token) = try await server.signUp("bomber")
            let day = CalendarDay(Date()).description
            let xml = Array(HealthExportFixture.xml(days: [day], routes: true).utf8)
            let bomb = ZipTestArchive.deflate([UInt8](repeating: 0x20, count: 64 << 20))
            let zip = ZipTestArchive.make([
                .init(name: "apple_health_export/export.xml", data: xml, crc: ZipTestArchive.crc(xml), size: xml.count),
                .init(name: "apple_health_export/workout-routes/route_\(day).gpx", data: bomb, method: 8, crc: 0, size: 1000),
            ])
            let accepted = try await server.request(.post, "/api/imports/apple-health", token: token, raw: Data(zip), contentType: "application/zip")
            #expect(accepted.status == .accepted, "\(accepted.text)")
            await server.services.jobs.runUntilIdle()
            let done = try await server.request(.get, "/api/imports/\(accepted.json["id"] as? String ?? "")", token: token).json
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["workoutsAdded"] as? Int == 1)
            let owner = try #require(try await server.store.users.find(username: "bomber"))
            let runs = try await server.services.workouts.list(for: owner, page: Page(limit: 10, offset: 0))
            #expect(runs.count == 1 && runs.first?.trackCount == 0, "the run without the bomb for a route")
            #expect(Self.files(imports).isEmpty)
        }
    }

    /// A stored export.xml whose value was changed under its original CRC: the import fails
    /// and says why (it imported as "done").
    @Test func aChangedExportFailsItsChecksum() async throws {
        try await Self.run { server, _ in
            let (_, token) = try await server.signUp("tamperer")
            let original = Array(Self.xml)
            let changed = Array(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "value=\"52\"", with: "value=\"25\"").utf8)
            #expect(changed != original)
            let zip = ZipTestArchive.make([.init(name: "apple_health_export/export.xml", data: changed, crc: ZipTestArchive.crc(original), size: changed.count)])
            let accepted = try await server.request(.post, "/api/imports/apple-health", token: token, raw: Data(zip), contentType: "application/zip")
            #expect(accepted.status == .accepted)
            await server.services.jobs.runUntilIdle()
            let done = try await server.request(.get, "/api/imports/\(accepted.json["id"] as? String ?? "")", token: token).json
            #expect(done["state"] as? String == "failed")
            #expect((done["error"] as? String)?.contains("CRC-32 does not match") == true, "\(done)")
        }
    }

    // MARK: 2. A body that is not what it says

    /// 16 MiB of zeros as application/zip (1 GiB pinned the worker for 13 minutes): refused
    /// with 422 at its first bytes; no import, no job, no file.
    @Test(arguments: TestDatabase.all)
    func aBodyThatIsNotAZipIsRefusedAtTheDoor(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { server, imports in
            let (_, token) = try await server.signUp("zeros")
            let reply = try await server.request(.post, "/api/imports/apple-health", token: token, raw: Data(count: 16 << 20), contentType: "application/zip")
            #expect(reply.status == .unprocessableContent)
            #expect(reply.text.contains("not a zip archive"), "\(reply.text)")
            let notXML = try await server.request(.post, "/api/imports/apple-health", token: token, raw: Data("PK\u{3}\u{4} not xml".utf8), contentType: "application/xml")
            #expect(notXML.status == .unprocessableContent && notXML.text.contains("not an XML document"))
            #expect(try await server.store.jobs.counts().isEmpty)
            #expect((try await server.request(.get, "/api/imports", token: token).json["imports"] as? [Any])?.isEmpty == true)
            #expect(Self.files(imports).isEmpty)
        }
    }

    // MARK: 3. The open-imports cap under concurrency

    /// Ten uploads at once (all ten were queued): two are admitted, eight answered 429.
    @Test(arguments: TestDatabase.all)
    func tenUploadsAtOnceAdmitTwo(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { server, imports in
            let (_, token) = try await server.signUp("racer")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await server.request(.post, "/api/imports/apple-health", token: token, raw: Self.xml, contentType: "application/xml").status }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .accepted }.count == 2, "\(statuses)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 8)
            #expect(Self.files(imports).count == 2, "the refused left no file")
            await server.services.jobs.runUntilIdle()
            #expect(try await server.request(.post, "/api/imports/apple-health", token: token, raw: Self.xml, contentType: "application/xml").status == .accepted)
        }
    }

    /// The third upload, from a client that sends its whole body before reading (with
    /// `Connection: close`, as urllib does): it reads a 429, not a broken pipe.
    @Test func aRefusedUploadIsAnsweredAfterItsBody() async throws {
        try await Self.run(setup: .live) { server, _ in
            let (_, token) = try await server.signUp("sender")
            for _ in 0..<2 {
                #expect(try await server.request(.post, "/api/imports/apple-health", token: token, raw: Self.xml, contentType: "application/xml").status == .accepted)
            }
            let port = try #require(server.client.port)
            let body = [UInt8](repeating: UInt8(ascii: " "), count: 8 << 20)
            let answer = try await onThread {
                let connection = try RawConnection(port: port)
                try connection.send(
                    "POST /api/imports/apple-health HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                        + "Content-Type: application/xml\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n")
                try connection.send(bytes: body)
                return connection.receiveAll(within: 30)
            }
            #expect(answer.hasPrefix("HTTP/1.1 429"), "\(answer.prefix(200))")
            #expect(answer.contains("still arriving, waiting or running"))
        }
    }

    // MARK: 4. Revocation

    /// A gateway revoked mid-stream: its socket is closed with 1008 within a second, and the
    /// store takes nothing more from it (75 of 75 readings were stored after the DELETE).
    @Test(arguments: TestDatabase.all)
    func aRevokedGatewayIsClosedAndStoresNothingMore(_ engine: TestDatabase) async throws {
        try await LiveGatewayTests.run(engine) { world, client in
            let revokedAt = LockedBox<ContinuousClock.Instant?>(nil)
            let close = try await client.ws("/api/live/gateway", configuration: LiveGatewayTests.bearer(world.gatewayToken)) { inbound, outbound, _ in
                try await outbound.write(.text(LiveGatewayTests.frame([LiveGatewayTests.item("s1", 1)])))
                var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                _ = try await messages.next()  // the ack
                revokedAt.withValue { $0 = .now }
                try await world.services.gateways.revoke(world.gateway.id, of: world.user)
                while try await messages.next() != nil {}
            }
            let after = revokedAt.value.map { ContinuousClock.now - $0 } ?? .seconds(60)
            #expect(close?.closeCode == .policyViolation && close?.reason == "the gateway was revoked")
            // Closed at once (well under a second when the machine is not also running the whole
            // suite: Tests/Live/two_instances_test.py measures it between real processes).
            #expect(after < .seconds(10), "closed \(after) after the revocation")
            // Whatever still comes with the old record is refused by the store itself.
            let before = try await world.services.live.sensors(of: world.user)
            await #expect(throws: LiveService.GatewayRevoked.self) {
                _ = try await world.services.live.ingest(
                    [
                        GatewayReading(
                            sensor: "s1", sequence: 2, atMilliseconds: 1_795_400_002_000,
                            measurement: HeartRateMeasurement(beatsPerMinute: 80))
                    ], from: world.gateway)
            }
            let s1 = try #require(before.first)
            let stored = try await world.services.live.readings(
                of: s1.id, for: world.user, from: Date(timeIntervalSince1970: 1_795_399_000),
                to: Date(timeIntervalSince1970: 1_795_401_000)
            ).readings
            #expect(stored.map(\.sequence) == [1])
        }
    }

    /// Sign-out, a password change and an account deletion close the sockets they cover: the
    /// signed-out session's feed; after a password change the other sessions' (never the
    /// changer's own); after a deletion, every socket of the account, its gateways' included.
    @Test func signOutsAndDeletionsCloseTheirSockets() async throws {
        try await LiveGatewayTests.run { world, client in
            let connections = world.services.bus.connections
            let (second, _) = try await world.services.accounts.openSession(for: world.user, kind: .api)
            func feed(_ token: String, until closed: @escaping @Sendable () async throws -> Void) async throws -> WebSocketErrorCode? {
                try await client.ws("/api/live/feed", configuration: LiveGatewayTests.bearer(token)) { inbound, _, _ in
                    var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                    _ = try await messages.next()  // "watching"
                    try await closed()
                    while try await messages.next() != nil {}
                }?.closeCode
            }
            // Signing out one session closes its socket.
            let signedOut = try await feed(second) {
                let identity = try #require(try await world.services.authenticator.identity(token: second, via: .bearer))
                try await world.services.accounts.signOut(identity)
            }
            #expect(signedOut == .policyViolation)
            // A password change closes the other sessions' sockets.
            let (third, _) = try await world.services.accounts.openSession(for: world.user, kind: .api)
            let other = try await feed(third) {
                let identity = try #require(try await world.services.authenticator.identity(token: world.userToken, via: .bearer))
                try await world.services.accounts.changePassword(identity, current: "12345678", new: "a new password 1")
            }
            #expect(other == .policyViolation)
            #expect(try await world.services.authenticator.identity(token: world.userToken, via: .bearer) != nil, "the changer stays signed in")
            // Deleting the account closes the gateway's socket too.
            let close = try await client.ws("/api/live/gateway", configuration: LiveGatewayTests.bearer(world.gatewayToken)) { inbound, outbound, _ in
                try await outbound.write(.text(LiveGatewayTests.frame([LiveGatewayTests.item("s9", 1)])))
                var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                _ = try await messages.next()
                let identity = try #require(try await world.services.authenticator.identity(token: world.userToken, via: .bearer))
                try await world.services.accounts.deleteAccount(identity, password: "a new password 1")
                while try await messages.next() != nil {}
            }
            #expect(close?.closeCode == .policyViolation)
            #expect(connections.count == 0)
        }
    }

    /// Two instances on one PostgreSQL database: a gateway on A, revoked through B; A closes
    /// the socket within a second.
    @Test func aRevocationOnOneInstanceClosesTheSocketOnAnother() async throws {
        guard let url = TestDatabase.postgresURL else { return }
        try await TestDatabase.postgres(url: url).withFreshLocation { location in
            let storeA = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            let storeB = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            let configuration = ServerConfiguration(port: 0, dataDirectory: NSTemporaryDirectory(), passwordHashCost: 4)
            let a = try await HeartworkServices(store: storeA, settings: configuration.serviceSettings, logger: TestDatabase.logger)
            let b = try await HeartworkServices(store: storeB, settings: configuration.serviceSettings, logger: TestDatabase.logger)
            let listeners = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { try? await a.bus.run() }
                    group.addTask { try? await b.bus.run() }
                }
            }
            defer { listeners.cancel() }
            await a.bus.waitUntilListening()
            await b.bus.waitUntilListening()
            let user = try await a.accounts.register(Registration(username: "coach", fullName: "Coach", email: "c@example.org", password: "12345678"))
            let created = try await a.gateways.create(name: "Pi", for: user)
            let application = HeartworkApplication.build(
                configuration: configuration, services: a, edge: try HeartworkApplication.Edge(metrics: ServerMetrics()),
                logger: TestDatabase.logger)
            try await application.test(.live) { client in
                let revokedAt = LockedBox<ContinuousClock.Instant?>(nil)
                let close = try await client.ws("/api/live/gateway", configuration: LiveGatewayTests.bearer(created.token)) { inbound, outbound, _ in
                    try await outbound.write(.text(LiveGatewayTests.frame([LiveGatewayTests.item("s1", 1)])))
                    var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                    _ = try await messages.next()
                    revokedAt.withValue { $0 = .now }
                    try await b.gateways.revoke(created.gateway.id, of: user)
                    while try await messages.next() != nil {}
                }
                let after = revokedAt.value.map { ContinuousClock.now - $0 } ?? .seconds(60)
                #expect(close?.closeCode == .policyViolation)
                #expect(after < .seconds(10), "closed \(after) after the revocation on the other instance")
            }
            try await storeA.shutdown()
            try await storeB.shutdown()
        }
    }

    // MARK: 5. Deletion leaves nothing

    /// An account deleted while its import waits: its upload leaves the disk at once; a file
    /// no import names (a process that died mid-deletion) goes at the next sweep.
    @Test(arguments: TestDatabase.all)
    func aDeletedAccountsUploadsLeaveTheDisk(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { server, imports in
            let (_, token) = try await server.signUp("leaver")
            #expect(try await server.request(.post, "/api/imports/apple-health", token: token, raw: Self.xml, contentType: "application/xml").status == .accepted)
            #expect(Self.files(imports).count == 1)
            #expect(try await server.request(.delete, "/api/me", token: token, json: ["password": "correct horse 1"]).status == .noContent)
            #expect(Self.files(imports).isEmpty, "the raw export went with the account")
            await server.services.jobs.runUntilIdle()
            // A leftover (written, say, by a process killed between its row and its deletion).
            let orphan = URL(fileURLWithPath: imports).appendingPathComponent("upload-\(UUID().uuidString.lowercased())").path
            #expect(FileManager.default.createFile(atPath: orphan, contents: Data("<HealthData/>".utf8)))
            #expect(try await server.services.daily.sweepUploads() == 1)
            #expect(Self.files(imports).isEmpty)
        }
    }

    /// A request racing its account's deletion (the session still cached on this instance)
    /// gets 401, not 500.
    @Test(arguments: TestDatabase.all)
    func aRequestRacingItsAccountsDeletionGets401(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { server, _ in
            let (id, token) = try await server.signUp("racing")
            #expect(try await server.request(.get, "/api/me", token: token).status == .ok)  // cached now
            let user = try #require(try await server.store.users.find(id: id))
            _ = try await server.store.deleteAccount(userID: id, username: user.username)
            for (method, path, body) in [
                (HTTPRequest.Method.post, "/api/me/weights", ["kilograms": 70] as [String: Any]),
                (.post, "/api/gateways", ["name": "Pi"]), (.post, "/api/teams", ["name": "U12"]),
            ] {
                let reply = try await server.request(method, path, token: token, json: body)
                #expect(reply.status == .unauthorized || reply.status == .notFound, "\(path): \(reply.status) \(reply.text)")
            }
            let upload = try await server.request(.post, "/api/imports/apple-health", token: token, raw: Self.xml, contentType: "application/xml")
            #expect(upload.status == .unauthorized, "\(upload.status)")
        }
    }

    // MARK: Live values

    /// Sensors per account are capped (one connection created 12,000): past 1,000 a new
    /// sensor's readings are refused with an error frame; `GET /api/sensors` is paged.
    @Test(arguments: TestDatabase.all)
    func sensorsAreCappedAndListedByPage(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { server, _ in
            let (id, token) = try await server.signUp("hoarder")
            let user = try #require(try await server.store.users.find(id: id))
            let gateway = try await server.services.gateways.create(name: "Pi", for: user).gateway
            for start in stride(from: 0, to: SensorLimits.maximumPerUser, by: 500) {
                let readings = (start..<start + 500).map {
                    GatewayReading(sensor: "strap-\($0)", sequence: 0, atMilliseconds: 1_795_400_000_000, measurement: HeartRateMeasurement(beatsPerMinute: 70))
                }
                let committed = try await server.services.live.commit(await server.services.live.stage(readings, from: gateway))
                #expect(committed.refused.isEmpty)
            }
            let over = try await server.services.live.commit(
                await server.services.live.stage(
                    [
                        GatewayReading(sensor: "strap-new", sequence: 0, atMilliseconds: 1_795_400_000_000, measurement: HeartRateMeasurement(beatsPerMinute: 70)),
                        GatewayReading(sensor: "strap-7", sequence: 1, atMilliseconds: 1_795_400_001_000, measurement: HeartRateMeasurement(beatsPerMinute: 71)),
                    ],
                    from: gateway))
            #expect(over.refused.map(\.sensor) == ["strap-new"])
            #expect(over.acks.map(\.sensor) == ["strap-7"], "a known sensor still takes readings")
            let first = try await server.request(.get, "/api/sensors", token: token)
            #expect((first.json["sensors"] as? [Any])?.count == 100)
            #expect(first.json["next"] as? String == "/api/sensors?limit=100&offset=100")
            let last = try await server.request(.get, "/api/sensors?limit=1000&offset=900", token: token)
            #expect((last.json["sensors"] as? [Any])?.count == 100 && last.json["next"] == nil)
            #expect(try await server.request(.get, "/api/sensors?limit=1001", token: token).status == .badRequest)
        }
    }

    /// Over the socket: a future `at`, a 65535 bpm and a 513-byte `hrm` each get an error
    /// frame; the strap's last values stay the real reading's.
    @Test func impossibleLiveValuesAreRefusedOverTheSocket() async throws {
        try await LiveGatewayTests.run { world, client in
            let now = Int(Date().timeIntervalSince1970 * 1000)
            let frames = [
                LiveGatewayTests.frame([
                    LiveGatewayTests.item("s1", 1, hrm: "0648", at: now),
                    LiveGatewayTests.item("s1", 2, hrm: "0648", at: 4_102_000_000_000),
                    LiveGatewayTests.item("s1", 3, hrm: "01FFFF", at: now + 1000),
                    LiveGatewayTests.item("s1", 4, hrm: "1048" + String(repeating: "0004", count: 255) + "00", at: now + 2000),
                ])
            ]
            let answers = try await LiveGatewayTests.exchange(
                client, path: "/api/live/gateway", configuration: LiveGatewayTests.bearer(world.gatewayToken),
                send: frames, expect: 4)
            let errors = answers.filter { $0["type"] as? String == "error" }.compactMap { $0["seq"] as? Int }
            #expect(errors.sorted() == [2, 3, 4], "\(answers)")
            let sensor = try #require(try await world.services.live.sensors(of: world.user).first)
            #expect(sensor.lastBeatsPerMinute == 72)
            #expect(abs((sensor.lastAt?.timeIntervalSince1970 ?? 0) * 1000 - Double(now)) < 1000, "not frozen in 2100")
        }
    }

    // MARK: Refusals say what they are

    /// An upgrade refused for its credential answers 401 with a problem body (it was an empty
    /// 400), a match room that is not yours 404, and a cookie upgrade from `Origin: null` 403.
    @Test func refusedUpgradesSayWhy() async throws {
        try await ServerHarness.run(setup: .live) { server in
            let (_, token) = try await server.signUp("upgrader")
            // The gateway endpoint asked without an upgrade says whether its token is good.
            #expect(try await server.request(.get, "/api/live/gateway?token=hwg_wrong").status == .unauthorized)
            let web = try await server.webSession("upgrader")
            let port = try #require(server.client.port)
            func upgrade(_ path: String, _ headers: String = "") async throws -> String {
                try await onThread {
                    let connection = try RawConnection(port: port)
                    try connection.send(
                        "GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\(headers)\r\n")
                    return connection.receiveAll(within: 30)
                }
            }
            let badToken = try await upgrade("/api/live/gateway?token=hwg_wrong")
            #expect(badToken.hasPrefix("HTTP/1.1 401"), "\(badToken)")
            #expect(badToken.contains("application/problem+json") && badToken.contains("\"status\":401"))
            let notSignedIn = try await upgrade("/api/live/feed")
            #expect(notSignedIn.hasPrefix("HTTP/1.1 401") && notSignedIn.contains("Not signed in"))
            let strangersRoom = try await upgrade("/api/live/matches/\(UUID().uuidString.lowercased())", "Authorization: Bearer \(token)\r\n")
            #expect(strangersRoom.hasPrefix("HTTP/1.1 404"), "\(strangersRoom)")
            let sandboxed = try await upgrade("/api/live/feed", "Cookie: \(web.cookie)\r\nOrigin: null\r\n")
            #expect(sandboxed.hasPrefix("HTTP/1.1 403"), "\(sandboxed)")
            let sameSite = try await upgrade("/api/live/feed", "Cookie: \(web.cookie)\r\nOrigin: http://localhost\r\n")
            #expect(sameSite.hasPrefix("HTTP/1.1 101"), "\(sameSite)")
            // `?batch=` is 1 or 0 (PROTOCOL.md §4, §6): anything else is refused before the upgrade,
            // naming the parameter, on the gateway's socket and on the feed.
            let gateway = try await server.request(.post, "/api/gateways", token: token, json: ["name": "Pi"])
            let gatewayToken = try #require(gateway.json["token"] as? String)
            for path in ["/api/live/gateway?token=\(gatewayToken)&batch=maybe", "/api/live/feed?batch=2"] {
                let answer = try await upgrade(path, path.contains("feed") ? "Authorization: Bearer \(token)\r\n" : "")
                #expect(answer.hasPrefix("HTTP/1.1 400") && answer.contains(#""field":"batch""#), "\(path): \(answer)")
            }
            let batched = try await upgrade("/api/live/gateway?token=\(gatewayToken)&batch=1")
            #expect(batched.hasPrefix("HTTP/1.1 101"), "\(batched)")
        }
    }

    /// No token reaches the log: the request line's secret parameters are redacted.
    @Test func secretsInAQueryAreNotLogged() {
        #expect(RequestLogMiddleware<AppRequestContext>.redacted("/api/live/gateway?token=hwg_secret&x=1") == "/api/live/gateway?token=redacted&x=1")
        #expect(RequestLogMiddleware<AppRequestContext>.redacted("/login?next=/a&_csrf=abc&password=p") == "/login?next=/a&_csrf=redacted&password=redacted")
        #expect(RequestLogMiddleware<AppRequestContext>.redacted("/workouts?page=2") == "/workouts?page=2")
    }

    // MARK: 8. OCR

    /// A 30000×30000 PNG of a few hundred bytes (875 KB took Tesseract to 2.7 GB) is refused
    /// by its header, before any OCR; so is anything over 50 megapixels.
    @Test func aHugeImageIsRefusedBeforeOCR() throws {
        do {
            _ = try LabelReader.recognize(ZipTestArchive.png(width: 30_000, height: 30_000))
            Issue.record("a 900-megapixel photo was read")
        } catch {
            #expect(error.description.contains("30000×30000 pixels is not accepted"), "\(error.description)")
        }
        do {
            _ = try LabelReader.recognize(ZipTestArchive.png(width: 12_000, height: 12_000))
            Issue.record("a 144-megapixel photo was read")
        } catch {
            #expect(error.description.contains("at most 50 megapixels"), "\(error.description)")
        }
        do {
            _ = try LabelReader.recognize(Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20))
            Issue.record("a GIF was read")
        } catch {
            #expect(error.description.contains("PNG or JPEG"))
        }
    }
}
