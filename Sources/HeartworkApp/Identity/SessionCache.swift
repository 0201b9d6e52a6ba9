import Foundation
import HeartworkStore
import Synchronization

/// Recently resolved sessions, so most authenticated requests need no database read.
///
/// An entry lives 10 seconds. This instance forgets a session at once when it signs out,
/// changes the password or edits the user; another instance sharing a PostgreSQL database
/// may honour a revoked token or show a stale profile for at most those 10 seconds.
final class SessionCache: Sendable {
    static let lifetime: TimeInterval = 10
    static let capacity = 10_000

    private struct Entry {
        let session: SessionRecord
        let user: UserRecord
        let cachedAt: Date
    }

    private let entries = Mutex<[String: Entry]>([:])

    func lookup(tokenHash: String, now: Date) -> (session: SessionRecord, user: UserRecord)? {
        entries.withLock { entries in
            guard let entry = entries[tokenHash] else { return nil }
            guard now.timeIntervalSince(entry.cachedAt) < Self.lifetime else {
                entries[tokenHash] = nil
                return nil
            }
            return (entry.session, entry.user)
        }
    }

    func store(_ session: SessionRecord, _ user: UserRecord, now: Date) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[session.tokenHash] = Entry(session: session, user: user, cachedAt: now)
        }
    }

    func forget(tokenHash: String) {
        _ = entries.withLock { $0.removeValue(forKey: tokenHash) }
    }

    /// After a password change or a profile edit: every session of the user reloads.
    func forget(userID: String) {
        entries.withLock { entries in
            entries = entries.filter { $0.value.user.id != userID }
        }
    }
}
