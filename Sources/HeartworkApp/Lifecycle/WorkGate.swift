import Foundation
import Synchronization

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

/// At most `limit` large bodies of one user arrive at once (issue 40: two slowly sent workout
/// bodies held both upload places, and every other user's upload and sync waited 60 s for a
/// 503). A large body is read before it takes one of the server's `WorkGate` places, so a slow
/// sender holds only their own places; a user's next body past the limit is refused at once.
public final class PerUserUploads: Sendable {
    public let limit: Int
    private let open = Mutex<[String: Int]>([:])

    public init(limit: Int = 2) {
        self.limit = max(1, limit)
    }

    /// Runs `body` holding one of `userID`'s places; throws `AppError.throttled` when they are taken.
    public func run<T: Sendable>(_ userID: String, _ body: () async throws -> T) async throws -> T {
        let admitted = open.withLock { open in
            let count = open[userID, default: 0]
            guard count < limit else { return false }
            open[userID] = count + 1
            return true
        }
        guard admitted else {
            throw AppError(.throttled, "you are sending \(limit) uploads already; send the next when one has arrived", retryAfterSeconds: 10)
        }
        defer {
            open.withLock { open in
                let count = open[userID, default: 1] - 1
                open[userID] = count > 0 ? count : nil
            }
        }
        return try await body()
    }
}
