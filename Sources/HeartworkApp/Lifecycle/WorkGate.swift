import Foundation

/// At most `limit` pieces of heavy work run at a time; the others wait up to `patience`, then
/// are told the server is busy (`AppError.unavailable` with `busy`). The edge reads and
/// decodes at most N large request bodies at once through one (their sockets unread while
/// they wait, so they hold no memory); photos are read by OCR one at a time through another.
public actor WorkGate {
    private let limit: Int
    private let patience: Duration
    private var inUse = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID: UInt64 = 0

    let busy: String

    public init(limit: Int, patience: Duration, busy: String = "the server is busy with other uploads; try again in a minute") {
        self.busy = busy
        self.limit = max(1, limit)
        self.patience = patience
    }

    public func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        guard await acquire() else {
            throw AppError(.unavailable, busy, retryAfterSeconds: 60)
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
