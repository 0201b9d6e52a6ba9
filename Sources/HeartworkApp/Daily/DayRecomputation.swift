import Foundation
import HeartworkCore
import HeartworkStore

/// What a change to a user's data asks of daily health: the recomputation of the user's days
/// from a day on (later days depend on earlier ones: the 6-month maximum, the baselines, the
/// load). Workouts and daily health both depend on this, not on each other.
public protocol DayRecomputation: Sendable {
    func queueRecompute(userID: String, from: CalendarDay, now: Date) async throws
}

/// Daily health's recomputation as a job on the queue: one `RecomputeJob` a user, queued
/// once however often it is asked for before it runs.
struct DayRecomputeQueue: DayRecomputation {
    let store: HeartworkStore

    func queueRecompute(userID: String, from: CalendarDay, now: Date) async throws {
        let job = DailyHealthService.RecomputeJob(userID: userID, from: from.description)
        _ = try await store.jobs.enqueueUnlessQueued(Jobs.record(job, userID: userID, runAfter: now, now: now))
    }
}
