import Foundation
import HeartworkFormats
import HeartworkModel
import Logging
import Synchronization

/// One gateway connection's ingest (docs/PROTOCOL.md §4–§5): the route hands it each frame's
/// items as it reads them (`submit`), and writes what `run` delivers — the frame's errors,
/// then its acks, frame after frame, each frame's only after its commit — and closes the
/// socket when told to.
///
/// A frame is staged as it is submitted (its certainly-new readings go to the viewers at once)
/// and committed in order by `run`, so a slow commit delays acks, never what viewers see. The
/// frames that came while a commit ran are committed together next (one store call, answered
/// frame by frame as if each had been committed alone), so a gateway that sends each reading as
/// its own frame costs the store about what one sending a frame a second does. At
/// most `Limits.framesInFlight` frames are submitted and not yet answered; past that, `submit`
/// suspends until the oldest is answered, so the route stops reading the socket while the store
/// (or the gateway, reading its acks) is behind. Nothing polls: a waiting submitter is resumed
/// by the answer that frees its place.
///
/// The rate limits count readings and bytes, not frames (a gateway may send each reading as its
/// own frame): past either within one second, the connection is closed with 1008 and a reason
/// naming the limit, after the answers of the frames before.
public final class GatewayIngest: Sendable {
    /// How much one gateway connection may send, and how far it may run ahead of the store.
    public struct Limits: Sendable, Hashable {
        /// Readings within any second; a frame with no readings counts as one.
        public var readingsPerSecond: Int
        /// Bytes of frames (their text as sent) within any second.
        public var bytesPerSecond: Int
        /// Frames submitted and not yet answered (staged, their commit or acks pending).
        public var framesInFlight: Int

        public init(readingsPerSecond: Int = 5_000, bytesPerSecond: Int = 4 << 20, framesInFlight: Int = 64) {
            self.readingsPerSecond = readingsPerSecond
            self.bytesPerSecond = bytesPerSecond
            self.framesInFlight = framesInFlight
        }

        /// The server's limits, as docs/PROTOCOL.md §4 states them: 5,000 readings and 4 MiB
        /// a second, 64 frames in flight. Real use is far below: 60 straps at 4 notifications a
        /// second sent one reading a frame are 240 readings and about 60 KB a second.
        public static let standard = Limits()
    }

    /// How the connection ends from the server's side.
    public struct Close: Sendable, Hashable, Error {
        public enum Code: Sendable, Hashable {
            /// 1008: a limit passed, a frame against the protocol, a revoked gateway.
            case policyViolation
            /// 1011: the store failed; nothing of the frame was acknowledged.
            case serverError
        }

        public let code: Code
        public let reason: String

        public init(_ code: Code, reason: String) {
            self.code = code
            self.reason = reason
        }

        public static let revoked = Close(.policyViolation, reason: "the gateway was revoked")
        public static let storeFailed = Close(.serverError, reason: "could not store; resend what is not acknowledged")
    }

    /// What the route writes to the gateway, in this order.
    public enum Reply: Sendable, Hashable {
        case ack(LiveService.Ack)
        /// A reading not taken (unreadable, or refused by the store): an error frame.
        case refused(sensor: String?, sequence: Int?, detail: String)
        /// Close the socket with this code and reason; nothing follows.
        case close(Close)
    }

    /// How `run` ended.
    public enum Ending: Sendable, Hashable {
        /// Every submitted frame was answered after `finish` (the gateway went away).
        case finished
        /// A `.close` reply was delivered.
        case closed
    }

    private enum Entry: Sendable {
        case frame(LiveService.Staged?, refused: [Reply])
        case close(Close)
    }

    private struct State: Sendable {
        var rate: RateWindow
        /// Submitted, not yet taken by `run`, in order.
        var queue: [Entry] = []
        /// No more entries come (finished or closed).
        var queueEnded = false
        /// `run`, waiting for entries.
        var runner: CheckedContinuation<[Entry]?, Never>?
        var inFlight = 0
        /// The submitter waiting for a place in the window (one reader per connection).
        var waiter: CheckedContinuation<Bool, Never>?
        /// Ended: closed, finished, or the submitter cancelled; nothing more is taken.
        var ended = false
    }

    public let limits: Limits
    private let gateway: GatewayRecord
    private let stage: @Sendable ([GatewayReading], Date) async -> LiveService.Staged
    private let commit: @Sendable (LiveService.Staged) async throws -> LiveService.Committed
    private let logger: Logger
    private let state: Mutex<State>

    /// An ingest with its commit step given (tests make the store slow with it); the staging
    /// is `live`'s.
    public init(
        _ live: LiveService, gateway: GatewayRecord, limits: Limits = .standard, logger: Logger,
        commit: @escaping @Sendable (LiveService.Staged) async throws -> LiveService.Committed
    ) {
        self.limits = limits
        self.gateway = gateway
        self.stage = { readings, now in await live.stage(readings, from: gateway, now: now) }
        self.commit = commit
        self.logger = logger
        state = Mutex(State(rate: RateWindow(perSecond: [limits.readingsPerSecond, limits.bytesPerSecond])))
    }

    /// The ingest of a gateway connection: `live` stages and commits.
    public convenience init(_ live: LiveService, gateway: GatewayRecord, limits: Limits = .standard, logger: Logger) {
        self.init(live, gateway: gateway, limits: limits, logger: logger, commit: { try await live.commit($0) })
    }

    /// A frame's items as read (`GatewayFrame.read`) and its size in bytes as sent. Suspends
    /// while `framesInFlight` frames wait for their answers. False when the connection ends
    /// here — a rate limit passed (a `.close` reply follows the earlier frames' answers), the
    /// ingest ended, or the caller was cancelled: read no further. Called by one task at a time,
    /// in frame order.
    public func submit(_ items: [GatewayItem], bytes: Int, at now: ContinuousClock.Instant = .now) async -> Bool {
        enum Admission {
            case admitted, ended
            case exceeded(limit: Int)
        }
        let admission = state.withLock { state -> Admission in
            guard !state.ended else { return .ended }
            guard let limit = state.rate.admit([max(1, items.count), bytes], at: now) else { return .admitted }
            state.ended = true
            return .exceeded(limit: limit)
        }
        switch admission {
        case .admitted: break
        case .ended: return false
        case .exceeded(let limit):
            let reason =
                limit == 0
                ? "more than \(limits.readingsPerSecond) readings a second"
                : "more than \(limits.bytesPerSecond) bytes a second"
            enqueue(.close(Close(.policyViolation, reason: reason)), last: true)
            return false
        }
        guard await reserve() else { return false }
        var readings = [GatewayReading]()
        var refused = [Reply]()
        for item in items {
            switch item {
            case .reading(let reading): readings.append(reading)
            case .refused(let sensor, let sequence, let detail): refused.append(.refused(sensor: sensor, sequence: sequence, detail: detail))
            }
        }
        let staged = readings.isEmpty ? nil : await stage(readings, Date())
        enqueue(.frame(staged, refused: refused))
        return true
    }

    /// Ends the connection after the answers of the frames submitted so far (a frame against
    /// the protocol: 1008 with `reason`).
    public func close(_ close: Close) {
        state.withLock { $0.ended = true }
        enqueue(.close(close), last: true)
    }

    /// No more frames (the gateway went away, or stopped being read): `run` answers the frames
    /// submitted and returns.
    public func finish() {
        enqueue(nil, last: true)
    }

    /// Commits the submitted frames in order and delivers their answers: refusals, then acks,
    /// or a `.close` (a revoked gateway: 1008; a failed commit: 1011, nothing of the frame
    /// acknowledged), after which it returns. The answers of the frames committed together come
    /// in one delivery, in order (a `.close` always alone, last), so the route may write them
    /// in one go. Runs beside the task that submits, for as long as the connection; a delivery
    /// that throws ends it with that error.
    public func run(deliver: @Sendable ([Reply]) async throws -> Void) async throws -> Ending {
        defer { end() }
        while let entries = await take() {
            // The frames before a close (if one came) are committed and answered first.
            var frames = [(staged: LiveService.Staged?, refused: [Reply])]()
            var close: Close?
            for entry in entries {
                switch entry {
                case .frame(let staged, let refused): if close == nil { frames.append((staged, refused)) }
                case .close(let reason): close = close ?? reason
                }
            }
            if !frames.isEmpty {
                var replies = [Reply]()
                if let staged = LiveService.Staged.merged(frames.compactMap { $0.staged }) {
                    do {
                        replies = Self.answers(frames, try await commit(staged))
                    } catch is LiveService.GatewayRevoked {
                        try await deliver([.close(.revoked)])
                        return .closed
                    } catch {
                        logger.error("storing gateway readings failed", metadata: ["gateway": "\(gateway.id)", "error": "\(error)"])
                        try await deliver([.close(.storeFailed)])
                        return .closed
                    }
                } else {
                    replies = frames.flatMap { $0.refused }
                }
                if !replies.isEmpty { try await deliver(replies) }
                answered(frames.count)
            }
            if let close {
                try await deliver([.close(close)])
                return .closed
            }
        }
        return .finished
    }

    /// The answers of frames committed together, frame by frame as if each had been committed
    /// alone: its unreadable items, the sensors the store refused, then an ack per sensor with
    /// the frame's highest `seq` of it (what the store acknowledges is the highest it was given).
    private static func answers(_ frames: [(staged: LiveService.Staged?, refused: [Reply])], _ committed: LiveService.Committed) -> [Reply] {
        guard frames.count > 1 else {
            return (frames.first?.refused ?? [])
                + committed.refused.map { .refused(sensor: $0.sensor, sequence: $0.sequence, detail: $0.detail) } + committed.acks.map { .ack($0) }
        }
        var refusedBySensor = [String: String]()
        for refusal in committed.refused where refusedBySensor[refusal.sensor] == nil { refusedBySensor[refusal.sensor] = refusal.detail }
        let acked = Set(committed.acks.map(\.sensor))
        var replies = [Reply]()
        for frame in frames {
            replies += frame.refused
            guard let staged = frame.staged else { continue }
            let highest = staged.highest.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            for (sensor, sequence) in highest {
                if let detail = refusedBySensor[sensor] { replies.append(.refused(sensor: sensor, sequence: sequence, detail: detail)) }
            }
            for (sensor, sequence) in highest where acked.contains(sensor) {
                replies.append(.ack(LiveService.Ack(sensor: sensor, sequence: sequence)))
            }
        }
        return replies
    }

    /// Adds an entry for `run` (nil: none), and with `last` says none follow.
    private func enqueue(_ entry: Entry?, last: Bool = false) {
        let handed = state.withLock { state -> (CheckedContinuation<[Entry]?, Never>, [Entry]?)? in
            guard !state.queueEnded else { return nil }
            if let entry { state.queue.append(entry) }
            if last {
                state.queueEnded = true
                if entry != nil { state.ended = true }
            }
            guard let runner = state.runner, !state.queue.isEmpty || state.queueEnded else { return nil }
            state.runner = nil
            defer { state.queue.removeAll() }
            return (runner, state.queue.isEmpty ? nil : state.queue)
        }
        if let handed { handed.0.resume(returning: handed.1) }
    }

    /// Every entry queued, waiting for one; nil when none will come, or `run` is cancelled.
    private func take() async -> [Entry]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[Entry]?, Never>) in
                let taken = state.withLock { state -> [Entry]?? in
                    if !state.queue.isEmpty {
                        defer { state.queue.removeAll() }
                        return .some(state.queue)
                    }
                    if state.queueEnded || Task.isCancelled { return .some(nil) }
                    state.runner = continuation
                    return .none
                }
                if let taken { continuation.resume(returning: taken) }
            }
        } onCancel: {
            let runner = state.withLock { state in
                state.queueEnded = true
                defer { state.runner = nil }
                return state.runner
            }
            runner?.resume(returning: nil)
        }
    }

    /// Frames submitted and not yet answered (tests).
    public var framesInFlight: Int { state.withLock { $0.inFlight } }

    /// A place in the window, waiting for one while it is full; false once the ingest has
    /// ended or the caller is cancelled.
    private func reserve() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let admitted: Bool? = state.withLock { state in
                    if state.ended || Task.isCancelled { return false }
                    if state.inFlight < limits.framesInFlight {
                        state.inFlight += 1
                        return true
                    }
                    state.waiter = continuation
                    return nil
                }
                if let admitted { continuation.resume(returning: admitted) }
            }
        } onCancel: {
            end()
        }
    }

    /// Frames answered: a place goes to the waiting submitter, if any.
    private func answered(_ count: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.inFlight -= count
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            state.inFlight += 1
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// Nothing more is taken; a waiting submitter is told so.
    private func end() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.ended = true
            state.queueEnded = true
            state.queue.removeAll()
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: false)
    }
}

/// A sliding-window rate limit: within any second, at most `perSecond[i]` of quantity `i` (for
/// a gateway readings and bytes; for a match player frames). Amounts are kept per admission
/// with running totals, so admitting costs the same however full the window is.
public struct RateWindow: Sendable {
    public let perSecond: [Int]
    private var admissions: [(at: ContinuousClock.Instant, amounts: [Int])] = []
    /// The first admission still in the window.
    private var head = 0
    private var totals: [Int]

    public init(perSecond: [Int]) {
        self.perSecond = perSecond
        totals = Array(repeating: 0, count: perSecond.count)
    }

    /// Counts `amounts` (one per limit) at `now`: nil when every limit holds over the last
    /// second, else the index of the first one passed.
    public mutating func admit(_ amounts: [Int], at now: ContinuousClock.Instant = .now) -> Int? {
        precondition(amounts.count == perSecond.count, "one amount per limit")
        while head < admissions.count, now - admissions[head].at > .seconds(1) {
            for (index, amount) in admissions[head].amounts.enumerated() { totals[index] -= amount }
            head += 1
        }
        if head > 1024 && head * 2 > admissions.count {
            admissions.removeFirst(head)
            head = 0
        }
        admissions.append((now, amounts))
        for (index, amount) in amounts.enumerated() { totals[index] += amount }
        return totals.indices.first { totals[$0] > perSecond[$0] }
    }

}
