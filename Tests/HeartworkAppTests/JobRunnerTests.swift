import Foundation
import HeartworkStore
import HeartworkTestSupport
import ServiceLifecycle
import Synchronization
import Testing

@testable import HeartworkApp

/// The job system (issue 29, issue 27): typed parameters, several workers, fairness between
/// users, time limits, schedules, and a row written together with its job — on both engines.
@Suite("Job runner", .timeLimit(.minutes(4)))
struct JobRunnerTests {
    struct Slow: JobParameters {
        static let jobName = "test-slow"
        var label: String
    }

    struct Quick: JobParameters {
        static let jobName = "test-quick"
        var label: String
        var numbers: [Int]
    }

    /// What the handlers saw, in order, and a latch the slow jobs wait on.
    final class Journal: Sendable {
        let events = Mutex<[String]>([])
        let released = Mutex(false)

        func note(_ event: String) { events.withLock { $0.append(event) } }
        var all: [String] { events.withLock { $0 } }

        func waitUntilReleased() async throws {
            while !released.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
        }

        func waitFor(_ event: String, within seconds: Double = 20) async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < deadline {
                if all.contains(event) { return true }
                try await Task.sleep(for: .milliseconds(20))
            }
            return false
        }
    }

    static func user(_ store: HeartworkStore, _ name: String) async throws -> String {
        let user = UserRecord(username: name, fullName: name, email: "\(name)@example.org", passwordHash: "x", timeZone: nil, createdAt: Date())
        try await store.users.create(user)
        return user.id
    }

    /// A user's hostile or merely long job holds one worker; another user's short job runs
    /// beside it, and the same user's second job waits for the first (per-user fairness).
    @Test(arguments: TestDatabase.all)
    func aLongJobDoesNotHoldAnotherUsersWork(_ engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let journal = Journal()
            let runner = JobRunner(
                store: store,
                definitions: [
                    JobDefinition(Slow.self) { job, _ in
                        journal.note("start \(job.label)")
                        try await journal.waitUntilReleased()
                        journal.note("end \(job.label)")
                    },
                    JobDefinition(Quick.self) { job, _ in journal.note("quick \(job.label) \(job.numbers)") },
                ], workers: 3, pollInterval: .milliseconds(50), logger: TestDatabase.logger)
            let hostile = try await Self.user(store, "hostile")
            let other = try await Self.user(store, "other")
            try await store.jobs.enqueue(Jobs.record(Slow(label: "a1"), userID: hostile, runAfter: Date()))
            try await store.jobs.enqueue(Jobs.record(Slow(label: "a2"), userID: hostile, runAfter: Date()))
            try await store.jobs.enqueue(Jobs.record(Quick(label: "b", numbers: [1, 2, 3]), userID: other, runAfter: Date()))
            let running = Task { try await runner.run() }
            #expect(try await journal.waitFor("start a1"))
            #expect(try await journal.waitFor("quick b [1, 2, 3]"), "the other user's job ran beside the long one: \(journal.all)")
            try await Task.sleep(for: .milliseconds(300))
            #expect(!journal.all.contains("start a2"), "one job per user at a time: \(journal.all)")
            journal.released.withLock { $0 = true }
            #expect(try await journal.waitFor("end a2"))
            #expect(journal.all.firstIndex(of: "end a1")! < journal.all.firstIndex(of: "start a2")!)
            var done = 0
            for _ in 0..<250 where done < 3 {
                done = try await store.jobs.counts()[.done] ?? 0
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(done == 3)
            // The runner stops before the store closes (a query in flight would outlive it).
            running.cancel()
            _ = await running.result
        }
    }

    /// A job past its time limit is told (`isExpired`) and fails for good with what happened;
    /// one that ignores it is cancelled after the grace.
    @Test func aJobPastItsTimeFailsForGood() async throws {
        try await TestDatabase.sqlite.withStore { store in
            let runner = JobRunner(
                store: store,
                definitions: [
                    JobDefinition(Slow.self, retry: RetryStrategy(attempts: 5), timeLimit: .milliseconds(300)) { job, context in
                        if job.label == "polite" {
                            while !context.isExpired { try await Task.sleep(for: .milliseconds(20)) }
                            throw JobExpired("gave up politely")
                        }
                        try await Task.sleep(for: .seconds(60))  // ignores the limit
                    }
                ], workers: 1, lease: 0.6, grace: .milliseconds(300), logger: TestDatabase.logger)
            let polite = Jobs.record(Slow(label: "polite"), userID: nil, runAfter: Date())
            let stubborn = Jobs.record(Slow(label: "stubborn"), userID: nil, runAfter: Date())
            try await store.jobs.enqueue(polite)
            try await store.jobs.enqueue(stubborn)
            #expect(await runner.runUntilIdle() == 2, "the stubborn job did not hold the runner for its 60 s")
            let first = try #require(try await store.jobs.find(id: polite.id))
            #expect(first.state == .failed && first.attempts == 1 && first.lastError == "gave up politely")
            let second = try #require(try await store.jobs.find(id: stubborn.id))
            #expect(second.state == .failed && second.attempts == 1)
            #expect(second.lastError?.contains("ran past its") == true, "\(second.lastError ?? "")")
        }
    }

    /// Parameters come back as the value pushed; a payload that does not decode fails at once.
    @Test(arguments: TestDatabase.all)
    func typedParametersRoundTrip(_ engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let seen = Mutex<[Quick]>([])
            let runner = JobRunner(
                store: store, definitions: [JobDefinition(Quick.self) { job, _ in seen.withLock { $0.append(job) } }],
                workers: 1, logger: TestDatabase.logger)
            let sent = Quick(label: "naïve \"quoted\" 🙂", numbers: [0, -1, Int.max])
            try await store.jobs.enqueue(Jobs.record(sent, userID: nil, runAfter: Date()))
            let broken = JobRecord(kind: Quick.jobName, userID: nil, payload: #"{"label":3}"#, runAfter: Date(), createdAt: Date())
            try await store.jobs.enqueue(broken)
            await runner.runUntilIdle()
            #expect(seen.withLock { $0.map(\.label) } == [sent.label] && seen.withLock { $0.first?.numbers } == sent.numbers)
            let failed = try #require(try await store.jobs.find(id: broken.id))
            #expect(failed.state == .failed && failed.attempts == 1 && failed.lastError?.contains("cannot be read as test-quick") == true)
        }
    }

    /// Periodic work runs at start and then every interval.
    @Test(arguments: TestDatabase.all)
    func schedulesRunAtStartAndThenEveryInterval(_ engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let count = Mutex(0)
            let runner = JobRunner(
                store: store, definitions: [],
                schedules: [
                    JobRunner.Schedule("count", every: .milliseconds(100)) { _ in
                        count.withLock { $0 += 1 }
                    }
                ], workers: 1, logger: TestDatabase.logger)
            let running = Task { try await runner.run() }
            let deadline = ContinuousClock.now + .seconds(30)
            while count.withLock({ $0 }) < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            running.cancel()
            _ = await running.result
            #expect(count.withLock { $0 } >= 3)
        }
    }

    /// An import's row becomes `queued` together with its job, or not at all: when the job
    /// cannot be written (here: its id is taken) the row stays as it was.
    @Test(arguments: TestDatabase.all)
    func aRowAndItsJobLandTogether(_ engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let userID = try await Self.user(store, "importer")
            var record = HealthImportRecord(userID: userID, format: "xml", filePath: "/tmp/upload-x", bytesTotal: 0, createdAt: Date())
            record.state = .receiving
            #expect(try await store.daily.admitImport(record, maximumOpen: 2) == .admitted)
            let taken = Jobs.record(Quick(label: "x", numbers: []), userID: userID, runAfter: Date())
            try await store.jobs.enqueue(taken)
            var clash = Jobs.record(Quick(label: "y", numbers: []), userID: userID, runAfter: Date())
            clash.id = taken.id
            await #expect(throws: (any Error).self) { try await store.daily.queueImport(id: record.id, bytesTotal: 10, job: clash, now: Date()) }
            #expect(try await store.daily.findImport(id: record.id)?.state == .receiving)
            let fresh = Jobs.record(Quick(label: "z", numbers: []), userID: userID, runAfter: Date())
            #expect(try await store.daily.queueImport(id: record.id, bytesTotal: 10, job: fresh, now: Date()))
            #expect(try await store.daily.findImport(id: record.id)?.state == .queued)
            #expect(try await store.jobs.find(id: fresh.id) != nil)
        }
    }
}

extension JobRunnerTests {
    /// A webhook delivery and its job are one write: a job that cannot be stored leaves no
    /// delivery behind (which no worker would ever send), and a stored one is sent by the
    /// queue's worker.
    @Test(arguments: TestDatabase.all)
    func aWebhookDeliveryAndItsJobLandTogether(_ engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let userID = try await Self.user(store, "hooked")
            let taken = Jobs.record(Quick(label: "x", numbers: []), userID: userID, runAfter: Date())
            try await store.jobs.enqueue(taken)
            let delivery = WebhookDeliveryRecord(userID: userID, url: "http://127.0.0.1:9/hook", body: "{}", nextAttemptAt: Date(), createdAt: Date())
            var clash = Jobs.record(WebhookDeliverer.WebhookJob(deliveryID: delivery.id), userID: userID, runAfter: Date())
            clash.id = taken.id
            await #expect(throws: (any Error).self) { try await store.strength.enqueueWebhook(delivery, job: clash) }
            #expect(try await store.strength.webhookDelivery(id: delivery.id) == nil, "a delivery without its job was kept")
            let job = Jobs.record(WebhookDeliverer.WebhookJob(deliveryID: delivery.id), userID: userID, runAfter: Date())
            try await store.strength.enqueueWebhook(delivery, job: job)
            #expect(try await store.strength.webhookDelivery(id: delivery.id) != nil)
            #expect(try await store.jobs.find(id: job.id)?.kind == "webhook")
        }
    }
}

/// Issue 40: fair across every job kind. Three users' long jobs (here: work that would run for
/// a minute, checking in between its steps as imports and recomputations do) hold all three
/// workers; a fourth user's short job — queued after them — gets a turn within about one slice
/// and finishes while the long ones are still far from done; the long ones all make progress
/// (they take turns, round-robin).
extension JobRunnerTests {
    struct Long: JobParameters {
        static let jobName = "test-long"
        var label: String
    }

    @Test(arguments: TestDatabase.all)
    func longJobsOfThreeUsersGiveAFourthUsersJobItsTurn(_ engine: TestDatabase) async throws {
        try await engine.withStore { store in
            let journal = Journal()
            let steps = Mutex<[String: Int]>([:])
            let runner = JobRunner(
                store: store,
                definitions: [
                    JobDefinition(Long.self, timeLimit: .seconds(300)) { job, context in
                        journal.note("start \(job.label)")
                        // A minute of work in 20-ms steps, each a checkpoint.
                        for _ in 0..<3000 {
                            try await Task.sleep(for: .milliseconds(20))
                            steps.withLock { $0[job.label, default: 0] += 1 }
                            await context.checkpoint()
                            if journal.released.withLock({ $0 }) { break }
                        }
                        journal.note("end \(job.label)")
                    },
                    JobDefinition(Quick.self) { job, _ in journal.note("quick \(job.label)") },
                ], workers: 3, pollInterval: .milliseconds(50), logger: TestDatabase.logger)
            for name in ["a", "b", "c"] {
                let user = try await Self.user(store, "long-\(name)")
                try await store.jobs.enqueue(Jobs.record(Long(label: name), userID: user, runAfter: Date()))
            }
            let running = Task { try await runner.run() }
            for name in ["a", "b", "c"] { #expect(try await journal.waitFor("start \(name)")) }
            // Every worker is busy now; the fourth user's job is queued behind them.
            let fourth = try await Self.user(store, "fourth")
            try await store.jobs.enqueue(Jobs.record(Quick(label: "d", numbers: []), userID: fourth, runAfter: Date()))
            #expect(try await journal.waitFor("quick d", within: 30), "the fourth user's job never got a turn: \(journal.all)")
            #expect(!journal.all.contains { $0.hasPrefix("end ") }, "it ran while the long jobs were still running: \(journal.all)")
            // (How long it waited is a figure of the hostile probe, not a timed test: about a
            // slice, 1 s, and the queue's poll, 50 ms.)
            // The long jobs go on: each of the three had its turns before and has them after.
            let before = steps.withLock { $0 }
            try await Task.sleep(for: .seconds(3))
            let after = steps.withLock { $0 }
            #expect(before.count == 3 && ["a", "b", "c"].allSatisfy { (after[$0] ?? 0) > (before[$0] ?? 0) }, "\(before) → \(after)")
            journal.released.withLock { $0 = true }
            for name in ["a", "b", "c"] { #expect(try await journal.waitFor("end \(name)")) }
            running.cancel()
            _ = await running.result
        }
    }

    /// A job cut short by a shutdown is not marked done (issue 40's review: the lease's watcher,
    /// cancelled first, made an unfinished import "done"); it keeps its lease and runs again.
    @Test func aJobCutShortByAShutdownRunsAgain() async throws {
        try await TestDatabase.sqlite.withStore { store in
            let journal = Journal()
            let runner = JobRunner(
                store: store,
                definitions: [
                    JobDefinition(Slow.self) { job, _ in
                        journal.note("start \(job.label)")
                        try await journal.waitUntilReleased()
                        journal.note("end \(job.label)")
                    }
                ], workers: 1, pollInterval: .milliseconds(50), lease: 1, logger: TestDatabase.logger)
            let user = try await Self.user(store, "cut")
            let job = Jobs.record(Slow(label: "s"), userID: user, runAfter: Date())
            try await store.jobs.enqueue(job)
            let running = Task { try await runner.run() }
            #expect(try await journal.waitFor("start s"))
            running.cancel()
            _ = await running.result
            #expect(try await store.jobs.find(id: job.id)?.state == .running, "a job stopped by a shutdown stays to be run again")
            // After its lease lapses, another run takes it and finishes it.
            try await Task.sleep(for: .milliseconds(1200))
            journal.released.withLock { $0 = true }
            let again = JobRunner(
                store: store,
                definitions: [JobDefinition(Slow.self) { job, _ in journal.note("again \(job.label)") }], workers: 1, pollInterval: .milliseconds(50),
                lease: 1, logger: TestDatabase.logger)
            #expect(await again.runUntilIdle() == 1)
            #expect(journal.all.contains("again s"))
            #expect(try await store.jobs.find(id: job.id)?.state == .done)
        }
    }
}
