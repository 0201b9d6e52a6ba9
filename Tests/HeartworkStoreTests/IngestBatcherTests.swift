import Foundation
import Synchronization
import Testing

@testable import HeartworkStore

/// Group commit without a task of its own (issue 26): frames that wait during a commit are
/// stored together by the next leader, each caller gets its own result, and a cancelled
/// leader (a revoked gateway's task) fails only its own frame — on PostgreSQL a cancelled task
/// cannot take a connection, which the process below imitates.
@Suite("Ingest batcher")
struct IngestBatcherTests {
    /// Holds a batch led by one of `holding` until `release(name)`; records every batch written.
    final class Store: Sendable {
        let holding: Set<String>
        let batches = Mutex<[[String]]>([])
        let held = Mutex<[String: CheckedContinuation<Void, Never>]>([:])

        init(holding: Set<String>) { self.holding = holding }

        func process(_ jobs: [String]) async throws -> [String] {
            if let leader = jobs.first, holding.contains(leader) {
                await withCheckedContinuation { continuation in held.withLock { $0[leader] = continuation } }
            }
            // As PostgreSQL: a cancelled task fails to take a connection, nothing is written.
            try Task.checkCancellation()
            batches.withLock { $0.append(jobs) }
            return jobs.map { "stored \($0)" }
        }

        func isHolding(_ name: String) -> Bool { held.withLock { $0[name] != nil } }

        func release(_ name: String) {
            held.withLock { $0.removeValue(forKey: name) }?.resume()
        }

        func waitUntilHolding(_ name: String) async throws {
            while !isHolding(name) { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test func aCancelledLeaderFailsOnlyItsOwnFrame() async throws {
        let store = Store(holding: ["first"])
        let batcher = IngestBatcher<String, String> { try await store.process($0) }
        // "first" leads and is held; "a", "b", "c" wait behind it, in that order.
        let first = Task { try await batcher.submit("first") }
        try await store.waitUntilHolding("first")
        let a = Task { try await batcher.submit("a") }
        try await Task.sleep(for: .milliseconds(50))
        let b = Task { try await batcher.submit("b") }
        let c = Task { try await batcher.submit("c") }
        try await Task.sleep(for: .milliseconds(50))
        // "a" will be handed the lead of [a, b, c] — but its task is cancelled first.
        a.cancel()
        store.release("first")
        #expect(try await first.value == "stored first")
        #expect(try await b.value == "stored b")
        #expect(try await c.value == "stored c")
        await #expect(throws: CancellationError.self) { try await a.value }
        #expect(store.batches.withLock { $0 } == [["first"], ["b", "c"]])
    }

    @Test func aLeaderCancelledDuringItsBatchHandsTheOthersOn() async throws {
        let store = Store(holding: ["w", "x"])
        let batcher = IngestBatcher<String, String> { try await store.process($0) }
        // "w" leads and is held while "x", "y", "z" queue; then "x" leads [x, y, z] and is
        // held in its batch, cancelled there: the batch fails (nothing written), "y" and "z"
        // go back to the head of the queue and "y" stores them.
        let w = Task { try await batcher.submit("w") }
        try await store.waitUntilHolding("w")
        let x = Task { try await batcher.submit("x") }
        try await Task.sleep(for: .milliseconds(50))
        let y = Task { try await batcher.submit("y") }
        let z = Task { try await batcher.submit("z") }
        try await Task.sleep(for: .milliseconds(50))
        store.release("w")
        try await store.waitUntilHolding("x")
        x.cancel()
        store.release("x")
        #expect(try await w.value == "stored w")
        await #expect(throws: CancellationError.self) { try await x.value }
        #expect(try await y.value == "stored y")
        #expect(try await z.value == "stored z")
        #expect(store.batches.withLock { $0 } == [["w"], ["y", "z"]])
    }
}
