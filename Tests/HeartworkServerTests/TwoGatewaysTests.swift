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
import Testing

@testable import HeartworkServer

/// Two gateways hearing one strap (issue 41): its readings are stored once, one series, never
/// interleaved — the same RR intervals, and so the same HRV, as one gateway that heard every
/// notification (`StrapFeeds`, docs/PROTOCOL.md §4 "Two gateways, one strap").
@Suite("Live: two gateways, one strap", .timeLimit(.minutes(3)))
struct TwoGatewaysTests {
    /// One notification of the strap: when it was sent (ms from the start), its heart rate and
    /// the RR intervals of the beats since the one before, as a real strap sends them once a
    /// second (Bluetooth HRS: one notification a second, 0–3 RR intervals in it).
    struct Notification: Sendable {
        let at: Int
        let bpm: Int
        let rr: [UInt16]
    }

    static let start = 1_795_400_000_000
    static let address = "A0:9E:1A:12:34:56"

    /// `seconds` notifications of a strap at about 86 bpm (synthetic RR with respiratory and
    /// Mayer waves, Core's SyntheticRRModel).
    static func notifications(seconds: Int, seed: UInt64 = 41) -> [Notification] {
        var model = SyntheticRRModel()
        model.meanMilliseconds = 700
        let rr = model.generate(beats: seconds * 2 + 10, seed: seed)
        var beatEnd = 0.0
        var beats = rr.makeIterator()
        var pending = beats.next()
        var result = [Notification]()
        var bpm = 86
        for second in 0..<seconds {
            let sent = Double(second * 1000 + 500)
            var ticks = [UInt16]()
            while let next = pending, beatEnd + next <= sent {
                beatEnd += next
                ticks.append(UInt16((next * 1.024).rounded()))
                bpm = Int((60_000 / next).rounded())
                pending = beats.next()
            }
            result.append(Notification(at: second * 1000 + 500, bpm: bpm, rr: ticks))
        }
        return result
    }

    /// How one gateway hears the strap: its own numbering from `firstSeq`, its clock `clock`
    /// ms off the server's with ±40 ms of jitter, arriving `latency` ms (±20) after the strap
    /// sent it.
    struct Hearing: Sendable {
        let gateway: GatewayRecord
        let firstSeq: Int
        let clock: Int
        let latency: Int
        let heard: Range<Int>
    }

    struct Arrival: Sendable {
        let gateway: GatewayRecord
        let reading: GatewayReading
        let arrives: Int
    }

    static func arrivals(_ notifications: [Notification], _ hearings: [Hearing]) -> [Arrival] {
        var random = SplitMix64(seed: 7)
        func jitter(_ spread: Int) -> Int { Int(random.next() % UInt64(2 * spread + 1)) - spread }
        var arrivals = [Arrival]()
        for hearing in hearings {
            for index in hearing.heard {
                let notification = notifications[index]
                let measurement = HeartRateMeasurement(
                    beatsPerMinute: UInt16(notification.bpm), sensorContact: .detected, rrIntervalTicks: notification.rr)
                let reading = GatewayReading(
                    sensor: address, sequence: hearing.firstSeq + index, atMilliseconds: start + notification.at + hearing.clock + jitter(40),
                    measurement: measurement, battery: 80)
                arrivals.append(Arrival(gateway: hearing.gateway, reading: reading, arrives: start + notification.at + hearing.latency + jitter(20)))
            }
        }
        return arrivals.sorted { $0.arrives < $1.arrives }
    }

    struct World: Sendable {
        let services: HeartworkServices
        let user: UserRecord
        let pi: (gateway: GatewayRecord, token: String)
        let phone: (gateway: GatewayRecord, token: String)
    }

    static func run(_ engine: TestDatabase, _ body: @Sendable (World) async throws -> Void) async throws {
        try await engine.withStore { store in
            let configuration = ServerConfiguration(port: 0, dataDirectory: NSTemporaryDirectory(), passwordHashCost: 4)
            let services = try await HeartworkServices(store: store, settings: configuration.serviceSettings, logger: TestDatabase.logger)
            let user = try await services.accounts.register(Registration(username: "coach", fullName: "Coach", email: "c@example.org", password: "12345678"))
            let pi = try await services.gateways.create(name: "Pitch-side Pi", for: user)
            let phone = try await services.gateways.create(name: "Coach's phone", for: user)
            try await body(World(services: services, user: user, pi: (pi.gateway, pi.token), phone: (phone.gateway, phone.token)))
        }
    }

    static func stored(_ world: World) async throws -> [SensorReading] {
        let sensors = try await world.services.live.sensors(of: world.user)
        #expect(sensors.count == 1, "one strap is one sensor")
        let sensor = try #require(sensors.first { $0.address == address })
        let from = Date(timeIntervalSince1970: Double(start) / 1000 - 60)
        return try await world.services.live.readings(of: sensor.id, for: world.user, from: from, to: from.addingTimeInterval(3600)).readings
    }

    /// One series: a reading per notification, in time order with increasing sequence
    /// numbers, the RR intervals exactly as the strap sent them, and the same HRV.
    static func expectOneSeries(_ stored: [SensorReading], _ notifications: [Notification]) {
        #expect(stored.count == notifications.count, "one reading per notification: \(stored.count) for \(notifications.count)")
        #expect(zip(stored, stored.dropFirst()).allSatisfy { $0.sequence < $1.sequence && $0.atMilliseconds < $1.atMilliseconds }, "never interleaved")
        let storedRR = stored.flatMap(\.rrIntervalTicks)
        let sentRR = notifications.flatMap(\.rr)
        #expect(storedRR == sentRR, "the RR intervals as the strap sent them")
        let hrv = TimeDomainIndices(rrMilliseconds: storedRR.map(RRIntervalUnit.milliseconds(fromTicks:)))
        let alone = TimeDomainIndices(rrMilliseconds: sentRR.map(RRIntervalUnit.milliseconds(fromTicks:)))
        #expect(hrv != nil && hrv == alone, "the same HRV as from one gateway")
    }

    @Test(arguments: TestDatabase.all)
    func bothHearingEveryBeatStoreOneSeries(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { world in
            let notifications = Self.notifications(seconds: 120)
            // The Pi numbers from 1,000 with a good clock; the phone from 7, its clock 2.5 s behind.
            let arrivals = Self.arrivals(
                notifications,
                [
                    Hearing(gateway: world.pi.gateway, firstSeq: 1000, clock: 0, latency: 40, heard: 0..<120),
                    Hearing(gateway: world.phone.gateway, firstSeq: 7, clock: -2500, latency: 120, heard: 0..<120),
                ])
            for arrival in arrivals {
                let acks = try await world.services.live.ingest(
                    [arrival.reading], from: arrival.gateway, now: Date(timeIntervalSince1970: Double(arrival.arrives) / 1000))
                // Each gateway is acknowledged in its own numbers, stored or not.
                #expect(acks == [LiveService.Ack(sensor: Self.address, sequence: arrival.reading.sequence)])
            }
            let stored = try await Self.stored(world)
            Self.expectOneSeries(stored, notifications)
            #expect(stored.map(\.sequence) == Array(1000..<1120), "the first gateway's own numbers: nothing changes for one gateway")
        }
    }

    @Test(arguments: TestDatabase.all)
    func whenOneFallsSilentTheOtherCarriesOnWhereItStopped(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { world in
            let notifications = Self.notifications(seconds: 180)
            // The Pi hears the first 100 s, then its player walks out of its range; the phone
            // (its clock 2.5 s behind) hears all of it.
            let arrivals = Self.arrivals(
                notifications,
                [
                    Hearing(gateway: world.pi.gateway, firstSeq: 1000, clock: 0, latency: 40, heard: 0..<100),
                    Hearing(gateway: world.phone.gateway, firstSeq: 7, clock: -2500, latency: 120, heard: 0..<180),
                ])
            for arrival in arrivals {
                _ = try await world.services.live.ingest([arrival.reading], from: arrival.gateway, now: Date(timeIntervalSince1970: Double(arrival.arrives) / 1000))
            }
            let stored = try await Self.stored(world)
            Self.expectOneSeries(stored, notifications)
            #expect(stored.prefix(100).map(\.sequence) == Array(1000..<1100))
            // The phone's readings on the Pi's clock: the series stays in time order.
            let joined = stored[100].atMilliseconds - stored[99].atMilliseconds
            #expect((800...1200).contains(joined), "a second between the last beat heard by the Pi and the phone's next: \(joined) ms")

            // A restart forgets what the process knew: the store keeps who feeds the strap, so
            // the phone's next readings continue the series (and the Pi's again are not stored).
            let restarted = try await HeartworkServices(
                store: world.services.store, settings: ServerConfiguration(port: 0, dataDirectory: NSTemporaryDirectory(), passwordHashCost: 4).serviceSettings,
                logger: TestDatabase.logger)
            let more = Self.notifications(seconds: 190).suffix(10)
            let later = Date(timeIntervalSince1970: Double(Self.start + 190_000) / 1000)
            for (offset, notification) in more.enumerated() {
                let measurement = HeartRateMeasurement(beatsPerMinute: UInt16(notification.bpm), sensorContact: .detected, rrIntervalTicks: notification.rr)
                let index = 180 + offset
                _ = try await restarted.live.ingest(
                    [GatewayReading(sensor: Self.address, sequence: 7 + index, atMilliseconds: Self.start + notification.at - 2500, measurement: measurement)],
                    from: world.phone.gateway, now: later.addingTimeInterval(Double(offset)))
            }
            let after = try await Self.stored(World(services: restarted, user: world.user, pi: world.pi, phone: world.phone))
            #expect(after.count == 190)
            #expect(zip(after, after.dropFirst()).allSatisfy { $0.sequence < $1.sequence && $0.atMilliseconds < $1.atMilliseconds })
        }
    }

    @Test(arguments: TestDatabase.all)
    func twoGatewaysOnRealSocketsStoreOneSeries(_ engine: TestDatabase) async throws {
        try await engine.withStore { store in
            var configuration = ServerConfiguration(port: 0, dataDirectory: NSTemporaryDirectory(), passwordHashCost: 4)
            configuration.webSocketPingPeriod = .seconds(300)
            let services = try await HeartworkServices(store: store, settings: configuration.serviceSettings, logger: TestDatabase.logger)
            let user = try await services.accounts.register(Registration(username: "coach", fullName: "Coach", email: "c@example.org", password: "12345678"))
            let pi = try await services.gateways.create(name: "Pitch-side Pi", for: user)
            let phone = try await services.gateways.create(name: "Coach's phone", for: user)
            let application = HeartworkApplication.build(
                configuration: configuration, services: services, edge: try HeartworkApplication.Edge(metrics: ServerMetrics()), logger: TestDatabase.logger)
            let notifications = Self.notifications(seconds: 60)
            // Each gateway's frames of ten readings, in its own numbers and on its own clock.
            func frames(firstSeq: Int, clock: Int) -> [String] {
                stride(from: 0, to: notifications.count, by: 10).map { first in
                    let items = notifications[first..<min(notifications.count, first + 10)].enumerated().map { offset, notification in
                        let hex = ([0x16, UInt8(notification.bpm)] + notification.rr.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
                            .map { String(format: "%02x", $0) }.joined()
                        return #"{"sensor":"\#(Self.address)","seq":\#(firstSeq + first + offset),"at":\#(Self.start + notification.at + clock),"hrm":"\#(hex)"}"#
                    }
                    return #"{"type":"readings","items":[\#(items.joined(separator: ","))]}"#
                }
            }
            let piFrames = frames(firstSeq: 1000, clock: 0)
            let phoneFrames = frames(firstSeq: 7, clock: 1800)
            try await application.test(.live) { client in
                @Sendable func send(_ token: String, _ frames: [String]) async throws -> [Int] {
                    let acks = LockedBox<[Int]>([])
                    var headers = HTTPFields()
                    headers[.authorization] = "Bearer \(token)"
                    try await client.ws("/api/live/gateway", configuration: .init(additionalHeaders: headers)) { inbound, outbound, _ in
                        for frame in frames { try await outbound.write(.text(frame)) }
                        var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                        for _ in frames {
                            guard case .text(let text)? = try await messages.next() else { break }
                            let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
                            if object["type"] as? String == "ack", let seq = object["seq"] as? Int { acks.withValue { $0.append(seq) } }
                        }
                    }
                    return acks.value
                }
                async let fromPi = send(pi.token, piFrames)
                async let fromPhone = send(phone.token, phoneFrames)
                let (piAcks, phoneAcks) = try await (fromPi, fromPhone)
                // Every frame acknowledged in its sender's numbers.
                #expect(piAcks == stride(from: 1009, to: 1060, by: 10).map { $0 })
                #expect(phoneAcks == stride(from: 16, to: 67, by: 10).map { $0 })
            }
            let sensor = try #require(try await services.live.sensors(of: user).first { $0.address == Self.address })
            let from = Date(timeIntervalSince1970: Double(Self.start) / 1000 - 60)
            let stored = try await services.live.readings(of: sensor.id, for: user, from: from, to: from.addingTimeInterval(3600)).readings
            Self.expectOneSeries(stored, notifications)
        }
    }
}
