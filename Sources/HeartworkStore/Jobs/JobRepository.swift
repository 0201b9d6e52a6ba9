import Foundation

/// A unit of background work, kept in the store until it is done, so that nothing queued is
/// lost when a process dies (issue 11).
public struct JobRecord: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        case queued, running, done, failed
    }

    public var id: String
    public var kind: String
    public var userID: String?
    /// JSON, the kind's own shape.
    public var payload: String
    public var state: State
    public var attempts: Int
    public var maxAttempts: Int
    public var runAfter: Date
    public var lockedBy: String?
    public var lockedUntil: Date?
    public var lastError: String?
    public var createdAt: Date
    public var finishedAt: Date?

    public init(
        id: String = UUID().uuidString.lowercased(), kind: String, userID: String?, payload: String, maxAttempts: Int = 5,
        runAfter: Date, createdAt: Date
    ) {
        self.id = id
        self.kind = kind
        self.userID = userID
        self.payload = payload
        state = .queued
        attempts = 0
        self.maxAttempts = maxAttempts
        self.runAfter = runAfter
        self.createdAt = createdAt
    }
}

/// The durable job queue. A worker claims a job with a lease; the claim moves the job to
/// `running` and counts the attempt. A worker that dies leaves a lease that runs out, and the
/// job is claimed again (so every job runs at least once; the work must be idempotent). On
/// PostgreSQL claims use `FOR UPDATE SKIP LOCKED`, so several instances share the queue
/// without taking a job twice; SQLite's single writer gives the same.
public protocol JobRepository: Sendable {
    func enqueue(_ job: JobRecord) async throws
    /// Queues a job unless one of the same kind with the same `coalesceKey` payload is still
    /// queued (not yet claimed); returns false when it was folded into that one.
    func enqueueUnlessQueued(_ job: JobRecord) async throws -> Bool
    /// The next due job, now leased to `worker` until `leaseUntil`, or nil.
    func claim(worker: String, now: Date, leaseUntil: Date, kinds: [String]) async throws -> JobRecord?
    /// Extends a lease the worker still holds; false when it lost it.
    func renew(id: String, worker: String, leaseUntil: Date) async throws -> Bool
    /// Marks the job done, if the worker still holds it.
    func complete(id: String, worker: String, now: Date) async throws -> Bool
    /// Records a failed attempt: queued again after `retryAt`, or failed for good when the
    /// attempts are used up (or `retryAt` is nil).
    func fail(id: String, worker: String, error: String, retryAt: Date?, now: Date) async throws -> Bool
    func find(id: String) async throws -> JobRecord?
    /// How many jobs are in each state (for metrics and tests).
    func counts() async throws -> [JobRecord.State: Int]
    /// Deletes finished jobs older than `before`.
    func prune(before: Date) async throws -> Int
}
