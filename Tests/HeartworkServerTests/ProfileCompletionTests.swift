import Foundation
import HeartworkTestSupport
import Testing

/// Issue 8, finding 10: a workout uploaded before the profile could give zones gets them when
/// the profile is completed; a workout that already had zones keeps its snapshot.
@Suite("Zones follow the completed profile")
struct ProfileCompletionTests {
    static func summary(_ server: ServerHarness, _ id: String, _ token: String) async throws -> [String: Any] {
        try #require(try await server.request(.get, "/api/workouts/\(id)", token: token).json["summary"] as? [String: Any])
    }

    @Test(arguments: TestDatabase.all)
    func anEarlierWorkoutGetsZonesAndAKeptSnapshotStaysAsItWas(_ engine: TestDatabase) async throws {
        try await ServerHarness.run(engine) { server in
            let (_, token) = try await server.signUp("latecomer")
            let early = try await server.upload(token, ServerHarness.workoutJSON(seconds: 600, bpm: 150))
            let before = try await Self.summary(server, early, token)
            #expect(before["secondsInZones"] == nil || before["secondsInZones"] is NSNull, "no zones without age and resting heart rate")
            #expect(before["kilocalories"] == nil || before["kilocalories"] is NSNull)

            // Birth date, sex, resting heart rate and weight (dated before the workout).
            try await server.completeProfile(token)
            // The profile answers at once; earlier workouts are completed by a queued job.
            #expect(try await server.store.jobs.counts()[.queued] == 1, "one job however many edits")
            await server.services.jobs.runUntilIdle()
            let after = try await Self.summary(server, early, token)
            let zones = try #require(after["secondsInZones"] as? [String: Int])
            #expect(zones.values.reduce(0, +) == 600)
            // Same figures as a workout uploaded with the profile complete (WorkoutAPITests:
            // age 34, resting 65 → moderate from 148.4 bpm, high from 160.3).
            #expect(zones["moderate"] == 599 && zones["none"] == 1)
            let profile = try #require(after["profile"] as? [String: Any])
            #expect(profile["ageYears"] as? Int == 34 && profile["restingHeartRate"] as? Double == 65)
            // Karvonen at 60, 70, 80, 90 and 100 % of the reserve: 65 + 0.6 × (184.12 − 65) = 136.5 first.
            let thresholds = try #require(profile["zoneThresholds"] as? [Double])
            #expect(thresholds.count == 5 && abs(thresholds[0] - 136.5) < 0.1)
            #expect((after["kilocalories"] as? Double ?? 0) > 100, "energy appears once weight, age and sex are known")

            // A later change of resting heart rate does not rewrite the workout's snapshot.
            try await server.request(.post, "/api/me/resting-heart-rates", token: token, json: ["bpm": 45, "measuredAt": "2026-11-21T00:00:00Z"])
            await server.services.jobs.runUntilIdle()
            let kept = try await Self.summary(server, early, token)
            #expect((kept["profile"] as? [String: Any])?["restingHeartRate"] as? Double == 65)
            #expect(kept["secondsInZones"] as? [String: Int] == zones)
        }
    }
}
