import Foundation
import HeartworkApp

/// At most `limit` large request bodies are read and decoded at a time; the others wait
/// (their sockets unread, so they hold no memory) up to `patience`, then are told the server
/// is busy. Keeps peak memory bounded however many uploads arrive at once.
actor UploadGate {
    private let limit: Int
    private let patience: Duration
    private var inUse = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID: UInt64 = 0

    init(limit: Int, patience: Duration) {
        self.limit = max(1, limit)
        self.patience = patience
    }

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        guard await acquire() else {
            throw AppError(.unavailable, "the server is busy with other uploads; try again in a minute", retryAfterSeconds: 60)
        }
        defer { release() }
        return try await body()
    }

    private func acquire() async -> Bool {
        if inUse < limit {
            inUse += 1
            return true
        }
        nextID += 1
        let id = nextID
        let patience = patience
        Task { [weak self] in
            try? await Task.sleep(for: patience)
            await self?.giveUp(id)
        }
        return await withCheckedContinuation { waiters.append((id, $0)) }
    }

    private func giveUp(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: false)
    }

    private func release() {
        if waiters.isEmpty {
            inUse -= 1
        } else {
            waiters.removeFirst().continuation.resume(returning: true)
        }
    }
}
