import Foundation
import HeartworkApp
import HeartworkFormats
import HeartworkServer
import HeartworkStore
import HeartworkTestSupport
import Synchronization
import Testing

/// One gateway connection's ingest in the App (`GatewayIngest`, docs/PROTOCOL.md §4): a store
/// that is behind holds the submitter at the in-flight window (nothing dropped, acks in frame
/// order), the rate limits count readings (an empty frame as one) and bytes, and a revoked
/// gateway or a failed commit ends the connection with the right close.
@Suite("Live: a gateway connection's ingest", .timeLimit(.minutes(3)))
struct GatewayIngestTests {
    struct World: Sendable {
        let services: HeartworkServices
        let user: UserRecord
        let gateway: GatewayRecord
    }

    static func run(_ engine: TestDatabase = .sqlite, _ body: @Sendable (World) async throws -> Void) async throws {
        try await engine.withStore { store in
            let configuration = ServerConfiguration(port: 0, dataDirectory: NSTemporaryDirectory(), passwordHashCost: 4)
            let services = try await HeartworkServices(store: store, settings: configuration.serviceSettings, logger: TestDatabase.logger)
            let user = try await services.accounts.register(Registration(username: "coach", fullName: "Coach", email: "c@example.org", password: "12345678"))
            let created = try await services.gateways.create(name: "Pitch-side Pi", for: user)
            try await body(World(services: services, user: user, gateway: created.gateway))
        }
    }

    static func reading(_ sensor: String, _ sequence: Int) -> GatewayItem {
        let items = try? GatewayFrame.read(
            Array(#"{"type":"reading","sensor":"\#(sensor)","seq":\#(sequence),"at":\#(1_795_400_000_000 + sequence * 1000),"hrm":"16480004"}"#.utf8))
        return items?.first ?? .refused(sensor: sensor, sequence: sequence, detail: "unreadable")
    }

    /// Holds whoever waits until opened.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let open = state.withLock { state in
                    if !state.open { state.waiting.append(continuation) }
                    return state.open
                }
                if open { continuation.resume() }
            }
        }

        func open() {
            for continuation in state.withLock({ state in
                state.open = true
                defer { state.waiting.removeAll() }
                return state.waiting
            }) {
                continuation.resume()
            }
        }
    }

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    final class Replies: Sendable {
        let list = Mutex<[GatewayIngest.Reply]>([])
        /// What the gateway would read, shortly: "ack S N", "error S N detail", "close 1008 reason".
        var value: [String] {
            list.withLock { $0 }.map { reply in
                switch reply {
                case .ack(let ack): "ack \(ack.sensor) \(ack.sequence)"
                case .refused(let sensor, let sequence, let detail): "error \(sensor ?? "-") \(sequence.map(String.init) ?? "-") \(detail)"
                case .close(let close): "close \(close.code == .policyViolation ? 1008 : 1011) \(close.reason)"
                }
            }
        }
    }

    /// Frame `n` of the held store: a reading of "held", of "other" when `n` is even, and an
    /// unreadable item when `n` is a multiple of 25.
    static func heldFrame(_ n: Int) -> [GatewayItem] {
        (n % 25 == 0 ? [.refused(sensor: "held", sequence: nil, detail: "bad \(n)")] : []) + [reading("other", n), reading("held", n)].suffix(n % 2 == 0 ? 2 : 1)
    }

    /// What frame `n` is answered with, as if it had been committed alone.
    static func heldAnswers(_ n: Int) -> [String] {
        (n % 25 == 0 ? ["error held - bad \(n)"] : []) + ["ack held \(n)"] + (n % 2 == 0 ? ["ack other \(n)"] : [])
    }

    /// The store is held (the first commit waits at a gate): 64 frames are taken at once, the
    /// 65th waits — the route would stop reading the socket — and nothing is lost: once the
    /// store moves, every frame is committed and acknowledged in the order sent.
    @Test(arguments: TestDatabase.all)
    func aStoreThatIsBehindHoldsTheSubmitterAndNothingIsDropped(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { world in
            let gate = Gate()
            let commits = Counter()
            let live = world.services.live
            let ingest = GatewayIngest(live, gateway: world.gateway, logger: TestDatabase.logger) { staged in
                commits.value.add(1, ordering: .relaxed)
                await gate.wait()
                return try await live.commit(staged)
            }
            #expect(ingest.limits.framesInFlight == 64)
            let replies = Replies()
            let frames = 150
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let ending = try await ingest.run { batch in replies.list.withLock { $0.append(contentsOf: batch) } }
                    #expect(ending == .finished)
                }
                // The window's 64 frames are taken without waiting for the store.
                for sequence in 1...64 {
                    #expect(await ingest.submit(Self.heldFrame(sequence), bytes: 100))
                }
                #expect(ingest.framesInFlight == 64)
                // The 65th waits for the store, and keeps waiting while it is behind.
                let taken = Counter()
                group.addTask {
                    #expect(await ingest.submit(Self.heldFrame(65), bytes: 100))
                    taken.value.store(1, ordering: .relaxed)
                    for sequence in 66...frames {
                        #expect(await ingest.submit(Self.heldFrame(sequence), bytes: 100))
                    }
                    ingest.finish()
                }
                try await Task.sleep(for: .milliseconds(500))
                #expect(taken.value.load(ordering: .relaxed) == 0, "a frame past the window was taken while the store was behind")
                #expect(ingest.framesInFlight == 64)
                #expect(commits.value.load(ordering: .relaxed) == 1, "one commit at a time, in order")
                #expect(replies.value.isEmpty, "nothing is acknowledged before its commit")
                gate.open()
                try await group.waitForAll()
            }
            // Every frame acknowledged, in order (the frames that waited for a commit are
            // committed together next, and still answered one by one).
            #expect(replies.value == (1...frames).flatMap(Self.heldAnswers))
            #expect(commits.value.load(ordering: .relaxed) < frames, "frames that waited are committed together")
            #expect(ingest.framesInFlight == 0)
            let sensor = try #require(try await live.sensors(of: world.user).first { $0.address == "held" })
            let window = (Date(timeIntervalSince1970: 1_795_399_000), Date(timeIntervalSince1970: 1_795_401_000))
            #expect(try await live.readings(of: sensor.id, for: world.user, from: window.0, to: window.1).readings.map(\.sequence) == Array(1...frames))
            let other = try #require(try await live.sensors(of: world.user).first { $0.address == "other" })
            let others = try await live.readings(of: other.id, for: world.user, from: window.0, to: window.1).readings.map(\.sequence)
            #expect(others == Array(stride(from: 2, through: frames, by: 2)))
        }
    }

    /// A frame's unreadable items are answered with its acks, after the frames before it
    /// (whether committed with them or not); an empty frame counts as one reading, so a flood of them is closed (1008) at the limit,
    /// after the answers of what came before.
    @Test func emptyFramesCountAsReadingsAndRefusalsKeepTheirPlace() async throws {
        try await Self.run { world in
            let limits = GatewayIngest.Limits(readingsPerSecond: 300, bytesPerSecond: 1 << 20, framesInFlight: 8)
            let ingest = GatewayIngest(world.services.live, gateway: world.gateway, limits: limits, logger: TestDatabase.logger)
            let replies = Replies()
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let ending = try await ingest.run { batch in replies.list.withLock { $0.append(contentsOf: batch) } }
                    #expect(ending == .closed)
                }
                #expect(await ingest.submit([Self.reading("a", 1)], bytes: 100, at: start))
                #expect(await ingest.submit([.refused(sensor: "a", sequence: 2, detail: "bad"), Self.reading("a", 3)], bytes: 100, at: start))
                for _ in 0..<297 { #expect(await ingest.submit([], bytes: 30, at: start)) }
                // 300 readings counted (1 + 2 + 297 empty frames): one more empty frame is past.
                #expect(await ingest.submit([], bytes: 30, at: start) == false)
                #expect(await ingest.submit([Self.reading("a", 4)], bytes: 100, at: start + .seconds(5)) == false, "nothing is taken once closed")
                try await group.waitForAll()
            }
            #expect(replies.value == ["ack a 1", "error a 2 bad", "ack a 3", "close 1008 more than 300 readings a second"])
        }
    }

    /// The byte limit: a second's worth in one go is taken, one byte more within the second
    /// closes the connection with a reason naming the limit.
    @Test func theByteLimitCloses() async throws {
        try await Self.run { world in
            let ingest = GatewayIngest(world.services.live, gateway: world.gateway, logger: TestDatabase.logger)
            let start = ContinuousClock.now
            let replies = Replies()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await ingest.run { batch in replies.list.withLock { $0.append(contentsOf: batch) } } }
                #expect(await ingest.submit([Self.reading("b", 1)], bytes: 3 << 20, at: start))
                #expect(await ingest.submit([Self.reading("b", 2)], bytes: 1 << 20, at: start + .milliseconds(900)))
                #expect(await ingest.submit([Self.reading("b", 3)], bytes: 1, at: start + .milliseconds(950)) == false)
                try await group.waitForAll()
            }
            #expect(replies.value == ["ack b 1", "ack b 2", "close 1008 more than 4194304 bytes a second"])
        }
    }

    struct StoreDown: Error {}

    /// A commit that fails closes with 1011 and acknowledges nothing of the frame; a revoked
    /// gateway's with 1008 "the gateway was revoked". A submitter waiting for the window is let
    /// go in both cases.
    @Test(arguments: TestDatabase.all)
    func aFailedCommitAndARevokedGatewayEndTheConnection(_ engine: TestDatabase) async throws {
        try await Self.run(engine) { world in
            let live = world.services.live
            let failing = GatewayIngest(live, gateway: world.gateway, limits: .init(framesInFlight: 1), logger: TestDatabase.logger) { staged in
                try await Task.sleep(for: .milliseconds(100))
                throw StoreDown()
            }
            let replies = Replies()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await failing.run { batch in replies.list.withLock { $0.append(contentsOf: batch) } } }
                #expect(await failing.submit([Self.reading("f", 1)], bytes: 100))
                #expect(await failing.submit([Self.reading("f", 2)], bytes: 100) == false, "the waiting submitter is let go")
                try await group.waitForAll()
            }
            #expect(replies.value == ["close 1011 could not store; resend what is not acknowledged"])

            try await world.services.gateways.revoke(world.gateway.id, of: world.user)
            let revoked = GatewayIngest(live, gateway: world.gateway, logger: TestDatabase.logger)
            let after = Replies()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await revoked.run { batch in after.list.withLock { $0.append(contentsOf: batch) } } }
                #expect(await revoked.submit([Self.reading("r", 1)], bytes: 100))
                revoked.finish()
                try await group.waitForAll()
            }
            #expect(after.value == ["close 1008 the gateway was revoked"])
            #expect(try await live.sensors(of: world.user).isEmpty)
        }
    }
}
