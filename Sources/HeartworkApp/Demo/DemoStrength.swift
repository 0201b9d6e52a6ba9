import Foundation
import HeartworkCore
import HeartworkStore

/// Three months of strength training for the demo user (issue 12): three sessions a week from
/// built-in routines, logged set by set through the same service a lifter uses — reps a
/// little above or below the target, the odd missed set, a review — so the 1RMs progress as
/// they would, and the library, history, calendar and progress charts are alive at once.
enum DemoStrength {
    static let reviews = [
        "Great session, felt strong and the squats moved well",
        "Good workout, a bit tired at the end but happy",
        "Tough one today, legs were heavy and I struggled with the last sets",
        "Loved it, new best on the bench",
        "Felt sluggish and sore, not my day",
        "Solid, steady work. Enjoyed the pace",
        "Hard but rewarding, proud of finishing every set",
        "Bored and distracted, cut it short",
    ]

    static func seed(_ services: HeartworkServices, user: UserRecord, now: Date, days: Int = 91, random: inout SplitMix64) async throws {
        let strength = services.strength
        let start = now.addingTimeInterval(-Double(days) * 86_400)
        _ = try await strength.updateSettings(.init(goal: .muscleMaintenance, lifestyle: .active, acceptDisclaimer: true), for: user, now: start)
        let plan = ["upper-body-maintenance", "lower-body-maintenance", "full-body-maintenance"]
        let known = Set(strength.catalogue.routines.map(\.id))
        let routines = plan.filter(known.contains)
        guard !routines.isEmpty else { return }
        var index = 0
        for day in stride(from: 0, to: days, by: 1) where [0, 2, 4].contains(day % 7) {
            let began = start.addingTimeInterval(Double(day) * 86_400 + 18 * 3600 + Double(random.next() % 1800))
            let view = try await strength.start(routineID: routines[index % routines.count], for: user, now: began)
            index += 1
            var clock = began
            for set in view.sets {
                clock = clock.addingTimeInterval(90 + Double(random.next() % 60))
                if random.next() % 25 == 0 { continue }  // a skipped set
                // A baseline set: as many as possible with 5 kg. Otherwise mostly the target, now
                // and then one more (how the seed's 1RM rises) or one or two short.
                let roll = Int(random.next() % 20)
                let reps = set.prescribedReps.map { max(1, $0 + (roll == 0 ? 1 : (roll == 1 ? -1 : (roll == 2 ? -2 : 0)))) } ?? (24 + Int(random.next() % 9))
                _ = try await strength.logSet(view.session.id, number: set.position, .init(reps: .set(reps), done: true), for: user, now: clock)
            }
            let review = reviews[Int(random.next() % UInt64(reviews.count))]
            _ = try await strength.finish(
                view.session.id, review: review, enjoyment: 3 + Int(random.next() % 3), difficulty: 2 + Int(random.next() % 3),
                for: user, now: clock.addingTimeInterval(120))
        }
    }
}
