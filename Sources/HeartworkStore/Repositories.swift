import Foundation

/// Accounts, profiles and their measurement histories.
public protocol UserRepository: Sendable {
    /// Fails with `StoreError.conflict` when the username is taken, in any letter case.
    func create(_ user: UserRecord) async throws
    func find(id: String) async throws -> UserRecord?
    func find(username: String) async throws -> UserRecord?
    /// Users whose username or full name contains `text`, case-insensitively, by username.
    func search(_ text: String, excluding userID: String, page: Page) async throws -> [UserRecord]
    func update(_ user: UserRecord) async throws
    func updatePasswordHash(userID: String, passwordHash: String) async throws
    func setPhoto(userID: String, contentType: String, data: Data) async throws
    func photo(userID: String) async throws -> (contentType: String, data: Data)?
    func addWeight(userID: String, _ entry: MeasurementEntry) async throws
    func weights(userID: String) async throws -> [MeasurementEntry]
    func addRestingHeartRate(userID: String, _ entry: MeasurementEntry) async throws
    func restingHeartRates(userID: String) async throws -> [MeasurementEntry]
}

/// Login sessions (API tokens and web cookies), stored by token hash.
public protocol SessionRepository: Sendable {
    func create(_ session: SessionRecord) async throws
    func find(tokenHash: String) async throws -> SessionRecord?
    /// The session with its user in one query: every authenticated request asks this.
    func findWithUser(tokenHash: String) async throws -> (session: SessionRecord, user: UserRecord)?
    func revoke(tokenHash: String, at: Date) async throws
    /// Revokes every session of the user except `keeping`.
    func revokeAll(userID: String, keeping tokenHash: String?, at: Date) async throws
    func deleteExpired(before: Date) async throws
}

/// Failed logins, for throttling by account and by address.
public protocol LoginThrottleRepository: Sendable {
    func recordFailure(scope: String, at: Date) async throws
    func failures(scope: String, since: Date) async throws -> Int
    func clear(scope: String) async throws
}

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

/// Workouts with their streams.
public protocol WorkoutRepository: Sendable {
    /// Stores the workout and its streams in one transaction; when it is shared and the
    /// owner's cap is exceeded, the oldest shared workouts are unshared (never deleted).
    func insert(_ workout: WorkoutRecord, streams: WorkoutStreams, maxShared: Int) async throws
    func list(userID: String, from: Date?, to: Date?, sharedOnly: Bool, page: Page) async throws -> [WorkoutRecord]
    func find(id: String) async throws -> WorkoutRecord?
    func streams(workoutID: String) async throws -> WorkoutStreams?
    /// Deletes when `userID` owns it; returns whether anything was deleted.
    func delete(id: String, userID: String) async throws -> Bool
    /// Shares or unshares when `userID` owns it; returns the updated workout.
    func setShared(id: String, userID: String, shared: Bool, maxShared: Int, at: Date) async throws -> WorkoutRecord?
    func count(userID: String) async throws -> Int
}
