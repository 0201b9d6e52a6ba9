import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkStore
import HeartworkTestSupport
import Hummingbird
import Testing

@testable import HeartworkServer

/// The fast writer must produce the same JSON value as JSONEncoder for every response it serves.
@Suite("Fast JSON writer")
struct JSONWriterTests {
    private func parsed(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    @Test func workoutResponsesMatchTheirEncodableForm() throws {
        var random = SplitMix64(seed: 42)
        for index in 0..<200 {
            let hasZones = Bool.random(using: &random)
            let record = WorkoutRecord(
                userID: "user-\"\\\(index)\n", sport: Sport.allCases.randomElement(using: &random)!,
                startedAt: Date(timeIntervalSince1970: Double(Int.random(in: 1_600_000_000...1_800_000_000, using: &random))),
                indoor: Bool.random(using: &random),
                metrics: WorkoutMetrics(
                    durationSeconds: Int.random(in: 1...86_400, using: &random),
                    averageHeartRate: Bool.random(using: &random) ? Double.random(in: 60...200, using: &random) : nil,
                    minimumHeartRate: 55, maximumHeartRate: Bool.random(using: &random) ? 190.25 : nil,
                    secondsInZones: hasZones ? (0..<5).map { _ in Int.random(in: 0...999, using: &random) } : nil,
                    kilocalories: Double.random(in: 0...2000, using: &random), distanceMeters: Bool.random(using: &random) ? 1234.5678 : nil),
                profile: ProfileSnapshot(
                    ageYears: 30, restingHeartRate: 55.5, maximumHeartRate: hasZones ? 187.3 : nil, maximumHeartRateSource: .gellish, weightKilograms: nil, sex: .female),
                rrCount: index, trackCount: index * 2, shared: Bool.random(using: &random))
            let track = try (0..<3).map {
                try GeoPoint(latitudeDegrees: 48.2 + Double($0) * 1e-5, longitudeDegrees: -16.37, elevationMeters: $0 == 1 ? nil : 180.5, timeSeconds: Double($0) * 1.5)
            }
            let visible = VisibleWorkout(record: record, viewerIsOwner: index % 2 == 0)
            let detail = WorkoutDetailResponse(visible, streams: WorkoutStreams(heartRate: [120, nil, 1], rrIntervalsMilliseconds: [781.25, 1e-3], track: track))
            let list = WorkoutListResponse(workouts: [WorkoutSummaryResponse(record, viewerIsOwner: true), detail.summary], limit: 20, offset: index)
            let encoder = APIJSON.encoder
            #expect(try parsed(Data(list.jsonBytes())) == parsed(try encoder.encode(list)))
            #expect(try parsed(Data(detail.jsonBytes())) == parsed(try encoder.encode(detail)))
        }
    }
}
