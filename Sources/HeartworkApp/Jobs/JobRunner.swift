import Foundation
import HeartworkStore
import Logging
import ServiceLifecycle

/// Runs the durable job queue (`jobs`) with `workers` workers, and the periodic work of
/// `schedules`.
///
/// A worker claims a due job with a lease and runs its kind's handler; while it runs, the
/// lease is renewed every third of its length, so a long import keeps it, and a process that
/// dies stops renewing: the lease runs out and another worker (or this one after a restart)
/// runs the job again. Handlers are idempotent, so a job that ran twice leaves what one run
/// leaves. Claims are fair: a user with a job running has no second one claimed (the store's
/// claim), so one user's long or hostile job holds at most one worker while the others serve
/// everyone else. Each kind has a time limit: past it the handler is told (`JobContext`) and,
/// a minute later, cancelled; the job fails for good with a message saying so. A failed
/// attempt is retried by its kind's `RetryStrategy`; an unknown kind or unreadable parameters
/// fail at once.
public struct JobRunner: Service {
    /// Periodic work: run once at start and then every `interval` on each instance (the work
    /// must be safe to run on several instances at once, as every sweep here is).
    public struct Schedule: Sendable {
        public let name: String
        public let interval: Duration
        public let work: @Sendable (Date) async throws -> Void

        public init(_ name: String, every interval: Duration, work: @escaping @Sendable (Date) async throws -> Void) {
            self.name = name
            self.interval = interval
            self.work = work
        }
    }

    let store: HeartworkStore
    let definitions: [String: JobDefinition]
    let schedules: [Schedule]
    public let worker: String
    public let workers: Int
    let pollInterval: Duration
    let lease: TimeInterval
    /// How long past its time limit a handler that does not stop is left before it is cancelled.
    let grace: Duration
    let logger: Logger

    public init(
        store: HeartworkStore, definitions: [JobDefinition], schedules: [Schedule] = [], workers: Int = 3,
        worker: String = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8))",
        pollInterval: Duration = .milliseconds(500), lease: TimeInterval = 60, grace: Duration = .seconds(60), logger: Logger
    ) {
        self.store = store
        self.definitions = Dictionary(definitions.map { ($0.name, $0) }) { first, _ in first }
        self.schedules = schedules
        self.workers = max(1, workers)
        self.worker = worker
        self.pollInterval = pollInterval
        self.lease = lease
        self.grace = grace
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for number in 0..<workers {
                    group.addTask { await workLoop(name: "\(worker)/\(number)") }
                }
                for schedule in schedules {
                    group.addTask { await scheduleLoop(schedule) }
                }
                group.addTask {
                    await scheduleLoop(
                        Schedule("prune finished jobs", every: .seconds(3600)) { now in
                            _ = try await store.jobs.prune(before: now.addingTimeInterval(-7 * 86_400))
                        })
                }
            }
        }
    }

    private func workLoop(name: String) async {
        while !Task.isCancelled {
            if await runNext(worker: name) { continue }
            do { try await Task.sleep(for: pollInterval) } catch { return }
        }
    }

    private func scheduleLoop(_ schedule: Schedule) async {
        while !Task.isCancelled {
            await runScheduled(schedule)
            do { try await Task.sleep(for: schedule.interval) } catch { return }
        }
    }

    /// Runs one periodic piece of work now (also for tests).
    public func runScheduled(_ schedule: Schedule, now: Date = Date()) async {
        do {
            try await schedule.work(now)
        } catch {
            logger.warning("periodic work failed", metadata: ["work": "\(schedule.name)", "error": "\(String(reflecting: error))"])
        }
    }

    /// Runs every schedule once (for `serve --demo` and tests).
    public func runSchedules(now: Date = Date()) async {
        for schedule in schedules { await runScheduled(schedule, now: now) }
    }

    /// Runs jobs until none is due; returns how many ran (for tests and `serve --demo`).
    @discardableResult
    public func runUntilIdle(limit: Int = 10_000) async -> Int {
        var count = 0
        while count < limit, await runNext() { count += 1 }
        return count
    }

    /// Claims and runs one due job; false when none was due (or the queue is unreadable).
    public func runNext(now: Date = Date(), worker: String? = nil) async -> Bool {
        let worker = worker ?? self.worker
        let job: JobRecord
        do {
            guard let claimed = try await store.jobs.claim(worker: worker, now: now, leaseUntil: now.addingTimeInterval(lease), kinds: Array(definitions.keys)) else {
                return false
            }
            job = claimed
        } catch {
            logger.warning("job queue unreadable", metadata: ["error": "\(String(reflecting: error))"])
            return false
        }
        guard let definition = definitions[job.kind] else { return true }
        let store = store
        let lease = lease
        let grace = grace
        let deadline = ContinuousClock.now + definition.timeLimit
        let context = JobContext(job: job, deadline: deadline)
        let outcome: Result<Void, any Error> = await withTaskGroup(of: Result<Void, any Error>?.self) { group in
            group.addTask {
                do {
                    try await definition.run(job.payload, context)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            // The lease, renewed while the handler runs; and the hard stop past its time.
            group.addTask {
                while true {
                    do { try await Task.sleep(for: .seconds(lease / 3)) } catch { return nil }
                    if ContinuousClock.now >= deadline + grace {
                        return .failure(JobExpired("stopped: it ran past its \(Self.describe(definition.timeLimit)) limit"))
                    }
                    _ = try? await store.jobs.renew(id: job.id, worker: worker, leaseUntil: Date().addingTimeInterval(lease))
                }
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .success(())
        }
        switch outcome {
        case .success:
            _ = try? await store.jobs.complete(id: job.id, worker: worker, now: Date())
        case .failure(let error):
            let final = error is JobExpired || error is UnreadableJob || job.attempts >= definition.retry.attempts
            let retry = final ? nil : Date().addingTimeInterval(definition.retry.delay(afterAttempt: job.attempts))
            logger.warning(
                "job failed",
                metadata: [
                    "job": "\(job.id)", "kind": "\(job.kind)", "attempt": "\(job.attempts)", "final": "\(final)",
                    "error": "\(String(reflecting: error))",
                ])
            _ = try? await store.jobs.fail(id: job.id, worker: worker, error: String(describing: error), retryAt: retry, now: Date())
        }
        return true
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        return seconds >= 120 ? "\(seconds / 60)-minute" : "\(seconds)-second"
    }
}
