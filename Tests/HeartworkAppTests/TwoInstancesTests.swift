import Foundation
import HeartworkCore
import HeartworkStore
import HeartworkTestSupport
import Testing

@testable import HeartworkApp

/// Two server instances on one PostgreSQL database: an edit on one is never undone by an
/// edit of other fields on the other, whatever each has cached.
@Suite("Two instances")
struct TwoInstancesTests {
    @Test(arguments: TestDatabase.all.filter { if case .postgres = $0 { true } else { false } })
    func editsOnDifferentInstancesBothStand(engine: TestDatabase) async throws {
        try await engine.withFreshLocation { location in
            let storeA = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            let storeB = try await HeartworkStore.open(location, logger: TestDatabase.logger)
            let a = try await HeartworkServices(store: storeA, settings: .init(passwordHashCost: 4), logger: TestDatabase.logger)
            let b = try await HeartworkServices(store: storeB, settings: .init(passwordHashCost: 4), logger: TestDatabase.logger)
            let user = try await a.accounts.register(Registration(username: "split", fullName: "Split Brain", email: "s@example.org", password: "12345678"))
            let (token, _) = try await a.accounts.openSession(for: user, kind: .api)
            // Both instances resolve (and cache) the session before the edits.
            #expect(try await a.authenticator.identity(token: token, via: .bearer)?.user.status == "")
            #expect(try await b.authenticator.identity(token: token, via: .bearer)?.user.status == "")
            var status = ProfileChanges()
            status.status = "edited on A"
            _ = try await a.profiles.update(userID: user.id, status)
            _ = try await b.profiles.updateSettings(userID: user.id, SettingsChanges(autoShareWorkouts: true, maxSharedWorkouts: 7))
            let seenByA = try await a.profiles.profile(userID: user.id)
            let seenByB = try await b.profiles.profile(userID: user.id)
            for profile in [seenByA, seenByB] {
                #expect(profile.user.status == "edited on A")
                #expect(profile.user.maxSharedWorkouts == 7 && profile.user.autoShareWorkouts)
            }
            try await storeA.shutdown()
            try await storeB.shutdown()
        }
    }
}
