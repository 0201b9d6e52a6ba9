import Foundation
import HeartworkStore
import Logging
import ServiceLifecycle

/// Deletes expired sessions and sign-in failures older than the throttle window, once at
/// start and then every `interval`, until the service group shuts down.
struct SessionSweeper: Service {
    let store: HeartworkStore
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let now = Date()
                    try await store.sessions.deleteExpired(before: now)
                    try await store.loginThrottle.deleteFailures(before: now.addingTimeInterval(-AccountService.throttle.window))
                } catch {
                    logger.warning("session sweep failed", metadata: ["error": "\(error)"])
                }
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
            }
        }
    }
}
