import Testing

/// Two kinds of test that must not run at the same time on a 2-core machine, and the lock that
/// keeps them apart.
///
/// - `.keepsTime`: tests whose server keeps real time — a live match scores a reading lost when
///   it comes 3 match-seconds late. Any number of them run together.
/// - `.loadsTheMachine`: tests that load the machine on purpose — issue 40's floods: 170 chunks
///   at once, 60- and 530-request floods, 37 chunks racing a finish. Any number run together.
///
/// Why: Swift Testing runs the whole run in one process, whose cooperative pool has one thread
/// per core. On CI's 2 cores (2026-12-02, stop 49) the issue-40 floods ran beside four live
/// matches and a reading sent on time was handled 1.2 s (3 match-seconds of 400 ms) later:
/// four match tests each lost one second. The two kinds now take turns, first come first
/// served by batches (a waiting kind is never overtaken, so neither starves); every other test
/// runs beside both. A test waiting its turn is suspended, not holding a thread (it does hold one
/// of Swift Testing's parallel places, so the kinds are kept to the few tests that need them).
public enum MachineShare: Sendable, Equatable {
    case keepingTime
    case loadingTheMachine

    /// Who holds the machine now, for a test to check that its trait took effect.
    public static func holder() async -> MachineShare? { await Turns.shared.holder }

    /// Runs `body` once it is this kind's turn; cancellation while waiting throws.
    public func during<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await Turns.shared.acquire(self)
        do {
            let value = try await body()
            await Turns.shared.release(self)
            return value
        } catch {
            await Turns.shared.release(self)
            throw error
        }
    }
}

/// A lock with two kinds of holder, any number of one kind at once. Fair by batches: while one
/// kind holds it, more of that kind come in only if none of the other is waiting; when the last
/// holder leaves, every waiter of the kind that has waited longest comes in at once (one batch
/// each way, not a turn per test: the tests are started as they come, interleaved).
actor Turns {
    static let shared = Turns()

    private(set) var holder: MachineShare?
    private var holders = 0
    private var waiting: [(id: Int, kind: MachineShare, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID = 0

    func acquire(_ kind: MachineShare) async throws {
        if holder == nil ? waiting.isEmpty : holder == kind && !waiting.contains(where: { $0.kind != kind }) {
            holder = kind
            holders += 1
            return
        }
        let id = nextID
        nextID += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiting.append((id, kind, continuation))
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    func release(_ kind: MachineShare) {
        holders -= 1
        if holders == 0 { holder = nil }
        grant()
    }

    private func cancel(_ id: Int) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: CancellationError())
        grant()
    }

    /// With the lock free, lets in every waiter of the kind at the head of the line.
    private func grant() {
        guard holder == nil, let kind = waiting.first?.kind else { return }
        let admitted = waiting.filter { $0.kind == kind }
        waiting.removeAll { $0.kind == kind }
        holder = kind
        holders += admitted.count
        for waiter in admitted { waiter.continuation.resume() }
    }
}

/// The trait form: `@Suite(..., .keepsTime)` or `.loadsTheMachine`; each test case takes its
/// turn (the suite itself does not, so its tests wait one by one, not all for the slowest).
public struct MachineShareTrait: SuiteTrait, TestTrait, TestScoping {
    public let kind: MachineShare
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> MachineShareTrait? {
        test.isSuite || testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await kind.during(function)
    }
}

extension Trait where Self == MachineShareTrait {
    /// The test's server keeps real time (live matches): never beside `.loadsTheMachine`.
    public static var keepsTime: Self { MachineShareTrait(kind: .keepingTime) }
    /// The test loads the machine on purpose (floods, huge inputs): never beside `.keepsTime`.
    public static var loadsTheMachine: Self { MachineShareTrait(kind: .loadingTheMachine) }
}
