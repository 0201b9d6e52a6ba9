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
    /// Other names for it, as other apps write them ("Clean and Jerk (Barbell)"): matched like
    /// the name (`StrengthCatalogue.exercise(named:)`).
    public var aliases: [String]
    /// Its picture's file name under the catalogue's `images/` ("squat.svg", a line drawing of
    /// its movement, docs/STRENGTH.md), served at /static/exercises/NAME; nil for none (a
    /// user's own exercise).
    public var image: String?
    /// The picture's licence ("CC0-1.0, drawn for Heartwork …"), with `image`.
    public var imageLicence: String?

    public init(
        id: String, name: String, group: MuscleGroup, primaryMuscle: String, secondaryMuscles: [String], equipment: String,
        loaded: Bool, measure: ExerciseMeasure = .reps, instructions: String, licence: String, attribution: String, aliases: [String] = [],
        image: String? = nil, imageLicence: String? = nil
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
        self.aliases = aliases
        self.image = image
        self.imageLicence = imageLicence
    }

    /// One of a user's own exercises (created by them, or by an import for a name the
    /// catalogue lacks), not the catalogue's: its id starts with `StrengthCatalogue.customPrefix`.
    public var isCustom: Bool { id.hasPrefix(StrengthCatalogue.customPrefix) }

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
    /// Name keys of every name and alias → the exercise's position.
    private let names: [String: Int]
    /// Each exercise's name key, split into words (for the closest-name rule).
    private let words: [Set<Substring>]

    /// Ids of users' own exercises start with this; no catalogue id does (the check script
    /// refuses one).
    public static let customPrefix = "custom-"

    public init(exercises: [Exercise], routines: [RoutineTemplate], licence: String, attribution: String) {
        self.exercises = exercises.sorted { $0.name < $1.name }
        self.routines = routines
        self.licence = licence
        self.attribution = attribution
        var index = [String: Int]()
        var names = [String: Int]()
        for (i, exercise) in self.exercises.enumerated() {
            index[exercise.id] = i
            names[Self.nameKey(exercise.name)] = names[Self.nameKey(exercise.name)] ?? i
        }
        // Names first: an alias never takes a name's place.
        for (i, exercise) in self.exercises.enumerated() {
            for alias in exercise.aliases { names[Self.nameKey(alias)] = names[Self.nameKey(alias)] ?? i }
        }
        self.index = index
        self.names = names
        self.words = self.exercises.map { Set(Self.nameKey($0.name).split(separator: " ")) }
    }

    public func exercise(_ id: String) -> Exercise? { index[id].map { exercises[$0] } }

    /// An exercise found by its name as other apps write it. In order: a name or an alias
    /// (`Exercise.aliases`, the names Strong and Hevy use where their words differ from ours)
    /// with the same words in any order, case and punctuation ignored ("Bench Press (Barbell)"
    /// → "Barbell Bench Press"); then the one catalogue name that contains all of the given
    /// words with the fewest others, if only one is closest. Otherwise nil: the caller makes
    /// it a custom exercise rather than guess.
    public func exercise(named name: String) -> Exercise? {
        let wanted = Self.nameKey(name)
        if let i = names[wanted] { return exercises[i] }
        let given = Set(wanted.split(separator: " "))
        guard given.count >= 2 else { return nil }  // one word ("Press") is too vague to guess from
        var best = Int.max
        var found = [Int]()
        for (i, theirs) in words.enumerated() where given.isSubset(of: theirs) {
            let extra = theirs.count - given.count
            if extra < best {
                best = extra
                found = [i]
            } else if extra == best {
                found.append(i)
            }
        }
        return found.count == 1 ? exercises[found[0]] : nil
    }

    /// The exercise whose name or alias reads the same (word order, case, punctuation and a
    /// final s aside), without the closest-name guess.
    public func exercise(exactlyNamed name: String) -> Exercise? { names[Self.nameKey(name)].map { exercises[$0] } }

    /// For a name the catalogue lacks: the catalogue exercise sharing most of its words (ties:
    /// the fewest other words, then the name), to borrow a muscle group from. Nil when no
    /// word is shared.
    public func nearest(to name: String) -> Exercise? {
        let given = Set(Self.nameKey(name).split(separator: " "))
        var best: (shared: Int, extra: Int, index: Int)?
        for (i, theirs) in words.enumerated() {
            let shared = given.intersection(theirs).count
            guard shared > 0 else { continue }
            let extra = theirs.count - shared
            if best == nil || shared > best!.shared || (shared == best!.shared && extra < best!.extra) { best = (shared, extra, i) }
        }
        return best.map { exercises[$0.index] }
    }

    /// The equipment a name says it uses ("Row (Kettlebell)" → "kettlebell"), or nil.
    public static func equipment(named name: String) -> String? {
        let words = Set(nameKey(name).split(separator: " "))
        if words.contains("smith") { return "smith-machine" }
        if words.contains("ez") { return "ez-bar" }
        if words.contains("trap") || words.contains("hex") { return "trap-bar" }
        for candidate in ["barbell", "dumbbell", "kettlebell", "cable", "machine", "band", "plate", "landmine", "bodyweight"]
        where words.contains(Substring(candidate)) {
            return candidate
        }
        return nil
    }

    /// Lowercased letters and digits of the words, sorted, so word order and an equipment note
    /// in parentheses do not matter; a final "s" is dropped from words of three letters or
    /// more ("Push Ups" reads as "Push Up"), not from "ss".
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
