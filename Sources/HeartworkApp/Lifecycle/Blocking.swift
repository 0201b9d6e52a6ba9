import Foundation

/// Work that blocks its thread (a DNS lookup, a process, a file read) run on a thread of its
/// own, so the few threads of Swift's cooperative pool — which the whole server shares —
/// never wait on it.
public enum Blocking {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.name = "heartwork-blocking"
            thread.start()
        }
    }

    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
            thread.name = "heartwork-blocking"
            thread.start()
        }
    }
}
