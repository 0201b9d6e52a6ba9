import Foundation
import HeartworkCore
import Synchronization

/// Workout lists served from memory until the owner's workouts change.
///
/// Only for SQLite, where one server process owns the file, so every write passes through
/// here and the cache stays exact. (Several PostgreSQL instances would each miss the others'
/// writes, so there the store reads the database every time.) Each user has a version that
/// every write bumps after it commits; a list read stores its result only if the version did
/// not move while it ran, so a read racing a write never caches the old rows.
final class CachingWorkoutRepository: WorkoutRepository {
    private struct ListKey: Hashable {
        let from: Date?, to: Date?, sharedOnly: Bool, limit: Int, offset: Int
    }

    private struct UserLists {
        var version = 0
        var lists: [ListKey: [WorkoutRecord]] = [:]
    }

    static let maximumUsers = 5_000
    private let base: any WorkoutRepository
    private let users = Mutex<[String: UserLists]>([:])

    init(base: any WorkoutRepository) {
        self.base = base
    }

    func list(userID: String, from: Date?, to: Date?, sharedOnly: Bool, page: Page) async throws -> [WorkoutRecord] {
        let key = ListKey(from: from, to: to, sharedOnly: sharedOnly, limit: page.limit, offset: page.offset)
        let (cached, version) = users.withLock { users in (users[userID]?.lists[key], users[userID]?.version ?? 0) }
        if let cached { return cached }
        let fresh = try await base.list(userID: userID, from: from, to: to, sharedOnly: sharedOnly, page: page)
        users.withLock { users in
            guard (users[userID]?.version ?? 0) == version else { return }
            if users[userID] == nil && users.count >= Self.maximumUsers { users.removeAll(keepingCapacity: true) }
            users[userID, default: UserLists()].lists[key] = fresh
        }
        return fresh
    }

    func insert(_ workout: WorkoutRecord, streams: WorkoutStreams) async throws {
        defer { changed(workout.userID) }
        try await base.insert(workout, streams: streams)
    }

    func replaceShorter(id: String, with workout: WorkoutRecord, streams: WorkoutStreams) async throws -> Bool {
        defer { changed(workout.userID) }
        return try await base.replaceShorter(id: id, with: workout, streams: streams)
    }

    func delete(id: String, userID: String) async throws -> Bool {
        defer { changed(userID) }
        return try await base.delete(id: id, userID: userID)
    }

    func setShared(id: String, userID: String, shared: Bool, at date: Date) async throws -> WorkoutRecord? {
        defer { changed(userID) }
        return try await base.setShared(id: id, userID: userID, shared: shared, at: date)
    }

    func find(id: String) async throws -> WorkoutRecord? { try await base.find(id: id) }
    func streams(workoutID: String) async throws -> WorkoutStreams? { try await base.streams(workoutID: workoutID) }
    func count(userID: String) async throws -> Int { try await base.count(userID: userID) }
    func sharedByFriends(of userID: String, limit: Int) async throws -> [WorkoutRecord] {
        try await base.sharedByFriends(of: userID, limit: limit)
    }
    func withIncompleteSnapshot(userID: String, fillable: SnapshotFields, limit: Int) async throws -> [WorkoutRecord] {
        try await base.withIncompleteSnapshot(userID: userID, fillable: fillable, limit: limit)
    }

    func updateDerived(id: String, userID: String, profile: ProfileSnapshot, metrics: WorkoutMetrics) async throws {
        defer { changed(userID) }
        try await base.updateDerived(id: id, userID: userID, profile: profile, metrics: metrics)
    }

    func forget(userID: String) {
        _ = users.withLock { $0.removeValue(forKey: userID) }
    }

    private func changed(_ userID: String) {
        users.withLock { users in
            let version = (users[userID]?.version ?? 0) + 1
            users[userID] = UserLists(version: version, lists: [:])
        }
    }
}
