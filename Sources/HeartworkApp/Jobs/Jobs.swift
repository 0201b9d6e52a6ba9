import Foundation
import HeartworkStore
import Synchronization

/// A kind of background work's parameters: `Codable` (stored as JSON in the job's row) with
/// the kind's name. A job is pushed as a value and handed back to its handler as the same
/// value, never as a dictionary.
public protocol JobParameters: Codable, Sendable {
    static var jobName: String { get }
}

/// How a failed attempt is retried: after `first`, doubling up to `maximum`, up to `attempts`
/// attempts in all.
public struct RetryStrategy: Sendable, Hashable {
    public var attempts: Int
    public var first: TimeInterval
    public var maximum: TimeInterval

    public init(attempts: Int, first: TimeInterval = 5, maximum: TimeInterval = 600) {
        self.attempts = attempts
        self.first = first
        self.maximum = maximum
    }

    /// The wait after the `attempt`th attempt failed (1-based).
    public func delay(afterAttempt attempt: Int) -> TimeInterval {
        min(maximum, first * pow(2, Double(max(0, min(attempt, 40) - 1))))
    }

    public static let never = RetryStrategy(attempts: 1)
}

/// What a running job can ask of the runner: whether its time is up, and a checkpoint where
/// it gives its turn to other users' work when it has had its slice (`JobTurns`).
public final class JobContext: Sendable {
    public let job: JobRecord
    /// The kind's time limit, counted while the job has a turn (waiting in line does not count).
    public let timeLimit: Duration
    let turns: JobTurns?
    /// Running time before the current turn, and when the current turn began.
    private let clock: Mutex<(ran: Duration, turnStarted: ContinuousClock.Instant?)>

    init(job: JobRecord, timeLimit: Duration, turns: JobTurns?, started: ContinuousClock.Instant? = .now) {
        self.job = job
        self.timeLimit = timeLimit
        self.turns = turns
        clock = Mutex((.zero, started))
    }

    /// A context whose time is up at `deadline` (tests of a handler's "stopped" path).
    public convenience init(job: JobRecord, deadline: ContinuousClock.Instant) {
        self.init(job: job, timeLimit: deadline - .now, turns: nil)
    }

    /// How long the job has run (its turns only).
    public var ranFor: Duration {
        clock.withLock { state in state.ran + (state.turnStarted.map { .now - $0 } ?? .zero) }
    }

    /// The job's time is up: a handler checks this between its steps and stops cleanly (the
    /// runner cancels it a minute later if it does not).
    public var isExpired: Bool { ranFor >= timeLimit }

    /// Between steps of a long job: when the job has run its slice and other work waits for a
    /// worker, the turn goes to the first in line and this returns when the job's turn comes
    /// again — so one user's long import or recomputation delays another's by at most a slice.
    /// Cheap when nothing waits.
    public func checkpoint() async {
        guard let turns, let started = clock.withLock({ $0.turnStarted }), ContinuousClock.now - started >= turns.slice, await turns.othersWait
        else { return }
        clock.withLock { state in
            state.ran += .now - started
            state.turnStarted = nil
        }
        guard await turns.handOver() else { return }
        clock.withLock { $0.turnStarted = .now }
    }

    /// The job holds a turn (false after a checkpoint cancelled in line): its runner gives it back.
    var holdsTurn: Bool { clock.withLock { $0.turnStarted != nil } }
}

/// The error a handler throws when its time is up: the job fails for good with `message`.
public struct JobExpired: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A kind of job: its parameters' type, its retries, its time limit and its handler.
public struct JobDefinition: Sendable {
    public let name: String
    public let retry: RetryStrategy
    public let timeLimit: Duration
    let run: @Sendable (String, JobContext) async throws -> Void

    public init<Parameters: JobParameters>(
        _ type: Parameters.Type, retry: RetryStrategy = RetryStrategy(attempts: 5), timeLimit: Duration = .seconds(600),
        handler: @escaping @Sendable (Parameters, JobContext) async throws -> Void
    ) {
        name = Parameters.jobName
        self.retry = retry
        self.timeLimit = timeLimit
        run = { payload, context in
            let parameters: Parameters
            do {
                parameters = try JSONDecoder().decode(Parameters.self, from: Data(payload.utf8))
            } catch {
                throw UnreadableJob(description: "the job's parameters cannot be read as \(Parameters.jobName): \(error)")
            }
            try await handler(parameters, context)
        }
    }
}

/// A job whose stored parameters do not decode: failed at once, never retried.
struct UnreadableJob: Error, CustomStringConvertible {
    let description: String
}

/// Builds the rows of typed jobs (the one place a job's payload is written).
public enum Jobs {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// The row for `parameters`, due at `runAfter`, with its kind's attempts.
    public static func record<Parameters: JobParameters>(
        _ parameters: Parameters, userID: String?, attempts: Int = 5, runAfter: Date,
        now: Date = Date()
    ) -> JobRecord {
        // Encoding plain Codable values to JSON does not fail; a failure would be a programming error.
        let payload = (try? encoder.encode(parameters)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return JobRecord(kind: Parameters.jobName, userID: userID, payload: payload, maxAttempts: attempts, runAfter: runAfter, createdAt: now)
    }
}
