import Foundation

/// Group commit for gateway frames: frames that arrive while a commit is running wait for it
/// and are then stored together, in one transaction, and each caller gets its own results once
/// that transaction has committed. One writer at a time suits SQLite (one writer anyway) and
/// saves PostgreSQL a commit per frame. Should the transaction fail, every frame in it fails
/// (their gateways resend; nothing was acknowledged).
actor IngestBatcher<Job: Sendable, Result: Sendable> {
    private var pending: [(job: Job, continuation: CheckedContinuation<Result, any Error>)] = []
    private var running = false
    private let process: @Sendable ([Job]) async throws -> [Result]
    /// The most frames one transaction takes (the rest wait for the next).
    private let limit: Int

    init(limit: Int = 200, process: @escaping @Sendable ([Job]) async throws -> [Result]) {
        self.limit = limit
        self.process = process
    }

    func submit(_ job: Job) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            pending.append((job, continuation))
            if !running {
                running = true
                Task { await drain() }
            }
        }
    }

    private func drain() async {
        while !pending.isEmpty {
            let batch = Array(pending.prefix(limit))
            pending.removeFirst(batch.count)
            do {
                let results = try await process(batch.map(\.job))
                guard results.count == batch.count else {
                    throw StoreError.corruptData("a batch of \(batch.count) frames gave \(results.count) results")
                }
                for (entry, result) in zip(batch, results) { entry.continuation.resume(returning: result) }
            } catch {
                for entry in batch { entry.continuation.resume(throwing: error) }
            }
        }
        running = false
    }
}
