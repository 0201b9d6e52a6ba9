import Foundation
import HeartworkCore
import HeartworkStore

/// What users are told: stored (listed with an unread count, marked read) and passed at
/// once to their open pages, on this instance and, through the live bus, on the others.
/// Telling never fails the action that caused it: a notification that cannot be stored is
/// dropped (the action itself is what matters).
public struct InboxService: Sendable {
    let store: HeartworkStore
    let hub: InboxHub
    let bus: LiveBus
    /// Web Push to the user's browsers, for the kinds that are pushed (`PushService.tags`).
    var push: PushService? = nil
    public static let pageLimit = 100

    public func tell(_ userID: String, kind: String, text: String, link: String?, actorID: String?, now: Date = Date()) async {
        let notice = InboxRecord(userID: userID, kind: kind, text: text, link: link, actorID: actorID, createdAt: now)
        do {
            try await store.inbox.add(notice)
        } catch {
            return
        }
        await bus.publish(notice)
        await push?.notify(userID, kind: kind, text: text, link: link, now: now)
    }

    /// A finished match, told to both players (and to the owner of a workout raced as a ghost).
    func matchResult(_ match: MatchRecord, now: Date) async {
        guard let result = match.result else { return }
        let challenger = try? await store.users.find(id: match.challengerID)
        let link = "/matches/\(match.id)"
        func outcome(for side: String) -> String {
            let (mine, theirs) = side == "a" ? (result.scoreA, result.scoreB) : (result.scoreB, result.scoreA)
            let forfeit = result.forfeitedBy.map { $0 == side ? " (you forfeited)" : ($0 == "both" ? " (both fell silent)" : " (your opponent forfeited)") } ?? ""
            switch result.winner {
            case side?: return "You won \(mine)–\(theirs)\(forfeit)"
            case nil: return "A draw, \(mine)–\(theirs)\(forfeit)"
            default: return "You lost \(mine)–\(theirs)\(forfeit)"
            }
        }
        switch match.kind {
        case .live:
            let opponent = try? await store.users.find(id: match.opponentID ?? "")
            await tell(
                match.challengerID, kind: "match-result",
                text: "\(match.practice ? "Practice match" : "Match") against \(opponent?.fullName ?? "your friend"): \(outcome(for: "a"))",
                link: link, actorID: match.opponentID, now: now)
            if let opponentID = match.opponentID {
                await tell(
                    opponentID, kind: "match-result",
                    text: "\(match.practice ? "Practice match" : "Match") against \(challenger?.fullName ?? "your friend"): \(outcome(for: "b"))",
                    link: link, actorID: match.challengerID, now: now)
            }
        case .ghost:
            await tell(match.challengerID, kind: "match-result", text: "Ghost race (practice): \(outcome(for: "a"))", link: link, actorID: nil, now: now)
            if let owner = match.ghostOwnerID, owner != match.challengerID {
                let verdict = result.winner == "b" ? "your workout won" : (result.winner == nil ? "a draw" : "they beat it")
                await tell(
                    owner, kind: "ghost-raced",
                    text: "\(challenger?.fullName ?? "A friend") raced your workout as a ghost: \(verdict), \(result.scoreA)–\(result.scoreB)",
                    link: link, actorID: match.challengerID, now: now)
            }
        }
    }

    public func list(for user: UserRecord, page: Page) async throws -> (notifications: [InboxRecord], unread: Int) {
        let limit = min(page.limit, Self.pageLimit)
        return (try await store.inbox.list(userID: user.id, limit: limit, offset: page.offset), try await store.inbox.unreadCount(userID: user.id))
    }

    public func unreadCount(for user: UserRecord) async throws -> Int {
        try await store.inbox.unreadCount(userID: user.id)
    }

    /// Marks one notification read ("not found" unless it is the user's; one already read
    /// stays as it was), or all of them when `id` is nil. Returns the unread count after.
    public func markRead(_ id: String?, for user: UserRecord, now: Date = Date()) async throws -> Int {
        guard try await store.inbox.markRead(userID: user.id, id: id, at: now) != nil else { throw AppError.notFound("notification") }
        return try await store.inbox.unreadCount(userID: user.id)
    }

    public func watch(_ user: UserRecord) async -> (id: UUID, notices: AsyncStream<InboxRecord>) {
        await hub.subscribe(userID: user.id)
    }

    public func stopWatching(_ user: UserRecord, id: UUID) async {
        await hub.unsubscribe(userID: user.id, id: id)
    }
}

/// Open pages waiting for their user's notifications, in this process.
public actor InboxHub {
    private var watchers: [String: [UUID: AsyncStream<InboxRecord>.Continuation]] = [:]

    public init() {}

    func subscribe(userID: String) -> (id: UUID, notices: AsyncStream<InboxRecord>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<InboxRecord>.makeStream(bufferingPolicy: .bufferingNewest(64))
        watchers[userID, default: [:]][id] = continuation
        return (id, stream)
    }

    func unsubscribe(userID: String, id: UUID) {
        watchers[userID]?.removeValue(forKey: id)?.finish()
        if watchers[userID]?.isEmpty == true { watchers[userID] = nil }
    }

    func publish(_ notice: InboxRecord) {
        guard let watching = watchers[notice.userID] else { return }
        for continuation in watching.values { continuation.yield(notice) }
    }
}
