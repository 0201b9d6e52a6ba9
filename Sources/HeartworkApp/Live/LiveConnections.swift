import Foundation
import HeartworkFormats
import Synchronization

/// The open WebSockets of this instance and the credential each came with, so a revoked
/// credential closes its sockets at once: a deleted gateway's, a signed-out session's, every
/// other session's after a password change, everything of a deleted account. Revocations
/// reach the other instances over the live bus (`LiveBus.revoke`); the store refuses a revoked
/// gateway's readings on its own, so nothing is stored after a revocation even before the
/// socket has closed.
public final class LiveConnections: Sendable {
    /// What a socket came with.
    public enum Credential: Sendable, Hashable {
        case gateway(id: String)
        case session(tokenHash: String)
    }

    /// One open socket: `revoked` yields when its credential is withdrawn.
    public struct Connection: Sendable {
        public let id: UUID
        public let revoked: AsyncStream<Void>
    }

    private struct Entry {
        let userID: String
        let credential: Credential
        let signal: AsyncStream<Void>.Continuation
    }

    private let entries = Mutex<[UUID: Entry]>([:])

    public init() {}

    public func open(userID: String, credential: Credential) -> Connection {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        entries.withLock { $0[id] = Entry(userID: userID, credential: credential, signal: continuation) }
        return Connection(id: id, revoked: stream)
    }

    public func close(_ connection: Connection) {
        entries.withLock { $0.removeValue(forKey: connection.id) }?.signal.finish()
    }

    /// How many sockets are open (for tests and metrics).
    public var count: Int { entries.withLock { $0.count } }

    /// Signals every socket of this instance that `revocation` covers; returns how many.
    @discardableResult
    func revokeHere(_ revocation: Revocation) -> Int {
        let matching = entries.withLock { entries in
            entries.filter { _, entry in Self.covers(revocation, entry) }.map(\.value.signal)
        }
        for signal in matching {
            signal.yield()
            signal.finish()
        }
        return matching.count
    }

    private static func covers(_ revocation: Revocation, _ entry: Entry) -> Bool {
        switch (revocation, entry.credential) {
        case (.gateway(let id), .gateway(let gateway)): id == gateway
        case (.session(let hash), .session(let session)): hash == session
        case (.sessions(let userID, let except), .session(let session)): userID == entry.userID && session != except
        case (.user(let id), _): id == entry.userID
        default: false
        }
    }
}
