import Foundation
import HeartworkCore
import HeartworkStore

/// `heartwork serve --demo`: a demo account with friends and several weeks of realistic
/// workouts (heart rate that follows warm-up, efforts and cool-down with a physiological lag,
/// RR intervals, GPS loops), so a newcomer sees a living app at once. Deterministic per seed.
public enum DemoData {
    public struct Login: Sendable {
        public let username: String
        public let password: String
    }

    struct Person {
        let username: String, fullName: String, status: String, birth: CalendarDay?, sex: Sex, height: Double
        let weight: Double, resting: Double
    }

    static let demo = Person(
        username: "demo", fullName: "Dana Demo", status: "Chasing the red line", birth: CalendarDay(year: 1994, month: 5, day: 12), sex: .female, height: 1.70, weight: 63,
        resting: 56)
    static let friends = [
        Person(
            username: "alex", fullName: "Alex Rivera", status: "Ready to challenge everyone", birth: CalendarDay(year: 1990, month: 2, day: 22), sex: .male, height: 1.82,
            weight: 78, resting: 52),
        Person(
            username: "sam", fullName: "Sam Okafor", status: "Base miles season", birth: CalendarDay(year: 1987, month: 9, day: 3), sex: .male, height: 1.76, weight: 72,
            resting: 60),
        Person(
            username: "jordan", fullName: "Jordan Lee", status: "Back from injury", birth: CalendarDay(year: 1998, month: 12, day: 30), sex: .female, height: 1.64, weight: 58,
            resting: 62),
    ]

    /// Creates the accounts once (later runs only reset the demo password) and returns the login.
    public static func seed(into services: HeartworkServices, now: Date = Date(), weeks: Int = 6) async throws -> Login {
        let store = services.store
        let password = "demo-" + SessionToken.generate().dropFirst(3).prefix(10)
        if let existing = try await store.users.find(username: demo.username) {
            try await services.accounts.resetPassword(userID: existing.id, to: String(password))
            return Login(username: demo.username, password: String(password))
        }
        var random = SplitMix64(seed: 20_261_121)
        let me = try await create(demo, password: String(password), services: services, now: now, weeks: weeks, random: &random)
        var friendRecords = [UserRecord]()
        for friend in friends {
            friendRecords.append(try await create(friend, password: SessionToken.generate(), services: services, now: now, weeks: weeks, random: &random))
        }
        for friend in friendRecords.prefix(2) {
            let request = try await store.friends.createRequest(from: friend.id, to: me.id, at: now.addingTimeInterval(-20 * 86_400))
            try await store.friends.answer(requestID: request.id, accept: true, at: now.addingTimeInterval(-19 * 86_400))
        }
        if let last = friendRecords.last {
            _ = try await store.friends.createRequest(from: last.id, to: me.id, at: now.addingTimeInterval(-3600))
        }
        try await DemoStrength.seed(services, user: me, now: now, random: &random)
        try await DemoHealth.seed(services, user: me, now: now, random: &random)
        return Login(username: demo.username, password: String(password))
    }

    private static func create(_ person: Person, password: String, services: HeartworkServices, now: Date, weeks: Int, random: inout SplitMix64) async throws -> UserRecord {
        let store = services.store
        var user = UserRecord(
            username: person.username, fullName: person.fullName, email: "\(person.username)@demo.heartwork.invalid",
            passwordHash: try await services.accounts.hasher.hash(password), status: person.status, dateOfBirth: person.birth,
            sex: person.sex, heightMeters: person.height, autoShareWorkouts: true, maxSharedWorkouts: 20,
            createdAt: now.addingTimeInterval(-Double(weeks * 7 + 1) * 86_400))
        try await store.users.create(user)
        user = try await store.users.find(id: user.id) ?? user
        for week in 0...weeks {
            let day = now.addingTimeInterval(-Double((weeks - week) * 7) * 86_400)
            let weight = person.weight + 0.8 - 0.15 * Double(week) + Double.random(in: -0.3...0.3, using: &random)
            try await store.measurements.add(
                userID: user.id,
                MeasurementRecord(
                    kind: .weight, measuredAt: day.addingTimeInterval(-6 * 86_400), value: (weight * 10).rounded() / 10))
            try await store.measurements.add(
                userID: user.id,
                MeasurementRecord(
                    kind: .restingHeartRate, measuredAt: day.addingTimeInterval(-6 * 86_400),
                    value: (person.resting + 2 - Double(week) * 0.3 + Double.random(in: -1...1, using: &random)).rounded()))
        }
        let service = services.workouts
        for week in 0..<weeks {
            for slot in 0..<3 {
                let daysAgo = Double((weeks - week - 1) * 7 + [5, 3, 1][slot])
                let start = now.addingTimeInterval(-daysAgo * 86_400 - 3600 * Double(Int.random(in: 6...19, using: &random)))
                let indoor = slot == 1 && Bool.random(using: &random)
                let minutes = [35, 50, 70][slot] + Int.random(in: -5...5, using: &random)
                let streams = workoutStreams(minutes: minutes, resting: person.resting, intensity: [0.75, 0.9, 0.68][slot], indoor: indoor, random: &random)
                let workout = NewWorkout(
                    sport: slot == 2 && person.username == "sam" ? .cycling : .running, startTime: start, indoor: indoor,
                    heartRate: streams.heartRate, rrIntervalsMilliseconds: streams.rrIntervalsMilliseconds,
                    track: streams.track.map {
                        NewWorkout.TrackPoint(
                            latitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees,
                            elevationMeters: $0.elevationMeters, timeSeconds: $0.timeSeconds ?? 0)
                    },
                    distanceMeters: indoor ? Double(minutes) * 60 * 2.8 : nil)
                _ = try await service.record(workout, for: user, now: start.addingTimeInterval(Double(minutes) * 60))
            }
        }
        return user
    }

    /// Heart rate that chases a target (warm-up, steady or interval efforts, cool-down) with a
    /// 25-second lag, plus beat noise; RR intervals from it; a GPS loop at running pace.
    static func workoutStreams(minutes: Int, resting: Double, intensity: Double, indoor: Bool, random: inout SplitMix64) -> WorkoutStreams {
        let seconds = minutes * 60
        let maximum = 190.0
        var heartRate = [Int?]()
        var rr = [Double]()
        heartRate.reserveCapacity(seconds)
        var bpm = resting + 25
        let intervals = intensity > 0.85
        for second in 0..<seconds {
            let progress = Double(second) / Double(seconds)
            var target = resting + (maximum - resting) * intensity
            if progress < 0.12 { target = resting + 30 + (target - resting - 30) * progress / 0.12 }
            if progress > 0.9 { target = resting + 40 }
            if intervals && progress >= 0.12 && progress <= 0.9 && (second / 180) % 2 == 0 { target = resting + (maximum - resting) * 0.95 }
            bpm += (target - bpm) / 25 + random.nextGaussian() * 0.6
            let reading = Int(bpm.rounded())
            heartRate.append(second > 3 && Int.random(in: 0..<900, using: &random) == 0 ? nil : reading)
        }
        var elapsed = 0.0
        while elapsed < Double(seconds) * 1000 {
            let current = heartRate[min(seconds - 1, Int(elapsed / 1000))] ?? Int(bpm)
            let interval = 60_000 / Double(current) + random.nextGaussian() * 8
            rr.append((interval * 1024 / 1000).rounded() * 1000 / 1024)
            elapsed += interval
        }
        var track = [GeoPoint]()
        if !indoor {
            // A loop of about 2.4 km in a park, run at about 3 m/s, a fix every 2 s.
            let center = (latitude: 48.2088 + Double.random(in: -0.01...0.01, using: &random), longitude: 16.3726 + Double.random(in: -0.01...0.01, using: &random))
            let radius = 380.0
            for second in stride(from: 0, to: seconds, by: 2) {
                let angle = Double(second) * 3.0 / radius
                let wobble = 1 + 0.08 * sin(angle * 3)
                let north = radius * wobble * sin(angle)
                let east = radius * 1.4 * wobble * cos(angle)
                if let point = try? GeoPoint(
                    latitudeDegrees: center.latitude + north / 111_195 + random.nextGaussian() * 0.000015,
                    longitudeDegrees: center.longitude + east / (111_195 * cos(center.latitude * .pi / 180)) + random.nextGaussian() * 0.000015,
                    elevationMeters: 180 + 6 * sin(angle), timeSeconds: Double(second))
                {
                    track.append(point)
                }
            }
        }
        return WorkoutStreams(heartRate: heartRate, rrIntervalsMilliseconds: rr, track: track)
    }
}
