import Foundation
import HeartworkApp
import HeartworkStore
import HeartworkTestSupport
import Testing

@Suite("serve --demo")
struct DemoDataTests {
    @Test func seedsALivingAccountOnceAndResetsItsPassword() async throws {
        try await ServerHarness.run { server in
            let login = try await DemoData.seed(into: server.services, weeks: 2)
            let token = try await server.logIn(login.username, password: login.password)
            let workouts = try await server.request(.get, "/api/workouts?limit=100", token: token)
            let list = try #require(workouts.json["workouts"] as? [[String: Any]])
            #expect(list.count == 6)
            #expect(list.allSatisfy { ($0["secondsInZones"] as? [String: Int]) != nil && ($0["kilocalories"] as? Double ?? 0) > 0 })
            #expect(list.contains { ($0["trackPointCount"] as? Int ?? 0) > 100 && ($0["distanceMeters"] as? Double ?? 0) > 1000 })
            #expect((try await server.request(.get, "/api/friends", token: token).json["friends"] as? [Any])?.count == 2)
            #expect((try await server.request(.get, "/api/friend-requests/incoming", token: token).json["requests"] as? [Any])?.count == 1)
            #expect((try await server.request(.get, "/api/me/weights", token: token).json["entries"] as? [Any])?.count == 3)
            // Three months of strength: three sessions a week, finished, and 1RMs that grew.
            let since = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-92 * 86_400))
            let sessions = try #require(try await server.request(.get, "/api/strength/sessions?limit=100&from=\(since)", token: token).json["sessions"] as? [[String: Any]])
            #expect(sessions.count >= 36 && sessions.allSatisfy { $0["finishedAt"] != nil })
            let oldest = try #require(sessions.last?["startedAt"] as? String).prefix(10)
            #expect(oldest <= ISO8601DateFormatter().string(from: Date().addingTimeInterval(-85 * 86_400)).prefix(10))
            let bench = try await server.request(.get, "/api/exercises/barbell-bench-press", token: token)
            let estimates = (bench.json["progress"] as? [[String: Any]])?.compactMap { $0["estimatedOneRepMax"] as? Double } ?? []
            #expect(estimates.count >= 10 && (estimates.last ?? 0) > (estimates.first ?? 0))
            // A second start keeps the data and prints a fresh password.
            let again = try await DemoData.seed(into: server.services, weeks: 2)
            #expect(again.password != login.password)
            _ = try await server.logIn(again.username, password: again.password)
            #expect(try await server.store.workouts.count(userID: try #require(try await server.store.users.find(username: "demo")).id) == 6)
        }
    }
}
