/// A strength goal, Pocket PT's three (seed-002 §2.3, §3.2, §3.3.2). The raw values are the
/// seed's own generator strings and Heartwork's API values.
public enum StrengthGoal: String, Sendable, Hashable, Codable, CaseIterable {
    case weightLoss = "WeightLoss"
    case muscleMaintenance = "MuscleMaintenance"
    case massGain = "MassGain"

    /// Reps per set for the goal (seed-002 §3.3.2 `calculateReps`): 15, 12, 8.
    public var targetReps: Int {
        switch self {
        case .weightLoss: 15
        case .muscleMaintenance: 12
        case .massGain: 8
        }
    }

    public var displayName: String {
        switch self {
        case .weightLoss: "Weight loss"
        case .muscleMaintenance: "Muscle maintenance"
        case .massGain: "Mass gain"
        }
    }

    /// Accepts the API value (`MassGain`) and the command line's kebab form (`mass-gain`).
    public init?(loose text: String) {
        let key = text.lowercased().filter { $0.isLetter }
        guard let goal = Self.allCases.first(where: { $0.rawValue.lowercased() == key }) else { return nil }
        self = goal
    }
}

/// How active a person's days are, the four categories whose physical-activity coefficient
/// the seed's Gerrior equation takes (seed-002 §3.1). The raw values are Heartwork's API
/// strings; `seedName` is the seed's code string ("High active" is the docs' "Very active").
public enum Lifestyle: String, Sendable, Hashable, Codable, CaseIterable {
    case sedentary
    case lowActive = "low-active"
    case active
    case highActive = "high-active"

    public var seedName: String {
        switch self {
        case .sedentary: "Sedentary"
        case .lowActive: "Low active"
        case .active: "Active"
        case .highActive: "High active"
        }
    }

    public var displayName: String {
        switch self {
        case .sedentary: "Sedentary"
        case .lowActive: "Low active"
        case .active: "Active"
        case .highActive: "Very active"
        }
    }

    /// Accepts `high-active`, `High active`, `highActive`, and the docs' `very-active`.
    public init?(loose text: String) {
        let key = text.lowercased().filter { $0.isLetter }
        switch key {
        case "sedentary": self = .sedentary
        case "lowactive": self = .lowActive
        case "active": self = .active
        case "highactive", "veryactive": self = .highActive
        default: return nil
        }
    }
}

/// The six top-level muscle groups of Pocket PT's catalogue. The order of `allCases` is the
/// seed generator's counter order (0 Shoulders, 1 Chest, 2 Back, 3 Arms, 4 Legs, 5 Abs,
/// seed-002 §3.3.5); pages list them in the mock-up order, `displayOrder`.
public enum MuscleGroup: String, Sendable, Hashable, Codable, CaseIterable {
    case shoulders = "Shoulders"
    case chest = "Chest"
    case back = "Back"
    case arms = "Arms"
    case legs = "Legs"
    case abs = "Abs"

    public static let displayOrder: [MuscleGroup] = [.chest, .shoulders, .arms, .back, .legs, .abs]
}
