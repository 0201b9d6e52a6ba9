import HeartworkCore

/// Reads the catalogue and routine files (`Resources/strength/exercises.json`,
/// `routines.json` of HeartworkApp; their format is in docs/STRENGTH.md). Strict: an unknown
/// member, a group outside the six, a duplicate id or a routine naming a missing exercise is
/// an error naming its path.
public enum StrengthCatalogueJSON {
    public static func read(exercises: [UInt8], routines: [UInt8]) throws(JSONFieldError) -> StrengthCatalogue {
        let top = try JSONObjectReader(parsing: exercises, allowed: ["licence", "attribution", "exercises"])
        var list = [Exercise]()
        var ids = Set<String>()
        for (i, value) in try top.array("exercises").enumerated() {
            let path = "exercises[\(i)]"
            let item = try JSONObjectReader(
                value, path: path,
                allowed: [
                    "id", "name", "aliases", "group", "primary", "secondary", "equipment", "loaded", "measure", "instructions", "licence", "attribution",
                    "image", "imageLicence",
                ])
            let id = try item.string("id")
            guard ids.insert(id).inserted else { throw JSONFieldError(.invalidValue, path: item.path("id"), "duplicate exercise id \(id)") }
            guard let group = MuscleGroup(rawValue: try item.string("group")) else {
                throw JSONFieldError(.invalidValue, path: item.path("group"), "expected one of \(MuscleGroup.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let secondary = try item.array("secondary").enumerated().map { j, v throws(JSONFieldError) in
                try JSONObjectReader.string(v, "\(item.path("secondary"))[\(j)]")
            }
            var aliases = [String]()
            if item.contains("aliases") {
                aliases = try item.array("aliases").enumerated().map { j, v throws(JSONFieldError) in
                    try JSONObjectReader.string(v, "\(item.path("aliases"))[\(j)]")
                }
            }
            guard !id.hasPrefix(StrengthCatalogue.customPrefix) else {
                throw JSONFieldError(.invalidValue, path: item.path("id"), "ids starting \(StrengthCatalogue.customPrefix) are for users' own exercises")
            }
            guard let loaded = try item.optionalBool("loaded") else { throw JSONFieldError(.missing, path: item.path("loaded"), "required") }
            var measure = ExerciseMeasure.reps
            if let text = try item.optionalString("measure") {
                guard let found = ExerciseMeasure(rawValue: text) else {
                    throw JSONFieldError(.invalidValue, path: item.path("measure"), "expected one of \(ExerciseMeasure.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                measure = found
            }
            // A picture is a plain file name of the catalogue's images/ folder: no path, and
            // its licence with it.
            let image = try item.optionalString("image")
            var imageLicence: String?
            if let image {
                guard Self.isPictureName(image) else {
                    throw JSONFieldError(.invalidValue, path: item.path("image"), "expected a file name like squat.svg (a-z, 0-9 and -, then .svg)")
                }
                guard let licence = try item.optionalString("imageLicence"), !licence.isEmpty else {
                    throw JSONFieldError(.missing, path: item.path("imageLicence"), "required with image")
                }
                imageLicence = licence
            }
            list.append(
                Exercise(
                    id: id, name: try item.string("name"), group: group, primaryMuscle: try item.string("primary"), secondaryMuscles: secondary,
                    equipment: try item.string("equipment"), loaded: loaded, measure: measure, instructions: try item.string("instructions"),
                    licence: try item.string("licence"), attribution: try item.string("attribution"), aliases: aliases, image: image,
                    imageLicence: imageLicence))
        }
        let routineTop = try JSONObjectReader(parsing: routines, allowed: ["licence", "routines"])
        var templates = [RoutineTemplate]()
        for (i, value) in try routineTop.array("routines").enumerated() {
            let item = try JSONObjectReader(value, path: "routines[\(i)]", allowed: ["id", "name", "goal", "bodyweight", "description", "exercises"])
            guard let goal = StrengthGoal(rawValue: try item.string("goal")) else {
                throw JSONFieldError(.invalidValue, path: item.path("goal"), "expected one of \(StrengthGoal.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let exerciseIDs = try item.array("exercises").enumerated().map { j, v throws(JSONFieldError) in
                let id = try JSONObjectReader.string(v, "\(item.path("exercises"))[\(j)]")
                guard ids.contains(id) else { throw JSONFieldError(.invalidValue, path: "\(item.path("exercises"))[\(j)]", "no exercise \(id) in the catalogue") }
                return id
            }
            _ = try item.optionalBool("bodyweight")
            templates.append(
                RoutineTemplate(
                    id: try item.string("id"), name: try item.string("name"), goal: goal, description: try item.string("description"), exerciseIDs: exerciseIDs))
        }
        return StrengthCatalogue(
            exercises: list, routines: templates, licence: try top.string("licence"), attribution: try top.string("attribution"))
    }

    /// An exercise picture's name: lowercase letters, digits and single hyphens, then `.svg`
    /// ("front-squat.svg"); never a path.
    public static func isPictureName(_ name: String) -> Bool {
        guard name.hasSuffix(".svg") else { return false }
        let stem = name.utf8.dropLast(4)
        guard let first = stem.first, let last = stem.last, first != UInt8(ascii: "-"), last != UInt8(ascii: "-") else { return false }
        var previous: UInt8 = 0
        for byte in stem {
            let ok = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            guard ok, !(byte == UInt8(ascii: "-") && previous == UInt8(ascii: "-")) else { return false }
            previous = byte
        }
        return true
    }
}

/// Reads the sentiment lexicon (`word<TAB>score`, `#` comments) and its modifiers file
/// (`negator<TAB>word`, `booster<TAB>word`) into a `SentimentScorer`.
public enum SentimentLexiconFile {
    public static func read(lexicon: String, modifiers: String) throws(TextFormatError) -> SentimentScorer {
        var weights = [String: Int]()
        for (number, line) in lines(lexicon) {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 2, let score = Int(parts[1].strengthTrimmed), SentimentScorer.range.contains(score), score != 0 else {
                throw TextFormatError(line: number, "expected word<TAB>score with a score in −5…+5 other than 0")
            }
            weights[parts[0].strengthTrimmed.lowercased()] = score
        }
        var negators = Set<String>()
        var boosters = Set<String>()
        for (number, line) in lines(modifiers) {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw TextFormatError(line: number, "expected kind<TAB>word") }
            let word = parts[1].strengthTrimmed.lowercased()
            switch parts[0].strengthTrimmed {
            case "negator": negators.insert(word)
            case "booster": boosters.insert(word)
            default: throw TextFormatError(line: number, "the kind is negator or booster")
            }
        }
        return SentimentScorer(weights: weights, negators: negators, boosters: boosters)
    }

    static func lines(_ text: String) -> [(Int, String)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, raw in
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            let trimmed = line.strengthTrimmed
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : (index + 1, line)
        }
    }
}

/// Reads `motivation.json`: `{"licence", "positive": [{"min", "text"}], "negative": [{"max", "text"}]}`.
public enum MotivationJSON {
    public static func read(_ bytes: [UInt8]) throws(JSONFieldError) -> MotivationMessages {
        let top = try JSONObjectReader(parsing: bytes, allowed: ["licence", "positive", "negative"])
        func messages(_ key: String, bound: String) throws(JSONFieldError) -> [MotivationMessages.Message] {
            var out = [MotivationMessages.Message]()
            for (i, value) in try top.array(key).enumerated() {
                let item = try JSONObjectReader(value, path: "\(key)[\(i)]", allowed: [bound, "text"])
                out.append(.init(threshold: try item.integer(bound), text: try item.string("text")))
            }
            return out
        }
        return MotivationMessages(positive: try messages("positive", bound: "min"), negative: try messages("negative", bound: "max"))
    }
}

extension StringProtocol {
    var strengthTrimmed: String {
        String(self.drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
