import Foundation

/// The friend graph: requests and symmetric friendships.
public protocol FriendRepository: Sendable {
    func createRequest(from: String, to: String, at: Date) async throws -> FriendRequestRecord
    func pendingRequest(from: String, to: String) async throws -> FriendRequestRecord?
    func request(id: String) async throws -> FriendRequestRecord?
    func incoming(userID: String) async throws -> [FriendRequestRecord]
    func outgoing(userID: String) async throws -> [FriendRequestRecord]
    /// Marks the request answered; accepting also makes both users friends, atomically.
    func answer(requestID: String, accept: Bool, at: Date) async throws
    func areFriends(_ a: String, _ b: String) async throws -> Bool
    func friends(of userID: String) async throws -> [UserRecord]
    /// Removes the friendship in both directions.
    func remove(_ a: String, _ b: String) async throws
}
