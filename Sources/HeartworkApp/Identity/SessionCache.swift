import Foundation
import HeartworkStore
import Synchronization

/// Recently resolved sessions, so most authenticated requests need no database read.
///
/// An entry lives 10 seconds. This instance forgets a session at once when it signs out,
/// changes the password or edits the user, and tells the others sharing a PostgreSQL
/// database through the live bus, which forget it too (`forgetHere`).
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

    enum Forgotten: Sendable {
        case session(tokenHash: String)
        case user(id: String)
    }

    private let announce = Mutex<(@Sendable (Forgotten) -> Void)?>(nil)

    /// Who else must forget what this instance forgets (the live bus).
    func announceForgetting(to listener: @escaping @Sendable (Forgotten) -> Void) {
        announce.withLock { $0 = listener }
    }

    func forget(tokenHash: String) {
        forgetHere(.session(tokenHash: tokenHash))
        announce.withLock { $0 }?(.session(tokenHash: tokenHash))
    }

    /// After a password change or a profile edit: every session of the user reloads.
    func forget(userID: String) {
        forgetHere(.user(id: userID))
        announce.withLock { $0 }?(.user(id: userID))
    }

    /// Forgets in this instance only (what another instance announced).
    func forgetHere(_ forgotten: Forgotten) {
        switch forgotten {
        case .session(let tokenHash):
            _ = entries.withLock { $0.removeValue(forKey: tokenHash) }
        case .user(let userID):
            entries.withLock { entries in
                entries = entries.filter { $0.value.user.id != userID }
            }
        }
    }
}
