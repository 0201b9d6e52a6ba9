/// An exercise of the catalogue (seed-002 §2.5, §5): our own text, shipped as a data file.
public struct Exercise: Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var group: MuscleGroup
    public var primaryMuscle: String
    public var secondaryMuscles: [String]
    public var equipment: String
    /// False for bodyweight exercises: no external weight is prescribed.
    public var loaded: Bool
    /// What a set counts: repetitions, or seconds held (a plank). A timed set keeps its
    /// seconds in the reps column.
    public var measure: ExerciseMeasure
    public var instructions: String
    public var licence: String
    public var attribution: String

    public init(
        id: String, name: String, group: MuscleGroup, primaryMuscle: String, secondaryMuscles: [String], equipment: String,
        loaded: Bool, measure: ExerciseMeasure = .reps, instructions: String, licence: String, attribution: String
    ) {
        self.id = id
        self.name = name
        self.group = group
        self.primaryMuscle = primaryMuscle
        self.secondaryMuscles = secondaryMuscles
        self.equipment = equipment
        self.loaded = loaded
        self.measure = measure
        self.instructions = instructions
        self.licence = licence
        self.attribution = attribution
    }

    /// A hold (plank, side plank, hollow body hold): logged in seconds, not reps.
    public var timed: Bool { measure == .seconds }

    /// The least load a set of it can have: the empty bar for a barbell (`barKilograms`, the
    /// user's own), 10 kg for an EZ bar, nothing for the rest (dumbbells, machines, cables,
    /// kettlebells and bodyweight keep the generator's own rule).
    public func minimumKilograms(barKilograms: Double = WorkoutGenerator.defaultBarKilograms) -> Double {
        guard loaded else { return 0 }
        switch equipment {
        case "barbell": return barKilograms.isFinite && barKilograms > 0 ? barKilograms : WorkoutGenerator.defaultBarKilograms
        case "ez-bar": return WorkoutGenerator.ezBarKilograms
        default: return 0
        }
    }
}

/// What a set of an exercise counts. The raw values are the catalogue's and the API's.
public enum ExerciseMeasure: String, Sendable, Hashable, Codable, CaseIterable {
    /// Repetitions (the default).
    case reps
    /// Seconds held, for isometric holds.
    case seconds
}

/// A routine: exercises in execution order, for a goal (seed-002 §2.6). Built-in ones come
/// with the catalogue; a user's own are stored.
public struct RoutineTemplate: Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var goal: StrengthGoal
    public var description: String
    public var exerciseIDs: [String]

    public init(id: String, name: String, goal: StrengthGoal, description: String, exerciseIDs: [String]) {
        self.id = id
        self.name = name
        self.goal = goal
        self.description = description
        self.exerciseIDs = exerciseIDs
    }
}

/// The catalogue and the built-in routines, looked up by id.
public struct StrengthCatalogue: Sendable {
    public let exercises: [Exercise]
    public let routines: [RoutineTemplate]
    public let licence: String
    public let attribution: String
    private let index: [String: Int]

    public init(exercises: [Exercise], routines: [RoutineTemplate], licence: String, attribution: String) {
        self.exercises = exercises.sorted { $0.name < $1.name }
        self.routines = routines
        self.licence = licence
        self.attribution = attribution
        var index = [String: Int]()
        for (i, exercise) in self.exercises.enumerated() { index[exercise.id] = i }
        self.index = index
    }

    public func exercise(_ id: String) -> Exercise? { index[id].map { exercises[$0] } }

    /// A routine of only bodyweight exercises (the seed's "Bodyweight" category).
    public func isBodyweight(_ routine: RoutineTemplate) -> Bool {
        !routine.exerciseIDs.isEmpty && routine.exerciseIDs.allSatisfy { exercise($0)?.loaded == false }
    }

    public func groups(of routine: RoutineTemplate) -> Set<MuscleGroup> {
        Set(routine.exerciseIDs.compactMap { exercise($0)?.group })
    }

    /// An exercise found by its name as other apps write it. In order: the same words in any
    /// order, case and punctuation ignored ("Bench Press (Barbell)" → "Barbell Bench Press");
    /// then the names Strong and Hevy use for exercises whose words differ from ours
    /// (`StrengthCatalogue.aliases`); then the one catalogue name that contains all of the
    /// given words with the fewest others ("Squat (Barbell)" → "Barbell Back Squat"), if only
    /// one is closest. Otherwise nil: the caller reports it unmapped rather than guess.
    public func exercise(named name: String) -> Exercise? {
        let wanted = Self.nameKey(name)
        if let exact = exercises.first(where: { Self.nameKey($0.name) == wanted }) { return exact }
        if let id = Self.aliases[wanted], let alias = exercise(id) { return alias }
        let words = Set(wanted.split(separator: " "))
        guard words.count >= 2 else { return nil }  // one word ("Press") is too vague to guess from
        let candidates = exercises.compactMap { e -> (Exercise, Int)? in
            let theirs = Set(Self.nameKey(e.name).split(separator: " "))
            return words.isSubset(of: theirs) ? (e, theirs.count - words.count) : nil
        }
        guard let fewest = candidates.map(\.1).min() else { return nil }
        let closest = candidates.filter { $0.1 == fewest }
        return closest.count == 1 ? closest[0].0 : nil
    }

    /// Strong's and Hevy's names (as name keys) for catalogue exercises named otherwise.
    public static let aliases: [String: String] = {
        let pairs: [(String, String)] = [
            ("Deadlift (Barbell)", "conventional-deadlift"), ("Deadlift", "conventional-deadlift"),
            ("Squat (Barbell)", "barbell-back-squat"), ("Back Squat (Barbell)", "barbell-back-squat"),
            ("Overhead Press (Barbell)", "barbell-overhead-press"), ("Strict Military Press (Barbell)", "barbell-overhead-press"),
            ("Shoulder Press (Dumbbell)", "seated-dumbbell-shoulder-press"), ("Seated Overhead Press (Dumbbell)", "seated-dumbbell-shoulder-press"),
            ("Bicep Curl (Barbell)", "barbell-curl"), ("Bicep Curl (Dumbbell)", "dumbbell-curl"), ("Bicep Curl (Cable)", "cable-curl"),
            ("Triceps Pushdown (Cable - Straight Bar)", "cable-triceps-pushdown"), ("Triceps Pushdown", "cable-triceps-pushdown"),
            ("Triceps Rope Pushdown", "cable-triceps-pushdown"), ("Skullcrusher (Barbell)", "ez-bar-skull-crusher"),
            ("Lateral Raise (Dumbbell)", "dumbbell-lateral-raise"), ("Lateral Raise (Cable)", "cable-lateral-raise"),
            ("Front Raise (Dumbbell)", "dumbbell-front-raise"), ("Reverse Fly (Dumbbell)", "rear-delt-dumbbell-fly"),
            ("Chest Fly (Dumbbell)", "dumbbell-fly"), ("Chest Fly (Machine)", "pec-deck-fly"), ("Butterfly (Pec Deck)", "pec-deck-fly"),
            ("Chest Press (Machine)", "machine-chest-press"), ("Incline Bench Press (Dumbbell)", "incline-dumbbell-press"),
            ("Lat Pulldown (Cable)", "lat-pulldown"), ("Seated Row (Cable)", "seated-cable-row"), ("Seated Cable Row - V Grip (Cable)", "seated-cable-row"),
            ("Dumbbell Row", "one-arm-dumbbell-row"), ("Bent Over One Arm Row (Dumbbell)", "one-arm-dumbbell-row"),
            ("Leg Extension (Machine)", "leg-extension"), ("Lying Leg Curl (Machine)", "lying-leg-curl"), ("Seated Leg Curl (Machine)", "lying-leg-curl"),
            ("Leg Press (Machine)", "leg-press"), ("Hip Thrust (Barbell)", "barbell-hip-thrust"),
            ("Standing Calf Raise (Machine)", "standing-calf-raise"), ("Calf Raise (Standing)", "standing-calf-raise"),
            ("Seated Calf Raise (Machine)", "seated-calf-raise"), ("Lunge (Dumbbell)", "dumbbell-walking-lunge"), ("Walking Lunge (Dumbbell)", "dumbbell-walking-lunge"),
            ("Shrug (Barbell)", "barbell-shrug"), ("Shrug (Dumbbell)", "dumbbell-shrug"), ("Upright Row (Barbell)", "barbell-upright-row"),
            ("Triceps Dip", "bench-dip"), ("Chest Dip (Assisted)", "chest-dip"), ("Sit Up", "decline-sit-up"), ("Leg Raise Parallel Bars", "hanging-leg-raise"),
        ]
        var out = [String: String]()
        for (name, id) in pairs { out[nameKey(name)] = id }
        return out
    }()

    /// Lowercased letters and digits of the words, sorted, so word order and an equipment note
    /// in parentheses do not matter.
    public static func nameKey(_ name: String) -> String {
        var words = [String]()
        var current = ""
        for c in name.lowercased() {
            if c.isLetter || c.isNumber {
                current.append(c)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        let singular = words.map { $0.count >= 3 && $0.hasSuffix("s") && !$0.hasSuffix("ss") ? String($0.dropLast()) : $0 }
        return singular.sorted().joined(separator: " ")
    }
}
