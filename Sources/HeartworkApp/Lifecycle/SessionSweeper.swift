import Foundation
import HeartworkStore
import Logging

/// Deletes expired sessions and sign-in failures older than the throttle window: one of the
/// job runner's schedules (once at start, then every `serve --sweep-interval`).
struct SessionSweeper {
    let store: HeartworkStore

    func sweep(now: Date) async throws {
        try await store.sessions.deleteExpired(before: now)
        try await store.loginThrottle.deleteFailures(before: now.addingTimeInterval(-AccountService.throttle.window))
    }
}
