import Foundation
import HeartworkCore
import Testing

/// Issue 25, after review: one lookup for the catalogue's exercises and a user's own, and
/// Brzycki's edge as docs/STRENGTH.md states it (digest §3.3.6: `w × 36 / (37 − r)`).
@Suite("Exercise lookup and Brzycki's edge")
struct ExerciseLookupTests {
    static let catalogue = StrengthCatalogue(
        exercises: [
            Exercise(
                id: "plank", name: "Plank", group: .abs, primaryMuscle: "Abs", secondaryMuscles: [], equipment: "bodyweight", loaded: false,
                measure: .seconds, instructions: "", licence: "CC0-1.0", attribution: "Heartwork"),
            Exercise(
                id: "barbell-curl", name: "Barbell Curl", group: .arms, primaryMuscle: "Biceps", secondaryMuscles: [], equipment: "barbell", loaded: true,
                instructions: "", licence: "CC0-1.0", attribution: "Heartwork"),
        ], routines: [], licence: "CC0-1.0", attribution: "Heartwork")

    static let hold = Exercise(
        id: "custom-hold", name: "Ring Support Hold", group: .arms, primaryMuscle: "Arms", secondaryMuscles: [], equipment: "bodyweight", loaded: false,
        measure: .seconds, instructions: "", licence: "", attribution: "")
    static let squat = Exercise(
        id: "custom-squat", name: "Zercher Carry Squat", group: .legs, primaryMuscle: "Legs", secondaryMuscles: [], equipment: "barbell", loaded: true,
        instructions: "", licence: "", attribution: "")

    @Test func theUsersOwnExercisesAreKnownLikeTheCatalogues() {
        let lookup = ExerciseLookup(catalogue: Self.catalogue, own: [Self.hold, Self.squat])
        #expect(lookup.isTimed("plank") && lookup.isTimed("custom-hold") && !lookup.isTimed("custom-squat") && !lookup.isTimed("barbell-curl"))
        // The catalogue alone (the old rule) took a timed custom exercise for reps.
        #expect(!ExerciseLookup(catalogue: Self.catalogue).isTimed("custom-hold"))
        #expect(lookup.exercise("other:Thing") == nil && lookup.exercise("custom-someone-elses") == nil)
        let routine = RoutineTemplate(id: "r", name: "R", goal: .massGain, description: "", exerciseIDs: ["custom-squat", "plank", "custom-hold"])
        #expect(lookup.groups(of: routine) == [.legs, .abs, .arms] && !lookup.isBodyweight(routine))
        #expect(lookup.isBodyweight(RoutineTemplate(id: "b", name: "B", goal: .massGain, description: "", exerciseIDs: ["custom-hold", "plank"])))
        // An own exercise's id must carry the custom prefix: nothing else can shadow an id.
        let sneaky = Exercise(
            id: "not-custom", name: "X", group: .legs, primaryMuscle: "", secondaryMuscles: [], equipment: "other", loaded: true,
            instructions: "", licence: "", attribution: "")
        #expect(ExerciseLookup(catalogue: Self.catalogue, own: [sneaky]).exercise("not-custom") == nil)
    }

    /// At 36 reps Brzycki still answers (36 w), at 37 it has none; the generator agrees: 36
    /// reps end the baseline, 37 keep it (1.5 × the weight next), as docs/STRENGTH.md says.
    @Test func brzyckiAt36And37RepsAndTheGeneratorAgree() {
        #expect(Brzycki.oneRepMax(weightKilograms: 5, reps: 36) == 180)
        #expect(Brzycki.oneRepMax(weightKilograms: 5, reps: 37) == nil && Brzycki.repsLimit == 37)
        let at36 = StrengthProgression.update(.coldStart, with: [PerformedSet(reps: 36, weightKilograms: 5)])
        let at37 = StrengthProgression.update(.coldStart, with: [PerformedSet(reps: 37, weightKilograms: 5)])
        #expect(at36.oneRepMaxKilograms == 180 && at37.oneRepMaxKilograms == 0 && !at37.isColdStart)
        #expect(!WorkoutGenerator.needsBaseline(GeneratorExercise(Self.squat, stats: at36)))
        #expect(WorkoutGenerator.needsBaseline(GeneratorExercise(Self.squat, stats: at37)))
        // A barbell exercise: 1.5 × 5 = 7.5 kg, raised to the 20 kg bar.
        #expect(WorkoutGenerator(goal: .massGain).prescribe([GeneratorExercise(Self.squat, stats: at37)])[0].sets == [PrescribedSet(reps: nil, weightKilograms: 20)])
        // A hold never needs a weight baseline once done.
        let held = StrengthProgression.update(.coldStart, with: [PerformedSet(reps: 40, weightKilograms: 0)], timed: true)
        #expect(!WorkoutGenerator.needsBaseline(GeneratorExercise(Self.hold, stats: held)))
    }
}
