import Foundation
import HeartworkCore
import Testing

/// Issue 25, Pocket PT: the baseline that never reaches 0 kg, and the routine suggestion's
/// overuse rule (seed F16). Sources: `../shared/spec/seed-002-digest.md` §3.3.2 (reps per goal,
/// from `calculateReps`, whose `switch user.goal` is line 3030 of the seed), §3.3.6 (Brzycki
/// `weight × 36 / (37 − reps)`, reps ≥ 37 to be guarded), §2.0 F16.1.
@Suite("Strength generator: goal, baseline, overuse")
struct StrengthGeneratorGoalTests {
    /// The baseline a lifter did: one set of `reps` at `kilograms`, through the real update.
    func after(reps: Int, kilograms: Double) -> ExerciseStats {
        StrengthProgression.update(.coldStart, with: [PerformedSet(reps: reps, weightKilograms: kilograms)])
    }

    // MARK: reps follow the user's goal (digest §3.3.2)

    @Test func repsAreTheGeneratorsGoalNotTheRoutines() {
        let known = ExerciseStats(mostReps: 8, mostWeightKilograms: 80, oneRepMaxKilograms: 100)
        // The digest's table (§3.3.2): WeightLoss 15, MuscleMaintenance 12, MassGain 8; the
        // weights its §3.3.5 table gives for a 1RM of 100: 62, 70, 81.
        for (goal, reps, kilograms) in [(StrengthGoal.weightLoss, 15, 62.0), (.muscleMaintenance, 12, 70), (.massGain, 8, 81)] {
            let set = WorkoutGenerator(goal: goal).prescribe([GeneratorExercise(id: "squat", group: .legs, stats: known)])[0].sets[0]
            #expect(set == PrescribedSet(reps: reps, weightKilograms: kilograms), "\(goal)")
        }
    }

    // MARK: no 0-kg dead end

    @Test func thirtySixRepsStillGiveABrzycki1RM() {
        // 5 kg × 36: 5 × 36 / (37 − 36) = 180 (the seed's formula, digest §3.3.6): working sets
        // follow, 180 × (1.0278 − 0.0278 × 15) = 109.94 → 110 kg for weight loss.
        let stats = after(reps: 36, kilograms: 5)
        #expect(abs(stats.oneRepMaxKilograms - 180) < 1e-9)
        let block = WorkoutGenerator(goal: .weightLoss).prescribe([GeneratorExercise(id: "curl", group: .arms, stats: stats)])[0]
        #expect(block.sets == Array(repeating: PrescribedSet(reps: 15, weightKilograms: 110), count: 4))
    }

    @Test(arguments: [37, 38, 100])
    func thirtySevenRepsOrMoreRepeatTheBaselineHalfAgainAsHeavy(reps: Int) {
        // Brzycki is undefined at 37 and negative beyond: no 1RM, so the seed's code would
        // prescribe 1RM 0 × … = 0 kg. Heartwork gives another baseline set at 1.5 times the
        // weight (5 × 1.5 = 7.5, rounded up to a whole kilogram as the seed rounds: 8 kg).
        let stats = after(reps: reps, kilograms: 5)
        #expect(stats.mostReps == reps && stats.oneRepMaxKilograms == 0)
        let generator = WorkoutGenerator(goal: .massGain)
        let block = generator.prescribe([GeneratorExercise(id: "curl", group: .arms, stats: stats)])[0]
        #expect(block.sets == [PrescribedSet(reps: nil, weightKilograms: 8)])
        // Done for 20 reps at 8 kg: a 1RM at last (8 × 36 / 17 = 16.94) and working sets
        // of 8 at 16.94 × 0.8054 = 13.64 → 14 kg.
        let next = StrengthProgression.update(stats, with: [PerformedSet(reps: 20, weightKilograms: 8)])
        let working = generator.prescribe([GeneratorExercise(id: "curl", group: .arms, stats: next)])[0].sets
        #expect(working == Array(repeating: PrescribedSet(reps: 8, weightKilograms: 14), count: 4))
        // Again 37+ at 8 kg: 12 kg. Never 0 kg.
        let again = StrengthProgression.update(stats, with: [PerformedSet(reps: reps, weightKilograms: 8)])
        #expect(generator.prescribe([GeneratorExercise(id: "curl", group: .arms, stats: again)])[0].sets == [PrescribedSet(reps: nil, weightKilograms: 12)])
    }

    @Test func aLoadedExerciseNeverGetsZeroKilograms() {
        let cases: [ExerciseStats] = [
            .coldStart,
            after(reps: 37, kilograms: 5),
            after(reps: 100, kilograms: 5),
            after(reps: 12, kilograms: 0),  // logged at 0 kg: no 1RM either → the 5 kg baseline
            ExerciseStats(mostReps: 40, mostWeightKilograms: .nan, oneRepMaxKilograms: .nan),  // bad data
        ]
        for goal in StrengthGoal.allCases {
            for stats in cases {
                // Six of one group: the deepest decay (0.95⁵) too.
                let plan = WorkoutGenerator(goal: goal).prescribe((0..<6).map { GeneratorExercise(id: "e\($0)", group: .chest, stats: stats) })
                for block in plan {
                    #expect(block.sets.allSatisfy { $0.weightKilograms >= 4 }, "\(goal) \(stats): \(block.sets)")
                }
            }
        }
        #expect(WorkoutGenerator.needsBaseline(GeneratorExercise(id: "x", group: .arms, stats: after(reps: 12, kilograms: 0))))
        #expect(WorkoutGenerator.baselineKilograms(after(reps: 12, kilograms: 0)) == 5)
    }

    @Test func bodyweightAndHoldsKeepTheirRules() {
        // A push-up done 50 times: working sets of the goal's reps, no load (0 kg is right here).
        let pushUps = ExerciseStats(mostReps: 50, mostWeightKilograms: 0, oneRepMaxKilograms: 0)
        let plan = WorkoutGenerator(goal: .weightLoss).prescribe([
            GeneratorExercise(id: "push-up", group: .chest, loaded: false, stats: pushUps),
            GeneratorExercise(id: "plank", group: .abs, loaded: false, measure: .seconds, stats: ExerciseStats(mostReps: 90)),
        ])
        #expect(plan[0].sets == Array(repeating: PrescribedSet(reps: 15, weightKilograms: 0), count: 4))
        #expect(plan[1].sets == Array(repeating: PrescribedSet(reps: 90, weightKilograms: 0), count: 4))
    }

    @Test func theRepeatedBaselineStillMeetsTheBarAndDecays() {
        // A barbell exercise done 40 times with the empty 20 kg bar: 30 kg next; as the second
        // chest exercise 30 × 0.95 = 28.5 → 29.
        let stats = after(reps: 40, kilograms: 20)
        let plan = WorkoutGenerator(goal: .muscleMaintenance).prescribe([
            GeneratorExercise(id: "bench", group: .chest, minimumKilograms: 20, stats: stats),
            GeneratorExercise(id: "incline", group: .chest, minimumKilograms: 20, stats: stats),
        ])
        #expect(plan[0].sets == [PrescribedSet(reps: nil, weightKilograms: 30)])
        #expect(plan[1].sets == [PrescribedSet(reps: nil, weightKilograms: 29)])
    }

    // MARK: overuse (seed F16.1) and "not done lately"

    @Test func overuseCountsTheLatestRunOfOneRoutine() {
        #expect(RoutineSuggestion.overuseThreshold == 3)
        #expect(RoutineSuggestion.overuse(recent: ["a", "a", "a", "b"]) == .init(routineID: "a", times: 3))
        #expect(RoutineSuggestion.overuse(recent: ["a", "a", "a", "a", "a"]) == .init(routineID: "a", times: 5))
        #expect(RoutineSuggestion.overuse(recent: ["a", "a", "b", "a"]) == nil)
        #expect(RoutineSuggestion.overuse(recent: ["a", "a", nil, "a"]) == nil)  // an import ends the run
        #expect(RoutineSuggestion.overuse(recent: [nil, nil, nil]) == nil)
        #expect(RoutineSuggestion.overuse(recent: []) == nil)
    }

    @Test func anOverusedRoutineIsNotSuggestedAndTheWarningSaysSo() {
        let candidates = [
            RoutineSuggestion.Candidate(id: "full", name: "Full body", goal: .weightLoss, groups: [.legs, .chest, .back], lastDoneDay: 100),
            RoutineSuggestion.Candidate(id: "circuit", name: "Circuit", goal: .weightLoss, groups: [.legs, .chest, .back, .abs], lastDoneDay: 40),
        ]
        // Without the rule, full body overlaps less (3 groups against 4) and wins.
        #expect(RoutineSuggestion.suggest(candidates, goal: .weightLoss, recentlyTrained: [.legs, .chest, .back, .abs])?.routineID == "full")
        let pick = RoutineSuggestion.suggest(
            candidates, goal: .weightLoss, recentlyTrained: [.legs, .chest, .back, .abs], overused: .init(routineID: "full", times: 3))
        #expect(pick?.routineID == "circuit")
        #expect(pick?.warning == "you have done Full body 3 times in a row — a different routine works your muscles in new ways")
        #expect(pick?.fullReason.hasPrefix("you have done Full body 3 times in a row") == true)
        // The only routine of the goal: still suggested, without a warning (there is no other).
        let alone = RoutineSuggestion.suggest([candidates[0]], goal: .weightLoss, recentlyTrained: [], overused: .init(routineID: "full", times: 4))
        #expect(alone?.routineID == "full" && alone?.warning == nil)
    }

    @Test func routinesNotDoneLatelyComeFirst() {
        // Done three days ago and never done: the never-done one (a routine done only once does
        // not keep coming back); among done ones, the one done longest ago; ties by name.
        let candidates = [
            RoutineSuggestion.Candidate(id: "a", name: "Alpha", goal: .massGain, groups: [.chest], lastDoneDay: 97),
            RoutineSuggestion.Candidate(id: "c", name: "Charlie", goal: .massGain, groups: [.legs], lastDoneDay: nil),
            RoutineSuggestion.Candidate(id: "b", name: "Bravo", goal: .massGain, groups: [.back], lastDoneDay: nil),
        ]
        #expect(RoutineSuggestion.suggest(candidates, goal: .massGain, recentlyTrained: [])?.routineID == "b")
        let done = candidates.map { c in
            var c = c
            c.lastDoneDay = c.lastDoneDay ?? (c.id == "b" ? 99 : 98)
            return c
        }
        #expect(RoutineSuggestion.suggest(done, goal: .massGain, recentlyTrained: [])?.routineID == "a")
    }
}
