import Foundation

/// What is known of a throttling scope's failures within the window asked about.
public struct ThrottleHistory: Sendable, Hashable {
    public var failures: Int
    public var latest: Date?

    public init(failures: Int = 0, latest: Date? = nil) {
        self.failures = failures
        self.latest = latest
    }
}

/// Sign-in attempts, for throttling by scope (an account at an address, an address).
///
/// An attempt is counted before its password is checked: `begin` reads each scope's failures
/// and records the attempt as a failure in one transaction, serialised per scope, so attempts
/// racing each other all see the ones before them. A correct password then `forgive`s it.
public protocol LoginThrottleRepository: Sendable {
    /// Counts each scope's failures since `since`, lets `admit` refuse (by throwing), and
    /// otherwise records this attempt as a failure in every scope.
    func begin(
        attemptID: String, scopes: [String], since: Date, at: Date,
        admit: @escaping @Sendable ([String: ThrottleHistory]) throws -> Void
    ) async throws
    /// The attempt succeeded: forgets it, and every failure recorded in `scope`.
    func forgive(attemptID: String, clearing scope: String) async throws
    /// Failures recorded in `scope` since `since`.
    func history(scope: String, since: Date) async throws -> ThrottleHistory
    /// Forgets failures older than `date` (they no longer count).
    func deleteFailures(before date: Date) async throws
}
