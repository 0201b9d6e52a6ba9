import Foundation
import HeartworkCore
import HeartworkFormats
import Testing

/// Issue 25: the Strong and Hevy exports lifters actually produce, against the shipped
/// catalogue. The fixtures (`Resources/lifting/`) are a weightlifter's history written the
/// way each app writes it: Strong's classic header (`Weight`, `Reps`, `Distance`, `Seconds`,
/// `RPE`), Strong's unit-named headers (`Weight (kg)` with semicolons and decimal commas as
/// a continental phone writes them, `Weight (lbs)`), Hevy's `weight_kg` and `weight_lbs`.
/// Exercise names are the apps' own ("Bench Press (Barbell)", "Clean and Jerk", "Power
/// Clean"), plus two a lifter made up ("Snatch Grip Push Press", "Tempo Squat (Barbell)").
@Suite("Strong and Hevy exports against the catalogue")
struct StrongHevyImportTests {
    static let fixtures = [
        "strong-weightlifting.csv", "strong-weight-kg-semicolon.csv", "strong-weight-lbs.csv", "hevy-weightlifting.csv", "hevy-weight-lbs.csv",
    ]

    /// The catalogue as the app ships it (Sources/HeartworkApp/Resources/strength/).
    static func catalogue() throws -> StrengthCatalogue {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/HeartworkApp/Resources/strength")
        let exercises = try [UInt8](Data(contentsOf: folder.appendingPathComponent("exercises.json")))
        let routines = try [UInt8](Data(contentsOf: folder.appendingPathComponent("routines.json")))
        return try StrengthCatalogueJSON.read(exercises: exercises, routines: routines)
    }

    static func text(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Resources/lifting"))
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Set rows in the file, counted without the reader: every line after the header that is
    /// not empty and not one of Strong's rest timers.
    static func setRows(_ text: String) -> Int {
        text.split(separator: "\n").dropFirst().filter { !$0.isEmpty && !$0.contains("Rest Timer") }.count
    }

    @Test(arguments: fixtures)
    func everySetRowIsReadAndAtLeast95PercentLandOnTheCatalogue(fixture: String) throws {
        let catalogue = try Self.catalogue()
        let text = try Self.text(fixture)
        let parsed = try LiftingLogCSV.read(text, timeZone: TimeZone(identifier: "Europe/London")!)
        #expect(parsed.source == (fixture.hasPrefix("strong") ? "strong" : "hevy"))
        let sets = parsed.sessions.flatMap { session in session.exercises.flatMap { exercise in exercise.sets.map { (exercise.name, $0) } } }
        // None is lost: every set row is a set; only rest timers are left out.
        let rows = Self.setRows(text)
        #expect(rows >= 200, "a few hundred set rows")
        #expect(sets.count == rows, "\(fixture): \(sets.count) sets read of \(rows) rows")
        #expect(parsed.skipped.allSatisfy { $0.hasSuffix("a rest timer row") }, "\(parsed.skipped.prefix(3))")
        let matched = sets.filter { catalogue.exercise(named: $0.0) != nil }.count
        #expect(Double(matched) / Double(sets.count) >= 0.95, "\(fixture): \(matched) of \(sets.count) sets matched")
        // What does not match is exactly the lifter's own two, kept for custom exercises.
        let unmatched = Set(sets.map(\.0).filter { catalogue.exercise(named: $0) == nil })
        #expect(!unmatched.isEmpty && unmatched.isSubset(of: ["Snatch Grip Push Press", "Tempo Squat (Barbell)"]), "\(fixture): \(unmatched)")
    }

    /// The names as each app writes them land on the exercise a lifter means (golden: the
    /// issue's list, and the Olympic lifts with their variants).
    @Test func theAppsNamesLandOnTheRightExercise() throws {
        let catalogue = try Self.catalogue()
        #expect(catalogue.exercises.count >= 300)
        let expected: [(String, String)] = [
            ("Bench Press (Barbell)", "barbell-bench-press"), ("Squat (Barbell)", "barbell-back-squat"), ("Deadlift (Barbell)", "conventional-deadlift"),
            ("Overhead Press (Barbell)", "barbell-overhead-press"), ("Lat Pulldown (Cable)", "lat-pulldown"), ("Bicep Curl (Dumbbell)", "dumbbell-curl"),
            ("Clean and Jerk", "clean-and-jerk"), ("Clean and Jerk (Barbell)", "clean-and-jerk"), ("Power Clean", "power-clean"),
            ("Romanian Deadlift (Barbell)", "romanian-deadlift"), ("Snatch (Barbell)", "barbell-snatch"), ("Snatch", "barbell-snatch"),
            ("Power Snatch", "power-snatch"), ("Hang Snatch", "hang-snatch"), ("Hang Power Clean", "hang-power-clean"), ("Hang Clean", "hang-clean"),
            ("Clean (Barbell)", "barbell-clean"), ("Clean Pull", "clean-pull"), ("Snatch Pull (Barbell)", "snatch-pull"), ("Split Jerk", "split-jerk"),
            ("Push Jerk", "push-jerk"), ("Push Press", "push-press"), ("Front Squat (Barbell)", "front-squat"), ("Good Morning (Barbell)", "barbell-good-morning"),
            ("Triceps Pushdown (Cable - Straight Bar)", "cable-triceps-pushdown"), ("Seated Cable Row - V Grip (Cable)", "seated-cable-row"),
            ("Leg Press (Machine)", "leg-press"), ("Face Pull", "face-pull"), ("Pull Up", "pull-up"), ("Plank", "plank"),
            // Strong's own spelling in its exercise list (issue 41).
            ("Snatch Ballance (Barbell)", "snatch-balance"), ("Snatch Balance (Barbell)", "snatch-balance"),
        ]
        for (name, id) in expected { #expect(catalogue.exercise(named: name)?.id == id, "\(name)") }
        #expect(catalogue.exercises.allSatisfy { !$0.isCustom })
    }

    /// The header names the unit: `Weight (lbs)` is pounds even when the importer is told
    /// kilograms, `Weight (kg)` kilograms with decimal commas; seconds, distance and RPE are
    /// read with the set.
    @Test func unitsSecondsAndRPEComeWithTheSet() throws {
        let pounds = try LiftingLogCSV.read(try Self.text("strong-weight-lbs.csv"), timeZone: .gmt, poundsByDefault: false)
        let snatch = try #require(pounds.sessions.first?.exercises.first)
        #expect(snatch.name == "Snatch (Barbell)" && snatch.sets[0].kind == "warmup")
        #expect(abs(snatch.sets[1].weightKilograms - 130 * 0.453_592_37) < 1e-9)  // 130 lb
        #expect(snatch.sets[1].rpe == 7.5)
        let kilograms = try LiftingLogCSV.read(try Self.text("strong-weight-kg-semicolon.csv"), timeZone: .gmt, poundsByDefault: true)
        let first = try #require(kilograms.sessions.first?.exercises.first)
        #expect(first.sets.map(\.weightKilograms).prefix(2) == [30, 60] && first.sets.map(\.reps).prefix(2) == [4, 2])
        // RPE written with a decimal comma ("8,5") reads as 8.5.
        let efforts = Set(kilograms.sessions.flatMap(\.exercises).flatMap(\.sets).compactMap(\.rpe))
        #expect(efforts.isSubset(of: [7, 7.5, 8, 8.5, 9]) && (efforts.contains(7.5) || efforts.contains(8.5)), "\(efforts)")
        let plank = try #require(kilograms.sessions.first?.exercises.first { $0.name == "Plank" })
        #expect(plank.sets.allSatisfy { $0.seconds == 45 && $0.reps == 0 })
        let hevy = try LiftingLogCSV.read(try Self.text("hevy-weightlifting.csv"), timeZone: .gmt)
        let hevyPlank = try #require(hevy.sessions.first?.exercises.first { $0.name == "Plank" })
        #expect(hevyPlank.sets.allSatisfy { $0.seconds == 45 && $0.reps == nil })
        #expect(hevy.sessions.flatMap(\.exercises).flatMap(\.sets).contains { $0.kind == "dropset" })
    }

    /// A file cut mid-row (a dropped download): the cut row is named and left out, not read as
    /// an empty set; every whole row before it is kept.
    @Test func aRowCutShortIsNamedAndTheRestKept() throws {
        let hevy = """
            "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps"
            "Legs","19 Aug 2023, 09:01","19 Aug 2023, 10:17","","Squat (Barbell)",,"",0,"normal",100,5
            "Legs","19 Aug 2023, 09:01","19 Aug 2023, 10:17","","Squat (Barbell)",,"",1,"normal",100,5
            "Legs","19 Aug 2023, 09:01","19 Aug 2023, 10:17","","Hanging Leg Raise",,"",0
            """
        let readHevy = try LiftingLogCSV.read(hevy, timeZone: .gmt)
        #expect(readHevy.sessions.flatMap(\.exercises).flatMap(\.sets).count == 2)
        #expect(readHevy.skipped == ["line 4: the row ends after 8 of 11 columns, before its weight and reps: cut short, left out"], "\(readHevy.skipped)")
        let strong = """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
            2024-01-08 07:02:11,"Legs",1h,"Squat (Barbell)",1,100,5,0,0,"","",
            2024-01-08 07:02:11,"Legs",1h,"Squat (Barbell)",2,100
            """
        let readStrong = try LiftingLogCSV.read(strong, timeZone: .gmt)
        #expect(readStrong.sessions.flatMap(\.exercises).flatMap(\.sets).count == 1)
        #expect(readStrong.skipped.count == 1 && readStrong.skipped[0].hasPrefix("line 3: the row ends after 6 of 12 columns"), "\(readStrong.skipped)")
    }

    /// A row cut inside a quoted field (a file joined from two exports, cut mid-date) leaves its
    /// quote open, and RFC 4180 reads the next line as part of that field: the one record that
    /// results is left out, and the message names both lines it took, not only the first.
    @Test func aQuoteLeftOpenNamesEveryLineItSwallowed() throws {
        let hevy = """
            "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps"
            "Legs","19 Aug 2023, 09:01","19 Aug 2023, 10:17","","Squat (Barbell)",,"",0,"normal",100,5
            "Legs","19 Aug 2023, 09:01","19 Aug 2
            "Legs","20 Aug 2023, 09:01","20 Aug 2023, 10:17","","Squat (Barbell)",,"",0,"normal",100,5
            "Legs","21 Aug 2023, 09:01","21 Aug 2023, 10:17","","Squat (Barbell)",,"",0,"normal",105,5
            """
        let read = try LiftingLogCSV.read(hevy, timeZone: .gmt)
        #expect(read.sessions.flatMap(\.exercises).flatMap(\.sets).count == 2, "the rows before and after are kept")
        #expect(
            read.skipped.count == 1 && read.skipped[0].hasPrefix("line 3: ")
                && read.skipped[0].hasSuffix("(the row runs on to line 4 inside quotes, so lines 3–4 were left out)"), "\(read.skipped)")
    }

    /// Issue 41: Hevy on a phone set to the United States writes `"Jun 11, 2026, 1:01 PM"`
    /// (iOS puts a narrow no-break space, U+202F, before PM); the whole file was refused as
    /// "holds no workouts". The shape is Hevy's own header with those dates, generated here.
    @Test func hevysUSDatesAreRead() throws {
        let narrow = "\u{202F}"
        let hevy = """
            "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_lbs","reps","distance_miles","duration_seconds","rpe"
            "Push","Jun 11, 2026, 1:01\(narrow)PM","Jun 11, 2026, 2:05\(narrow)PM","","Bench Press (Barbell)",,"",0,"warmup",45,10,,,
            "Push","Jun 11, 2026, 1:01\(narrow)PM","Jun 11, 2026, 2:05\(narrow)PM","","Bench Press (Barbell)",,"",1,"normal",135,8,,,8
            "Pull","Jun 12, 2026, 9:30 AM","Jun 12, 2026, 10:15 AM","","Deadlift (Barbell)",,"",0,"normal",225,5,,,
            """
        let read = try LiftingLogCSV.read(hevy, timeZone: .gmt)
        #expect(read.skipped.isEmpty, "\(read.skipped)")
        #expect(read.sessions.count == 2)
        let push = try #require(read.sessions.first { $0.name == "Push" })
        #expect(push.startedAt == Date(timeIntervalSince1970: 1_781_182_860), "2026-06-11 13:01 UTC")
        #expect(push.exercises.first?.sets.map(\.weightKilograms) == [BodyMass.kilograms(fromPounds: 45), BodyMass.kilograms(fromPounds: 135)])
        let pull = try #require(read.sessions.first { $0.name == "Pull" })
        #expect(pull.startedAt == Date(timeIntervalSince1970: 1_781_256_600), "2026-06-12 09:30 UTC")
        // A date in neither form is named with both.
        let odd = try LiftingLogCSV.read(hevy.replacingOccurrences(of: "Jun 12, 2026, 9:30 AM", with: "12/06/2026 9:30"), timeZone: .gmt)
        #expect(odd.skipped.contains { $0.contains("is not like \"19 Aug 2023, 09:01\" or \"Aug 19, 2023, 9:01 AM\"") }, "\(odd.skipped)")
    }

    /// Strong's exports in other languages (issue 41), in the shapes of real ones: the French
    /// header and durations of Martsk23/fitness-recomp's real export (CRLF, "35min", rest-timer
    /// rows "Minuteur de repos"), the German of anes7374/gymtracker ("Reihenfolge festlegen",
    /// "Wiederh.", "2h 23min"), the Portuguese of gustavosinacio/ada-back, and a language not
    /// known by its columns' order.
    @Test func strongsExportsInOtherLanguagesAreRead() throws {
        let french = [
            "Date,Nom de l'entraînement,Durée,Nom de l'exercice,Ordre de la série,Poids,Réps,Distance,Secondes,Notes,Notes d'entraînement,RPE",
            "2026-01-12 18:02:11,\"Séance du soir\",35min,\"Bench Press (Barbell)\",1,60.0,10.0,0,0.0,\"\",\"\",",
            "2026-01-12 18:02:11,\"Séance du soir\",35min,\"Bench Press (Barbell)\",Minuteur de repos,0,0.0,0,90.0,\"\",\"\",",
            "2026-01-12 18:02:11,\"Séance du soir\",35min,\"Bench Press (Barbell)\",2,62.5,8.0,0,0.0,\"\",\"\",8",
        ].joined(separator: "\r\n")
        let read = try LiftingLogCSV.read(french, timeZone: .gmt)
        let session = try #require(read.sessions.first)
        #expect(read.sessions.count == 1 && session.name == "Séance du soir")
        #expect(session.exercises.first?.sets.map(\.weightKilograms) == [60, 62.5] && session.exercises.first?.sets.map(\.reps) == [10, 8])
        #expect(session.durationSeconds == Double(35 * 60))
        #expect(read.skipped.count == 1 && read.skipped.first?.contains("rest timer") == true, "\(read.skipped)")

        let german = """
            Datum,Workout-Name,Dauer,Name der Übung,Reihenfolge festlegen,Gewicht,Wiederh.,Entfernung,Sekunden,Notizen,Workout-Notizen,RPE
            2025-08-23 17:51:23,"Ganzkörper",2h 23min,"Chest Press (Machine)",1,50.0,12.0,0,0.0,"","Erstes Training",
            2025-08-23 17:51:23,"Ganzkörper",2h 23min,"Chest Press (Machine)",Ruhezeit,0,0.0,0,120.0,"","Erstes Training",
            """
        let deutsch = try LiftingLogCSV.read(german, timeZone: .gmt)
        #expect(deutsch.sessions.first?.durationSeconds == Double(2 * 3600 + 23 * 60))
        #expect(deutsch.sessions.first?.exercises.first?.sets.map(\.reps) == [12])

        let portuguese = """
            Data,Nome do treino,Duração,Nome do exercício,Ordem da série,Peso,Reps,Distância,Segundos,Notas,Notas do treino,RPE
            2021-03-02 07:15:00,"Treino A",1h 5m,"Squat (Barbell)",1,80,5,0,0,"","",
            """
        #expect(try LiftingLogCSV.read(portuguese, timeZone: .gmt).sessions.first?.exercises.first?.sets.first?.weightKilograms == 80)

        // Twelve columns in Strong's order, the last RPE: read by position (here a guess at Spanish).
        let other = """
            Fecha,Nombre del entrenamiento,Duración,Nombre del ejercicio,Orden de la serie,Peso,Repeticiones,Distancia,Segundos,Notas,Notas del entrenamiento,RPE
            2026-02-01 10:00:00,"Pierna",50min,"Deadlift (Barbell)",1,100,5,0,0,"","",
            2026-02-01 10:00:00,"Pierna",50min,"Deadlift (Barbell)",2,100,5,0,0,"","",
            """
        #expect(try LiftingLogCSV.read(other, timeZone: .gmt).sessions.first?.exercises.first?.sets.count == 2)

        // Twelve-hour times as a phone set so writes them.
        let twelve = french.replacingOccurrences(of: "2026-01-12 18:02:11", with: "2026-01-12 06:02:11\u{202F}pm")
        #expect(try LiftingLogCSV.read(twelve, timeZone: .gmt).sessions.first?.startedAt == Date(timeIntervalSince1970: 1_768_240_931), "2026-01-12 18:02:11 UTC")
    }
}
