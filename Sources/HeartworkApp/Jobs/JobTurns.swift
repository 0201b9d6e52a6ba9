import NIOCore

/// The runner's workers as turns (issue 40: three users' long Gadgetbridge imports held every
/// worker, and a fourth user's ordinary import finished after 514 s). At most `workers` jobs
/// run at once; the others wait in one line, first come first served, whatever their kind. A
/// job that has run for `slice` hands its turn to the first in line at its next checkpoint
/// (`JobContext.checkpoint`) and joins the end of the line, so work of every kind and every
/// user shares the workers round-robin: a job that arrives waits at most about one slice for
/// its first turn.
actor JobTurns {
    nonisolated let workers: Int
    nonisolated let slice: Duration
    private var running = 0
    private var line = CircularBuffer<(id: Int, continuation: CheckedContinuation<Bool, Never>)>()
    private var nextID = 0

    init(workers: Int, slice: Duration) {
        self.workers = max(1, workers)
        self.slice = slice
    }

    /// Someone waits for a turn.
    var othersWait: Bool { !line.isEmpty }

    /// Waits for a turn; false when the task was cancelled while waiting (no turn is held then).
    func acquire() async -> Bool {
        if running < workers && line.isEmpty {
            running += 1
            return true
        }
        let id = nextID
        nextID += 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: false)
                } else {
                    line.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.leave(id) }
        }
    }

    /// Gives the turn back: to the first in line, or to the pool.
    func release() {
        if let first = line.popFirst() {
            first.continuation.resume(returning: true)
        } else {
            running -= 1
        }
    }

    /// Gives the turn to the first in line and waits at the end of the line for the next;
    /// false when cancelled while waiting (no turn is held then).
    func handOver() async -> Bool {
        guard let first = line.popFirst() else { return true }
        // The turn passes to them: as many turns are held as before.
        first.continuation.resume(returning: true)
        return await acquire()
    }

    private func leave(_ id: Int) {
        guard let index = line.firstIndex(where: { $0.id == id }) else { return }
        line.remove(at: index).continuation.resume(returning: false)
    }
}
