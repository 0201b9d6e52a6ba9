import Foundation
import HeartworkStore
import Logging
import ServiceLifecycle
import Synchronization

/// Runs the durable job queue (`jobs`) with `workers` workers, and the periodic work of
/// `schedules`.
///
/// A worker claims a due job with a lease and runs its kind's handler; while it runs, the
/// lease is renewed every third of its length, so a long import keeps it, and a process that
/// dies stops renewing: the lease runs out and another worker (or this one after a restart)
/// runs the job again. Handlers are idempotent, so a job that ran twice leaves what one run
/// leaves. Claims are fair: a user with a job running has no second one claimed (the store's
/// claim). Up to `claimsPerWorker` × `workers` jobs are claimed at once, but only `workers` run
/// at a time: they take turns (`JobTurns`), and a long job gives its turn to the next in line
/// at a checkpoint once it has run its `slice`, so one user's long or hostile work of any kind
/// delays another user's by about a slice, not by its whole length. Each kind has a time limit,
/// counted while the job has a turn: past it the handler is told (`JobContext`) and, a minute
/// later, cancelled; the job fails for good with a message saying so. A failed
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
    /// How many jobs are claimed (and wait for a turn) per worker.
    public static let claimsPerWorker = 4
    /// How long a job runs before it gives its turn to one that waits.
    public static let slice: Duration = .seconds(1)
    let turns: JobTurns
    let presence: Presence

    /// Whether a runner works the queue (shared with those that wait for a job they queued).
    public final class Presence: Sendable {
        let running = Atomic<Bool>(false)
        public init() {}
        public var isRunning: Bool { running.load(ordering: .relaxed) }

        /// A count shared by tasks.
        final class Count: Sendable {
            let value = Atomic<Int>(0)
        }
    }

    /// Whether `run` is working the queue in this process (a request may then wait for a
    /// short job it queued).
    public var isRunning: Bool { presence.isRunning }

    public init(
        store: HeartworkStore, definitions: [JobDefinition], schedules: [Schedule] = [], workers: Int = 3,
        worker: String = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8))",
        pollInterval: Duration = .milliseconds(500), lease: TimeInterval = 60, grace: Duration = .seconds(60), presence: Presence = Presence(),
        logger: Logger
    ) {
        self.presence = presence
        self.store = store
        self.definitions = Dictionary(definitions.map { ($0.name, $0) }) { first, _ in first }
        self.schedules = schedules
        self.workers = max(1, workers)
        self.worker = worker
        self.pollInterval = pollInterval
        self.lease = lease
        self.grace = grace
        self.logger = logger
        turns = JobTurns(workers: self.workers, slice: Self.slice)
    }

    public func run() async throws {
        presence.running.store(true, ordering: .relaxed)
        defer { presence.running.store(false, ordering: .relaxed) }
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await claimLoop() }
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

    /// One loop claims for the instance: while fewer than `claimsPerWorker` × `workers` jobs
    /// are claimed, it claims the next due one and starts it (it waits for its turn); when none
    /// is due, or all places are taken, it looks again after `pollInterval`.
    private func claimLoop() async {
        let limit = workers * Self.claimsPerWorker
        let claimed = Presence.Count()
        await withDiscardingTaskGroup { group in
            var number = 0
            while !Task.isCancelled {
                if claimed.value.load(ordering: .relaxed) < limit {
                    number += 1
                    let name = "\(worker)/\(number)"
                    if let job = await claim(worker: name, now: Date()) {
                        claimed.value.add(1, ordering: .relaxed)
                        group.addTask {
                            await run(job, worker: name)
                            claimed.value.subtract(1, ordering: .relaxed)
                        }
                        continue
                    }
                }
                do { try await Task.sleep(for: pollInterval) } catch { return }
            }
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
        guard let job = await claim(worker: worker, now: now) else { return false }
        await run(job, worker: worker)
        return true
    }

    /// Claims the next due job (nil when none is, or the queue is unreadable).
    private func claim(worker: String, now: Date) async -> JobRecord? {
        do {
            return try await store.jobs.claim(worker: worker, now: now, leaseUntil: now.addingTimeInterval(lease), kinds: Array(definitions.keys))
        } catch {
            logger.warning("job queue unreadable", metadata: ["error": "\(String(reflecting: error))"])
            return nil
        }
    }

    /// Runs a claimed job: waits for its turn, renews its lease meanwhile, and records how it ended.
    private func run(_ job: JobRecord, worker: String) async {
        guard let definition = definitions[job.kind] else { return }
        let store = store
        let lease = lease
        let grace = grace
        // Claimed: the lease is renewed from now on, while the job waits for its turn too.
        let renewal = Task {
            while !Task.isCancelled {
                do { try await Task.sleep(for: .seconds(lease / 3)) } catch { return }
                _ = try? await store.jobs.renew(id: job.id, worker: worker, leaseUntil: Date().addingTimeInterval(lease))
            }
        }
        defer { renewal.cancel() }
        guard await turns.acquire() else { return }
        let context = JobContext(job: job, timeLimit: definition.timeLimit, turns: turns)
        let outcome: Result<Void, any Error> = await withTaskGroup(of: Result<Void, any Error>?.self) { group in
            group.addTask {
                do {
                    try await definition.run(job.payload, context)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            // The hard stop past its time (counted while it has a turn).
            group.addTask {
                while true {
                    do { try await Task.sleep(for: .seconds(min(lease / 3, 5))) } catch { return nil }
                    if context.ranFor >= definition.timeLimit + grace {
                        return .failure(JobExpired("stopped: it ran past its \(Self.describe(definition.timeLimit)) limit"))
                    }
                }
            }
            // The handler's result, or the hard stop's; a watcher cancelled by a shutdown is
            // not a result (it once made an import that was cut short "done").
            var first: Result<Void, any Error>?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .failure(CancellationError())
        }
        if context.holdsTurn { await turns.release() }
        if Task.isCancelled, case .failure = outcome {
            // Stopped by a shutdown: the job keeps its lease, which lapses, and runs again
            // (handlers are idempotent) without losing an attempt.
            return
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
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        return seconds >= 120 ? "\(seconds / 60)-minute" : "\(seconds)-second"
    }
}
