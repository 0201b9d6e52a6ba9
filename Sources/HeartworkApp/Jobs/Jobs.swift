import Foundation
import HeartworkStore

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

/// What a running job can ask of the runner.
public struct JobContext: Sendable {
    public let job: JobRecord
    /// When the job's time is up: a handler checks `isExpired` between its steps and stops
    /// cleanly (the runner cancels it a minute later if it does not).
    public let deadline: ContinuousClock.Instant

    public var isExpired: Bool { ContinuousClock.now >= deadline }
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
