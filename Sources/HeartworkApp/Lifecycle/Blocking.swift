import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Work that blocks its thread (a DNS lookup, a process, a file read, the parse of a large
/// body) run on a thread of its own, so the few threads of Swift's cooperative pool — which
/// the whole server shares — never wait on it.
///
/// The thread runs at a lower priority (nice 10, Linux's per-thread nice): when the cores are
/// busy, the event loops and the cooperative pool — which answer everyone's requests — go
/// first, and the large parse takes what is left. (Issue 40's probe, debug build, two gateways
/// each sending two 1 MB frames of 65,000 keys: the victims' p99 was 116 ms at the default
/// priority on two cores.)
public enum Blocking {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                lowerPriority()
                continuation.resume(returning: body())
            }
            thread.name = "heartwork-blocking"
            thread.start()
        }
    }

    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                lowerPriority()
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
            thread.name = "heartwork-blocking"
            thread.start()
        }
    }

    /// Nice 10 for the calling thread only (on Linux a thread's nice value is its own; its id
    /// is read from /proc/thread-self, "PID/task/TID", as Glibc's gettid is not imported).
    private static func lowerPriority() {
        #if canImport(Glibc)
        var link = [CChar](repeating: 0, count: 64)
        guard readlink("/proc/thread-self", &link, link.count - 1) > 0,
            let tid = String(cString: link).split(separator: "/").last.flatMap({ id_t($0) })
        else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), tid, 10)
        #endif
    }
}
