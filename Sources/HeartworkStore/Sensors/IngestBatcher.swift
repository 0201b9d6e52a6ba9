import Foundation

/// Group commit for gateway frames: frames that arrive while a commit is running wait for it
/// and are then stored together, in one transaction, and each caller gets its own results once
/// that transaction has committed. One writer at a time suits SQLite (one writer anyway) and
/// saves PostgreSQL a commit per frame. Should the transaction fail, every frame in it fails
/// (their gateways resend; nothing was acknowledged).
///
/// No task is started for it (leader and followers): a submitter that finds no commit running
/// leads — it stores the waiting frames (its own first) in its own task; a submitter that finds
/// one running waits. When the leader's batch has committed, it resumes each follower in the
/// batch with its result, hands the lead to the first frame still waiting (which then stores
/// the next batch, its own first), and returns its own result.
actor IngestBatcher<Job: Sendable, Result: Sendable> {
    /// What a waiting submitter is resumed with: its frame's result, or the lead.
    private enum Signal {
        case done(Swift.Result<Result, any Error>)
        case lead
    }

    /// Frames not yet in a batch, in order. The leader's own frame (at the head while it
    /// leads) has no continuation.
    private var pending: [(job: Job, waiter: CheckedContinuation<Signal, Never>?)] = []
    /// A leader is storing a batch, or has been handed the lead and is about to.
    private var running = false
    private let process: @Sendable ([Job]) async throws -> [Result]
    /// Run by a leader after its batch's callers have their answers and the lead has passed on
    /// (PostgreSQL's fold of pending readings: never on the path of the others' acks).
    private let after: (@Sendable ([Job]) async -> Void)?
    /// The most frames one transaction takes (the rest wait for the next).
    private let limit: Int
    /// Group commits start at least this far apart: a leader that comes sooner waits the rest
    /// (the frames that arrive meanwhile join its group). At 10,000 straps in 100 gateways'
    /// frames (one every 10 ms) nearly every commit took one frame; each commit's fixed cost
    /// (statements prepared, the WAL written and synced) is then paid 100 times a second.
    private let spacing: Duration
    private var lastStart: ContinuousClock.Instant?

    init(
        limit: Int = 200, spacing: Duration = .zero, process: @escaping @Sendable ([Job]) async throws -> [Result],
        after: (@Sendable ([Job]) async -> Void)? = nil
    ) {
        self.limit = limit
        self.spacing = spacing
        self.process = process
        self.after = after
    }

    func submit(_ job: Job) async throws -> Result {
        if running {
            let signal = await withCheckedContinuation { pending.append((job, $0)) }
            if case .done(let result) = signal { return try result.get() }
            // Led to: this frame is at the head of `pending`, its continuation taken.
        } else {
            running = true
            pending.append((job, nil))
        }
        return try await lead().get()
    }

    /// Stores one batch from the head of `pending` (the leader's frame first), answers the
    /// followers in it, passes the lead on (or stops), and gives the leader its own result.
    /// The batch's work runs in the leader's task. A cancelled leader (its gateway revoked, the
    /// server stopping) does not fail the others' frames: cancelled before it starts, it gives
    /// up its own frame and passes the lead; should its batch fail while it is cancelled (on
    /// PostgreSQL a cancelled task cannot take a connection), the transaction rolled back, so
    /// the others go back to the head of the queue, in order, and the first of them leads.
    private func lead() async -> Swift.Result<Result, any Error> {
        if Task.isCancelled {
            pending.removeFirst()
            passLead()
            return .failure(CancellationError())
        }
        if spacing > .zero, let lastStart {
            let wait = lastStart + spacing - .now
            // Cancelled meanwhile: stores at once (the check above is for a leader cancelled
            // before it began).
            if wait > .zero { try? await Task.sleep(for: wait) }
        }
        lastStart = .now
        let batch = Array(pending.prefix(limit))
        pending.removeFirst(batch.count)
        let outcome: Swift.Result<[Result], any Error>
        do {
            let results = try await process(batch.map(\.job))
            guard results.count == batch.count else {
                throw StoreError.corruptData("a batch of \(batch.count) frames gave \(results.count) results")
            }
            outcome = .success(results)
        } catch {
            outcome = .failure(error)
        }
        if case .failure(let error) = outcome, Task.isCancelled, batch.count > 1 {
            pending.insert(contentsOf: batch.dropFirst(), at: 0)
            passLead()
            return .failure(error)
        }
        var own: Swift.Result<Result, any Error> = .failure(StoreError.corruptData("the leader's frame was not in its batch"))
        for (index, entry) in batch.enumerated() {
            let result = outcome.map { $0[index] }
            if let waiter = entry.waiter { waiter.resume(returning: .done(result)) } else { own = result }
        }
        passLead()
        if let after, case .success = outcome { await after(batch.map(\.job)) }
        return own
    }

    /// The first waiting frame's submitter leads next (or nobody runs).
    private func passLead() {
        if pending.isEmpty {
            running = false
        } else {
            let next = pending[0].waiter
            pending[0].waiter = nil
            next?.resume(returning: .lead)
        }
    }
}
