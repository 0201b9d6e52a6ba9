import Foundation

/// Failed sign-ins, for throttling by account and by address.
public protocol LoginThrottleRepository: Sendable {
    func recordFailure(scope: String, at: Date) async throws
    func failures(scope: String, since: Date) async throws -> Int
    func clear(scope: String) async throws
    /// Forgets failures older than `date` (they no longer count).
    func deleteFailures(before date: Date) async throws
}
