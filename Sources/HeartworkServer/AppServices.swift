import Foundation
import HeartworkStore
import Logging

/// Everything route handlers need, built once per application.
public final class AppServices: Sendable {
    public let configuration: ServerConfiguration
    public let store: HeartworkStore
    public let metrics: ServerMetrics
    let accounts: AccountService
    let friends: FriendService
    let workoutService: WorkoutService
    let pages: PageRenderer
    let sessionCache: SessionCache
    let logger: Logger

    init(configuration: ServerConfiguration, store: HeartworkStore, logger: Logger) async throws {
        self.configuration = configuration
        self.store = store
        self.logger = logger
        metrics = ServerMetrics()
        sessionCache = SessionCache()
        let hasher = PasswordHasher(cost: configuration.passwordHashCost)
        let decoy = try await hasher.hash(SessionToken.generate())
        accounts = AccountService(
            store: store, hasher: hasher, sessionLifetime: configuration.sessionLifetime, metrics: metrics,
            decoyHash: decoy, sessionCache: sessionCache)
        friends = FriendService(store: store)
        workoutService = WorkoutService(store: store)
        pages = try await PageRenderer()
    }

    /// Saves a changed user and makes every cached session of theirs reload it.
    func save(_ user: UserRecord) async throws {
        try await store.users.update(user)
        sessionCache.forget(userID: user.id)
    }

    /// The profile with its latest measurements.
    func profile(of user: UserRecord) async throws -> ProfileResponse {
        let weight = try await store.users.weights(userID: user.id).last?.value
        let resting = try await store.users.restingHeartRates(userID: user.id).last?.value
        return ProfileResponse(user, latestWeight: weight, latestResting: resting)
    }

    /// Yourself or a friend.
    func canSee(_ userID: String, from identity: Identity) async throws -> Bool {
        if userID == identity.user.id { return true }
        return try await store.friends.areFriends(identity.user.id, userID)
    }

    /// A workout the caller owns, or one a friend of theirs shares; otherwise 404 (never 403:
    /// the answer must not reveal that the workout exists).
    func visibleWorkout(_ id: String, to identity: Identity) async throws -> WorkoutRecord {
        guard let workout = try await store.workouts.find(id: id) else { throw APIError.notFound("workout") }
        if workout.userID == identity.user.id { return workout }
        if workout.shared, try await store.friends.areFriends(identity.user.id, workout.userID) { return workout }
        throw APIError.notFound("workout")
    }
}
