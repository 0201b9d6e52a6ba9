import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import NIOCore
import NIOWebSocket
import Testing

@testable import HeartworkServer

/// The gateway protocol over a real socket (docs/PROTOCOL.md): acks after the commit, errors
/// that keep the connection, resends stored once, tokens kept to their side, abuse closed
/// with 1008, and a viewer's feed that carries only their own sensors.
// Three minutes: a hang still fails; a loaded two-core CI run (the whole suite at once)
// once took tests that need 2 s alone past one minute.
@Suite("Live: the gateway protocol", .timeLimit(.minutes(3)))
struct LiveGatewayTests {
    struct World: Sendable {
        let services: HeartworkServices
        let userToken: String
        let user: UserRecord
        let gatewayToken: String
        let gateway: GatewayRecord
    }

    static func run(_ engine: TestDatabase = .sqlite, _ body: @Sendable (World, any TestClientProtocol) async throws -> Void) async throws {
        try await engine.withStore { store in
            var configuration = ServerConfiguration(port: 0, dataDirectory: NSTemporaryDirectory(), passwordHashCost: 4)
            // The whole suite runs at once on two cores: the test's client may wait longer than a
            // 30-s ping period to be scheduled (a 1001 "Ping timeout" once, under full load).
            configuration.webSocketPingPeriod = .seconds(300)
            let services = try await HeartworkServices(store: store, settings: configuration.serviceSettings, logger: TestDatabase.logger)
            let user = try await services.accounts.register(Registration(username: "coach", fullName: "Coach", email: "c@example.org", password: "12345678"))
            let (token, _) = try await services.accounts.openSession(for: user, kind: .api)
            let created = try await services.gateways.create(name: "Pitch-side Pi", for: user)
            let application = HeartworkApplication.build(
                configuration: configuration, services: services, edge: try HeartworkApplication.Edge(metrics: ServerMetrics()), logger: TestDatabase.logger)
            try await application.test(.live) { client in
                try await body(World(services: services, userToken: token, user: user, gatewayToken: created.token, gateway: created.gateway), client)
            }
        }
    }

    static func bearer(_ token: String) -> WebSocketClientConfiguration {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        return .init(additionalHeaders: headers)
    }

    static func item(_ sensor: String, _ seq: Int, hrm: String = "16480004", at: Int? = nil) -> String {
        #"{"sensor":"\#(sensor)","seq":\#(seq),"at":\#(at ?? 1_795_400_000_000 + seq * 1000),"hrm":"\#(hrm)","battery":80}"#
    }

    static func frame(_ items: [String]) -> String { #"{"type":"readings","items":[\#(items.joined(separator: ","))]}"# }

    /// Sends text frames and collects `count` answers.
    static func exchange(
        _ client: any TestClientProtocol, path: String, configuration: WebSocketClientConfiguration,
        send frames: [String], expect count: Int
    ) async throws -> [[String: Any]] {
        let answers = LockedBox<[[String: Any]]>([])
        try await client.ws(path, configuration: configuration) { inbound, outbound, _ in
            for frame in frames { try await outbound.write(.text(frame)) }
            var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
            for _ in 0..<count {
                guard case .text(let text)? = try await messages.next() else { break }
                let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
                answers.withValue { $0.append(object) }
            }
        }
        return answers.value
    }

    @Test(arguments: TestDatabase.all)
    func readingsAreAcknowledgedAfterStoringAndResentOnesStoredOnce(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { world, client in
            let answers = try await Self.exchange(
                client, path: "/api/live/gateway", configuration: Self.bearer(world.gatewayToken),
                send: [Self.frame([Self.item("s1", 1), Self.item("s1", 2), Self.item("s1", 3, hrm: "zz"), Self.item("s2", 7, hrm: "10")])],
                expect: 3)
            let errors = answers.filter { $0["type"] as? String == "error" }
            #expect(errors.count == 2)
            #expect(errors.contains { $0["sensor"] as? String == "s1" && $0["seq"] as? Int == 3 && ($0["detail"] as? String ?? "").contains("hexadecimal") })
            #expect(errors.contains { $0["sensor"] as? String == "s2" && $0["seq"] as? Int == 7 && ($0["detail"] as? String ?? "").contains("truncated") })
            #expect(answers.contains { $0["type"] as? String == "ack" && $0["sensor"] as? String == "s1" && $0["seq"] as? Int == 2 })

            // Acknowledged means stored: the sensor exists with both readings.
            let sensors = try await world.services.live.sensors(of: world.user)
            let s1 = try #require(sensors.first { $0.address == "s1" })
            #expect(sensors.count == 1, "a sensor whose only reading was refused is not created")
            #expect(s1.lastBeatsPerMinute == 72 && s1.lastContact == .detected && s1.battery == 80)
            let window = (Date(timeIntervalSince1970: 1_795_399_000), Date(timeIntervalSince1970: 1_795_401_000))
            #expect(try await world.services.live.readings(of: s1.id, for: world.user, from: window.0, to: window.1).readings.map(\.sequence) == [1, 2])

            // A reconnecting gateway resends (and sends one more, out of order): acked again, stored once; the token as ?token=.
            let again = try await Self.exchange(
                client, path: "/api/live/gateway?token=\(world.gatewayToken)", configuration: .init(),
                send: [Self.frame([Self.item("s1", 4), Self.item("s1", 2), Self.item("s1", 1)])], expect: 1)
            #expect(again.first?["type"] as? String == "ack" && again.first?["seq"] as? Int == 4)
            let stored = try await world.services.live.readings(of: s1.id, for: world.user, from: window.0, to: window.1).readings
            #expect(stored.map(\.sequence) == [1, 2, 4])
            #expect(stored.allSatisfy { $0.rrIntervalTicks == [1024] })
        }
    }

    @Test func tokensStayOnTheirSide() async throws {
        try await Self.run { world, client in
            // A user token is not a gateway token, a gateway token not a viewer's.
            await #expect(throws: WebSocketClientError.webSocketUpgradeFailed) {
                try await client.ws("/api/live/gateway", configuration: Self.bearer(world.userToken)) { _, _, _ in }
            }
            await #expect(throws: WebSocketClientError.webSocketUpgradeFailed) {
                try await client.ws("/api/live/gateway") { _, _, _ in }
            }
            await #expect(throws: WebSocketClientError.webSocketUpgradeFailed) {
                try await client.ws("/api/live/feed", configuration: Self.bearer(world.gatewayToken)) { _, _, _ in }
            }
            // Revoked: refused at once.
            try await world.services.gateways.revoke(world.gateway.id, of: world.user)
            await #expect(throws: WebSocketClientError.webSocketUpgradeFailed) {
                try await client.ws("/api/live/gateway", configuration: Self.bearer(world.gatewayToken)) { _, _, _ in }
            }
        }
    }

    @Test func abuseClosesWithPolicyViolationAndWhatCameBeforeIsKept() async throws {
        try await Self.run { world, client in
            let binary = try await client.ws("/api/live/gateway", configuration: Self.bearer(world.gatewayToken)) { inbound, outbound, _ in
                try await outbound.write(.text(Self.frame([Self.item("kept", 1)])))
                var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                _ = try await messages.next()  // the ack
                try await outbound.write(.binary(ByteBuffer(bytes: [0xDE, 0xAD, 0xBE, 0xEF])))
                while try await messages.next() != nil {}
            }
            #expect(binary?.closeCode == .policyViolation)
            let notProtocol = try await client.ws("/api/live/gateway", configuration: Self.bearer(world.gatewayToken)) { inbound, outbound, _ in
                try await outbound.write(.text(#"{"type":"hello"}"#))
                for try await _ in inbound {}
            }
            #expect(notProtocol?.closeCode == .policyViolation)
            let flood = try await client.ws("/api/live/gateway", configuration: Self.bearer(world.gatewayToken)) { inbound, outbound, _ in
                // 5,500 readings within a second: past the 5,000 allowed (docs/PROTOCOL.md §4). Good readings, so the
                // server's reader only parses them (storing runs beside it); refused ones would
                // each be answered on the reading path, and a loaded machine could then read the
                // frames more slowly than the limit and never close.
                for round in 0..<11 {
                    try? await outbound.write(.text(Self.frame((0..<500).map { Self.item("flood", 100 + round * 500 + $0) })))
                }
                for try await _ in inbound {}
            }
            #expect(flood?.closeCode == .policyViolation)
            #expect(flood?.reason == "more than 5000 readings a second", "\(String(describing: flood?.reason))")
            // What came before the violation is kept; the flood's first frames may or may not
            // be committed yet when the client has read the close, and nothing else is there.
            let addresses = Set(try await world.services.live.sensors(of: world.user).map(\.address))
            #expect(addresses.contains("kept") && addresses.isSubset(of: ["kept", "flood"]), "\(addresses)")
        }
    }

    /// The rate window of the live sockets: each limit within any second (the gateway's
    /// readings and bytes), the first passed named, and a second later the window is free again.
    @Test func theRateWindowCountsReadingsAndBytes() {
        let limits = GatewayIngest.Limits.standard
        #expect(limits.readingsPerSecond == 5_000 && limits.bytesPerSecond == 4_194_304 && limits.framesInFlight == 64)
        let start = ContinuousClock.now
        var frames = RateWindow(perSecond: [limits.readingsPerSecond, limits.bytesPerSecond])
        let admitted = (0..<limits.readingsPerSecond).filter { _ in frames.admit([1, 100], at: start) == nil }.count
        let oneMore = frames.admit([1, 100], at: start)
        #expect(admitted == limits.readingsPerSecond && oneMore == 0)
        var readings = RateWindow(perSecond: [limits.readingsPerSecond, limits.bytesPerSecond])
        let first = readings.admit([4_999, 1000], at: start)
        let past = readings.admit([2, 1000], at: start + .milliseconds(500))
        let later = readings.admit([10, 1000], at: start + .milliseconds(2100))
        #expect(first == nil && past == 0 && later == nil)
        var bytes = RateWindow(perSecond: [limits.readingsPerSecond, limits.bytesPerSecond])
        let big = bytes.admit([1, limits.bytesPerSecond], at: start)
        let overBytes = bytes.admit([1, 1], at: start + .milliseconds(999))
        let afterASecond = bytes.admit([1, limits.bytesPerSecond - 1], at: start + .milliseconds(1001))
        #expect(big == nil && overBytes == 1 && afterASecond == nil)
        // A match player's one limit: frames.
        var player = RateWindow(perSecond: [MatchSocket.framesPerSecond])
        let players = (0...MatchSocket.framesPerSecond).map { player.admit([1], at: start + .milliseconds($0)) }
        #expect(players.dropLast().allSatisfy { $0 == nil } && players.last == 0)
    }

    /// A gateway that sends each reading as its own frame (a browser or a phone app, one
    /// notification at a time): a coach's 30 straps at 4 notifications a second for 4 seconds
    /// (480 frames, paced as they would come), then 1,200 such frames at once (more frames in a
    /// second than the old limit of 1,000 let through): never closed, every one acknowledged in
    /// order, all stored.
    @Test(arguments: TestDatabase.all)
    func oneFramePerReadingAtThirtyStrapsIsWelcome(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { world, client in
            let paced = 4 * 4
            let burst = 40
            let close = try await client.ws("/api/live/gateway", configuration: Self.bearer(world.gatewayToken)) { inbound, outbound, _ in
                let acks = LockedBox<[String: [Int]]>([:])
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                        while acks.value.count < 30 || acks.value.values.contains(where: { $0.last != paced + burst }) {
                            guard case .text(let text)? = try await messages.next() else { return }
                            let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
                            guard object["type"] as? String == "ack", let sensor = object["sensor"] as? String, let seq = object["seq"] as? Int else { continue }
                            acks.withValue { $0[sensor, default: []].append(seq) }
                        }
                    }
                    let start = ContinuousClock.now
                    for round in 0..<paced {
                        for strap in 0..<30 { try await outbound.write(.text(Self.frame([Self.item("strap-\(strap)", 1 + round)]))) }
                        try await Task.sleep(until: start + .milliseconds(250 * (round + 1)))
                    }
                    for round in paced..<(paced + burst) {
                        for strap in 0..<30 { try await outbound.write(.text(Self.frame([Self.item("strap-\(strap)", 1 + round)]))) }
                    }
                    try await group.next()
                }
                // Every frame acknowledged, in the order sent.
                #expect(acks.value.count == 30)
                #expect(acks.value.values.allSatisfy { $0 == Array(1...(paced + burst)) })
            }
            #expect(close == nil || close?.closeCode == .normalClosure, "\(String(describing: close))")
            let sensors = try await world.services.live.sensors(of: world.user)
            #expect(sensors.count == 30)
            let window = (Date(timeIntervalSince1970: 1_795_399_000), Date(timeIntervalSince1970: 1_795_401_000))
            for sensor in sensors {
                let stored = try await world.services.live.readings(of: sensor.id, for: world.user, from: window.0, to: window.1).readings
                #expect(stored.map(\.sequence) == Array(1...(paced + burst)))
            }
        }
    }

    /// `?batch=1` (PROTOCOL.md §4, §6): a gateway gets the acks of the frames committed
    /// together as one `acks` message, after the errors of their frames; a viewer gets what
    /// was stored together as one `readings` message whose items are `reading` messages. The
    /// same readings without it come one message each (the test above).
    @Test(arguments: TestDatabase.all)
    func batchedAcksAndReadingsComeSeveralToAMessageInOrder(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { world, client in
            let seen = LockedBox<[[String: Any]]>([])
            try await client.ws("/api/live/feed?batch=1", configuration: Self.bearer(world.userToken)) { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                guard case .text(let hello)? = try await messages.next() else { return }
                #expect(hello.contains(#""type":"watching""#))
                let answers = try await Self.exchange(
                    client, path: "/api/live/gateway?batch=1", configuration: Self.bearer(world.gatewayToken),
                    send: [Self.frame([Self.item("a", 1), Self.item("b", 1, hrm: "zz"), Self.item("b", 2), Self.item("c", 5)])], expect: 2)
                #expect(answers.first?["type"] as? String == "error" && answers.first?["sensor"] as? String == "b", "the frame's error comes before its acks")
                let acks = try #require(answers.last?["items"] as? [[String: Any]])
                #expect(answers.last?["type"] as? String == "acks")
                #expect(Set(acks.map { "\($0["sensor"] as? String ?? "?")=\($0["seq"] as? Int ?? -1)" }) == ["a=1", "b=2", "c=5"])
                // Three frames sent at once: their acks come in frame order, one `acks` message
                // for the frames committed together (one to three messages, by how the commits fell).
                let later = LockedBox<[[String: Any]]>([])
                try await client.ws("/api/live/gateway?batch=true", configuration: Self.bearer(world.gatewayToken)) { inbound, outbound, _ in
                    for n in 2...4 { try await outbound.write(.text(Self.frame([Self.item("a", n), Self.item("c", 4 + n)]))) }
                    var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                    var count = 0
                    while count < 6, case .text(let text)? = try await messages.next() {
                        let message = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
                        later.withValue { $0.append(message) }
                        count += (message["items"] as? [Any])?.count ?? 6
                    }
                }
                #expect(later.value.allSatisfy { $0["type"] as? String == "acks" } && (1...3).contains(later.value.count), "\(later.value)")
                let ackedInOrder = later.value.flatMap { $0["items"] as? [[String: Any]] ?? [] }.compactMap { $0["seq"] as? Int }
                #expect(ackedInOrder.count == 6)
                let frames = stride(from: 0, to: ackedInOrder.count - 1, by: 2).map { Set(ackedInOrder[$0...$0 + 1]) }
                #expect(frames == [[2, 6], [3, 7], [4, 8]], "frame by frame: \(ackedInOrder)")
                var readings = 0
                while readings < 9, case .text(let text)? = try await messages.next() {
                    let message = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
                    seen.withValue { $0.append(message) }
                    readings += (message["items"] as? [Any])?.count ?? 1
                }
            }
            let messages = seen.value
            #expect(messages.allSatisfy { $0["type"] as? String == "readings" }, "\(messages)")
            let items = messages.flatMap { $0["items"] as? [[String: Any]] ?? [] }
            #expect(items.count == 9 && items.allSatisfy { $0["type"] as? String == "reading" })
            #expect(messages.count < items.count, "several readings to a message: \(messages.count) messages for \(items.count)")
            #expect(Set(items.map { "\($0["address"] as? String ?? "?")=\($0["seq"] as? Int ?? -1)" }) == ["a=1", "b=2", "c=5", "a=2", "c=6", "a=3", "c=7", "a=4", "c=8"])
        }
    }

    @Test func aViewerSeesTheirOwnSensorsLiveAndNobodyElses() async throws {
        try await Self.run { world, client in
            let stranger = try await world.services.accounts.register(Registration(username: "stranger", fullName: "S", email: "s@example.org", password: "12345678"))
            let (strangerToken, _) = try await world.services.accounts.openSession(for: stranger, kind: .api)
            let strangerGateway = try await world.services.gateways.create(name: "Theirs", for: stranger)
            let seen = LockedBox<[[String: Any]]>([])
            try await client.ws("/api/live/feed", configuration: Self.bearer(world.userToken)) { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                // The feed says it is watching (no sensors yet); then both gateways send, and
                // only the coach's own reading arrives.
                guard case .text(let hello)? = try await messages.next() else { return }
                seen.withValue { $0.append((try? JSONSerialization.jsonObject(with: Data(hello.utf8))) as? [String: Any] ?? [:]) }
                _ = try await Self.exchange(
                    client, path: "/api/live/gateway", configuration: Self.bearer(strangerGateway.token),
                    send: [Self.frame([Self.item("theirs", 1)])], expect: 1)
                _ = try await Self.exchange(
                    client, path: "/api/live/gateway", configuration: Self.bearer(world.gatewayToken),
                    send: [Self.frame([Self.item("mine", 1, hrm: "0696")])], expect: 1)
                guard case .text(let text)? = try await messages.next() else { return }
                seen.withValue { $0.append((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]) }
            }
            #expect(seen.value.first?["type"] as? String == "watching" && (seen.value.first?["sensors"] as? [Any])?.isEmpty == true)
            let first = try #require(seen.value.dropFirst().first)
            #expect(first["type"] as? String == "reading" && first["address"] as? String == "mine" && first["bpm"] as? Int == 150)
            _ = strangerToken
            #expect(try await world.services.live.sensors(of: stranger).map(\.address) == ["theirs"])
        }
    }
}

/// A value several tasks append to.
final class LockedBox<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func withValue(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
