import Foundation
import HeartworkCore
import HeartworkFormats
import Testing

/// Strong and Hevy exports as those apps write them (header rows and value styles from their
/// CSV exports: Strong 5.x "Date,Workout Name,Duration,…", Hevy "title,start_time,…").
@Suite("Strong and Hevy CSV")
struct LiftingLogCSVTests {
    static let strong = #"""
        Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
        2024-03-04 18:02:11,"Evening Workout",1h 5m,"Bench Press (Barbell)",1,60.0,10.0,0,0.0,"","Felt good, strong",
        2024-03-04 18:02:11,"Evening Workout",1h 5m,"Bench Press (Barbell)",2,70.0,8.0,0,0.0,"","Felt good, strong",
        2024-03-04 18:02:11,"Evening Workout",1h 5m,"Squat (Barbell)",W,40.0,10.0,0,0.0,"","Felt good, strong",
        2024-03-04 18:02:11,"Evening Workout",1h 5m,"Squat (Barbell)",1,100.0,5.0,0,0.0,"","Felt good, strong",
        2024-03-04 18:02:11,"Evening Workout",1h 5m,"Rest Timer",Rest Timer,0,0,0,90.0,"","Felt good, strong",
        2024-03-06 07:30:00,"Morning ""Pull""",45m,"Zercher Good Morning",1,50.0,8.0,0,0.0,"multi
        line note","",8

        """#

    static let hevy = """
        "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
        "Push Day","19 Aug 2023, 09:01","19 Aug 2023, 10:02","","Bench Press (Barbell)",,"",0,"warmup",40,12,,,
        "Push Day","19 Aug 2023, 09:01","19 Aug 2023, 10:02","","Bench Press (Barbell)",,"",1,"normal",80,6,,,8.5
        "Push Day","19 Aug 2023, 09:01","19 Aug 2023, 10:02","","Lateral Raise (Dumbbell)",,"",0,"normal",10,15,,,
        """

    @Test func readsAStrongExport() throws {
        let result = try LiftingLogCSV.read(Self.strong, timeZone: TimeZone(identifier: "Europe/London")!)
        #expect(result.source == "strong")
        #expect(result.sessions.count == 2)
        let first = result.sessions[0]
        #expect(first.name == "Evening Workout" && first.durationSeconds == 3900 && first.notes == "Felt good, strong")
        #expect(first.startedAt == ISO8601DateFormatter().date(from: "2024-03-04T18:02:11Z"))  // London is on GMT in March
        #expect(first.exercises.map(\.name) == ["Bench Press (Barbell)", "Squat (Barbell)"])
        #expect(first.exercises[1].sets.map(\.kind) == ["warmup", "normal"])
        #expect(first.exercises[0].sets.map(\.reps) == [10, 8] && first.exercises[0].sets.map(\.weightKilograms) == [60, 70])
        #expect(result.skipped == ["line 6: a rest timer row"])
        #expect(result.sessions[1].name == "Morning \"Pull\"" && result.sessions[1].durationSeconds == 2700)
    }

    @Test func readsAHevyExportAndPounds() throws {
        let result = try LiftingLogCSV.read(Self.hevy, timeZone: TimeZone(identifier: "America/New_York")!)
        #expect(result.source == "hevy" && result.sessions.count == 1)
        let session = result.sessions[0]
        #expect(session.startedAt == ISO8601DateFormatter().date(from: "2023-08-19T13:01:00Z"))
        #expect(session.durationSeconds == 3660)
        #expect(session.exercises.map { $0.sets.count } == [2, 1] && session.exercises[0].sets[0].kind == "warmup")
        let pounds = Self.hevy.replacingOccurrences(of: "weight_kg", with: "weight_lbs")
        let inPounds = try LiftingLogCSV.read(pounds, timeZone: .gmt)
        #expect(abs(inPounds.sessions[0].exercises[0].sets[1].weightKilograms - 36.287_389_6) < 1e-6)
    }

    /// A file that is no export is refused; a bad row inside a real export is left out with
    /// its line and reason, and the rest imports (issue 28: never lose the whole for a part).
    @Test func badFilesSayWhatAndBadRowsAreSkippedWithTheirLine() throws {
        #expect(throws: TextFormatError(line: 1, "the file is empty")) { try LiftingLogCSV.read("", timeZone: .gmt) }
        #expect { try LiftingLogCSV.read("a,b,c\n1,2,3\n", timeZone: .gmt) } throws: { "\($0)".contains("not a Strong or Hevy export") }
        #expect { try LiftingLogCSV.read("\"title,start_time\n", timeZone: .gmt) } throws: { "\($0)".contains("not closed") }
        let whole = try LiftingLogCSV.read(Self.strong, timeZone: .gmt)
        let badDate = try LiftingLogCSV.read(Self.strong.replacingOccurrences(of: "2024-03-06 07:30:00", with: "06/03/2024"), timeZone: .gmt)
        #expect(badDate.skipped.contains { $0.hasPrefix("line 7: Date \"06/03/2024\"") }, "\(badDate.skipped)")
        #expect(badDate.sessions.flatMap(\.exercises).flatMap(\.sets).count == whole.sessions.flatMap(\.exercises).flatMap(\.sets).count - 1)
        let badReps = try LiftingLogCSV.read(Self.hevy.replacingOccurrences(of: "80,6", with: "80,lots"), timeZone: .gmt)
        #expect(badReps.skipped.count == 1 && badReps.skipped[0].hasPrefix("line 3: reps \"lots\""), "\(badReps.skipped)")
        #expect(!badReps.sessions.isEmpty)
        let hugeWeight = try LiftingLogCSV.read(Self.hevy.replacingOccurrences(of: "80,6", with: "1e308,6"), timeZone: .gmt)
        #expect(hugeWeight.skipped.count == 1 && hugeWeight.skipped[0].contains("weight"))
    }

    @Test func catalogueNamesMatchTheWayOtherAppsWriteThem() {
        let aliases = ["Conventional Deadlift": ["Deadlift (Barbell)"], "Barbell Back Squat": ["Squat (Barbell)"]]
        let exercises = ["Barbell Bench Press", "Barbell Back Squat", "Conventional Deadlift", "Romanian Deadlift", "Dumbbell Lateral Raise", "Push-Up"].map {
            Exercise(
                id: $0.lowercased().replacingOccurrences(of: " ", with: "-"), name: $0, group: .chest, primaryMuscle: "", secondaryMuscles: [],
                equipment: "", loaded: true, instructions: "", licence: "", attribution: "", aliases: aliases[$0] ?? [])
        }
        let catalogue = StrengthCatalogue(exercises: exercises, routines: [], licence: "", attribution: "")
        #expect(catalogue.exercise(named: "Bench Press (Barbell)")?.name == "Barbell Bench Press")
        #expect(catalogue.exercise(named: "Squat (Barbell)")?.name == "Barbell Back Squat")
        #expect(catalogue.exercise(named: "Deadlift (Barbell)")?.name == "Conventional Deadlift")
        #expect(catalogue.exercise(named: "Push Ups")?.name == "Push-Up")
        #expect(catalogue.exercise(named: "Lateral Raise (Dumbbell)")?.name == "Dumbbell Lateral Raise")
        #expect(catalogue.exercise(named: "Zercher Good Morning") == nil)
        #expect(catalogue.exercise(named: "Press") == nil)  // too vague: nothing is guessed
    }
}
