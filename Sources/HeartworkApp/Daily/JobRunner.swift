import Foundation
import HeartworkStore
import Logging
import ServiceLifecycle

/// Runs the durable job queue (`jobs`): claims a due job with a lease, runs its kind's
/// handler, and records the outcome. While a handler runs, its lease is renewed every third
/// of its length, so a long import keeps it; a process that dies stops renewing, the lease
/// runs out and another worker (or this one after a restart) runs the job again. Handlers
/// are idempotent, so a job that ran twice leaves what one run leaves. A failed attempt is
/// retried after 5 s, doubling to 10 minutes, up to the job's attempts; then it is failed
/// with its last error.
public struct JobRunner: Service {
    public typealias Handler = @Sendable (JobRecord) async throws -> Void

    let store: HeartworkStore
    let handlers: [String: Handler]
    public let worker: String
    let pollInterval: Duration
    let lease: TimeInterval
    let logger: Logger

    public init(store: HeartworkStore, handlers: [String: Handler], worker: String = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8))",
                pollInterval: Duration = .milliseconds(500), lease: TimeInterval = 60, logger: Logger) {
        self.store = store
        self.handlers = handlers
        self.worker = worker
        self.pollInterval = pollInterval
        self.lease = lease
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var lastPrune = Date.distantPast
            while !Task.isCancelled {
                let ran = await runNext()
                if Date().timeIntervalSince(lastPrune) > 3600 {
                    lastPrune = Date()
                    _ = try? await store.jobs.prune(before: Date().addingTimeInterval(-7 * 86_400))
                }
                if !ran {
                    do { try await Task.sleep(for: pollInterval) } catch { return }
                }
            }
        }
    }

    /// Runs jobs until none is due; returns how many ran (for tests and `serve --demo`).
    @discardableResult
    public func runUntilIdle(limit: Int = 10_000) async -> Int {
        var count = 0
        while count < limit, await runNext() { count += 1 }
        return count
    }

    /// Claims and runs one due job; false when none was due (or the queue is unreadable).
    public func runNext(now: Date = Date()) async -> Bool {
        let job: JobRecord
        do {
            guard let claimed = try await store.jobs.claim(worker: worker, now: now, leaseUntil: now.addingTimeInterval(lease), kinds: Array(handlers.keys)) else { return false }
            job = claimed
        } catch {
            logger.warning("job queue unreadable", metadata: ["error": "\(String(reflecting: error))"])
            return false
        }
        guard let handler = handlers[job.kind] else { return true }
        let store = store, worker = worker, lease = lease
        let renewal = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(lease / 3))
                _ = try await store.jobs.renew(id: job.id, worker: worker, leaseUntil: Date().addingTimeInterval(lease))
            }
        }
        do {
            try await handler(job)
            renewal.cancel()
            _ = try await store.jobs.complete(id: job.id, worker: worker, now: Date())
        } catch {
            renewal.cancel()
            let retry = Date().addingTimeInterval(Self.backoff(afterAttempt: job.attempts))
            logger.warning("job failed", metadata: ["job": "\(job.id)", "kind": "\(job.kind)", "attempt": "\(job.attempts)", "error": "\(String(reflecting: error))"])
            _ = try? await store.jobs.fail(id: job.id, worker: worker, error: String(describing: error), retryAt: retry, now: Date())
        }
        return true
    }

    public static func backoff(afterAttempt attempt: Int) -> TimeInterval {
        min(600, 5 * pow(2, Double(max(0, attempt - 1))))
    }
}
