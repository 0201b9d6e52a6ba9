import Foundation

/// What a user is told happened: a friend request, a match invitation, a result… Stored, so
/// a user who was away sees it later; delivered live to their open pages as well.
public struct InboxRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    /// `friend-request`, `friend-accepted`, `match-invitation`, `match-declined`,
    /// `match-result`, `ghost-raced`, `account-deleted` (docs/PROTOCOL.md §10).
    public var kind: String
    public var text: String
    /// A path in the web app to open it (`/matches/{id}`).
    public var link: String?
    /// Who caused it, when it was someone.
    public var actorID: String?
    public var createdAt: Date
    public var readAt: Date?

    public init(
        id: String = UUID().uuidString.lowercased(), userID: String, kind: String, text: String, link: String? = nil,
        actorID: String? = nil, createdAt: Date, readAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.kind = kind
        self.text = text
        self.link = link
        self.actorID = actorID
        self.createdAt = createdAt
        self.readAt = readAt
    }
}
