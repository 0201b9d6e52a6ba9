import Foundation
import HeartworkStore
import HeartworkTestSupport
import Testing

/// The durable job queue (issue 11) on both engines: every job claimed by one worker at a
/// time, a dead worker's job taken over when its lease runs out, retries and giving up.
@Suite("Job queue")
struct JobQueueTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: TestDatabase.all)
    func concurrentWorkersTakeEveryJobExactlyOnce(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            for i in 0..<40 {
                try await store.jobs.enqueue(JobRecord(kind: "test", userID: nil, payload: #"{"n":\#(i)}"#, runAfter: Self.t0, createdAt: Self.t0))
            }
            try await store.jobs.enqueue(JobRecord(kind: "later", userID: nil, payload: "{}", runAfter: Self.t0, createdAt: Self.t0))
            try await store.jobs.enqueue(JobRecord(kind: "test", userID: nil, payload: #"{"n":"future"}"#, runAfter: Self.t0.addingTimeInterval(3600), createdAt: Self.t0))
            var seen = [String: [String]]()
            try await withThrowingTaskGroup(of: [(payload: String, worker: String)].self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        var taken = [(payload: String, worker: String)]()
                        while let job = try await store.jobs.claim(
                            worker: "w\(worker)", now: Self.t0.addingTimeInterval(1), leaseUntil: Self.t0.addingTimeInterval(61), kinds: ["test"])
                        {
                            #expect(job.state == .running && job.attempts == 1 && job.lockedBy == "w\(worker)")
                            taken.append((job.payload, "w\(worker)"))
                            #expect(try await store.jobs.complete(id: job.id, worker: "w\(worker)", now: Self.t0.addingTimeInterval(2)))
                        }
                        return taken
                    }
                }
                for try await taken in group {
                    for (payload, worker) in taken { seen[payload, default: []].append(worker) }
                }
            }
            #expect(seen.count == 40, "every due job of the kinds asked for, and no other")
            #expect(seen.values.allSatisfy { $0.count == 1 }, "no job taken twice: \(seen.filter { $0.value.count > 1 })")
            let counts = try await store.jobs.counts()
            #expect(counts[.done] == 40 && counts[.queued] == 2)
        }
    }

    @Test(arguments: TestDatabase.all)
    func aDeadWorkersJobIsTakenOverAndRetriesEnd(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let job = JobRecord(kind: "test", userID: nil, payload: "{}", maxAttempts: 3, runAfter: Self.t0, createdAt: Self.t0)
            try await store.jobs.enqueue(job)
            // Worker a claims it and dies: nobody else gets it while the lease lasts …
            let first = try #require(try await store.jobs.claim(worker: "a", now: Self.t0, leaseUntil: Self.t0.addingTimeInterval(60), kinds: ["test"]))
            #expect(first.id == job.id)
            #expect(try await store.jobs.claim(worker: "b", now: Self.t0.addingTimeInterval(59), leaseUntil: Self.t0.addingTimeInterval(120), kinds: ["test"]) == nil)
            // … and once it has run out, worker b takes it over; a, back from the dead, has lost it.
            let second = try #require(try await store.jobs.claim(worker: "b", now: Self.t0.addingTimeInterval(61), leaseUntil: Self.t0.addingTimeInterval(121), kinds: ["test"]))
            #expect(second.id == job.id && second.attempts == 2 && second.lockedBy == "b")
            #expect(try await store.jobs.complete(id: job.id, worker: "a", now: Self.t0.addingTimeInterval(62)) == false)
            #expect(try await store.jobs.renew(id: job.id, worker: "a", leaseUntil: Self.t0.addingTimeInterval(200)) == false)
            #expect(try await store.jobs.renew(id: job.id, worker: "b", leaseUntil: Self.t0.addingTimeInterval(200)))
            // b fails: queued again after its back-off, then the last attempt fails for good.
            #expect(try await store.jobs.fail(id: job.id, worker: "b", error: "database busy", retryAt: Self.t0.addingTimeInterval(300), now: Self.t0.addingTimeInterval(70)))
            var stored = try #require(try await store.jobs.find(id: job.id))
            #expect(stored.state == .queued && stored.lastError == "database busy" && stored.runAfter == Self.t0.addingTimeInterval(300))
            #expect(try await store.jobs.claim(worker: "c", now: Self.t0.addingTimeInterval(299), leaseUntil: Self.t0.addingTimeInterval(400), kinds: ["test"]) == nil)
            let third = try #require(try await store.jobs.claim(worker: "c", now: Self.t0.addingTimeInterval(300), leaseUntil: Self.t0.addingTimeInterval(400), kinds: ["test"]))
            #expect(third.attempts == 3)
            #expect(try await store.jobs.fail(id: job.id, worker: "c", error: "still busy", retryAt: Self.t0.addingTimeInterval(500), now: Self.t0.addingTimeInterval(310)))
            stored = try #require(try await store.jobs.find(id: job.id))
            #expect(stored.state == .failed && stored.lastError == "still busy" && stored.finishedAt != nil)
            #expect(try await store.jobs.claim(worker: "d", now: Self.t0.addingTimeInterval(10_000), leaseUntil: Self.t0.addingTimeInterval(10_100), kinds: ["test"]) == nil)
            // Finished jobs are pruned after their time.
            #expect(try await store.jobs.prune(before: Self.t0.addingTimeInterval(311)) == 1)
            #expect(try await store.jobs.find(id: job.id) == nil)
        }
    }

    @Test(arguments: TestDatabase.all)
    func theSameQueuedWorkIsQueuedOnce(engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let make = { JobRecord(kind: "recompute", userID: nil, payload: #"{"from":"2026-11-01"}"#, runAfter: Self.t0, createdAt: Self.t0) }
            #expect(try await store.jobs.enqueueUnlessQueued(make()))
            #expect(try await store.jobs.enqueueUnlessQueued(make()) == false)
            // Once it runs, new work of the same shape is queued again (the running job may have read old data).
            let running = try #require(try await store.jobs.claim(worker: "a", now: Self.t0, leaseUntil: Self.t0.addingTimeInterval(60), kinds: ["recompute"]))
            #expect(try await store.jobs.enqueueUnlessQueued(make()))
            #expect(try await store.jobs.complete(id: running.id, worker: "a", now: Self.t0))
            #expect(try await store.jobs.counts()[.queued] == 1)
        }
    }
}
