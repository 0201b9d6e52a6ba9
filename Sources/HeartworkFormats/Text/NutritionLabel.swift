import Foundation

/// A nutrition label read from its text (typed, pasted, or what OCR made of a photo): the US
/// "Nutrition Facts" panel (2016 and earlier layouts) and the EU "Nutrition declaration"
/// (energy in kJ/kcal, "of which saturates", salt). Values are per serving as the label
/// gives them (per 100 g on an EU label that gives no portion).
///
/// "Unhealthy" follows the FDA's rule of thumb for the % Daily Value ("5 % DV or less is low,
/// 20 % DV or more is high", FDA, "How to Understand and Use the Nutrition Facts Label",
/// 2022), on the 2020 label's Daily Values — saturated fat 20 g, sodium 2,300 mg, added
/// sugars 50 g, total fat 78 g — so a serving is high in one when it holds ≥ 4 g saturated
/// fat, ≥ 460 mg sodium, ≥ 10 g added sugars or ≥ 15.6 g fat; any trans fat at all (the FDA
/// no longer recognises partially hydrogenated oils as safe, 2015, and labels show it from
/// 0.5 g); and, when a label gives total sugars but no added sugars, ≥ 27 g of sugars (the UK
/// Food Standards Agency's per-portion "high" for sugars). Seed 003 named the fields
/// (calories, trans fat, sodium …) but gave no thresholds; these are Heartwork's, documented
/// in docs/DAILY-HEALTH.md (with the per-100 g levels for EU labels, `basis`).
public struct NutritionLabel: Sendable, Hashable, Codable {
    public var servingSize: String?
    public var calories: Double?
    public var totalFatGrams: Double?
    public var saturatedFatGrams: Double?
    public var transFatGrams: Double?
    public var cholesterolMilligrams: Double?
    public var sodiumMilligrams: Double?
    public var carbohydrateGrams: Double?
    public var fiberGrams: Double?
    public var sugarsGrams: Double?
    public var addedSugarsGrams: Double?
    public var proteinGrams: Double?
    public var unhealthy: Bool
    /// Why it is unhealthy, one line a nutrient.
    public var reasons: [String]
    /// What the values are for: "serving" (a US panel, or a label with a portion), "100 g" or
    /// "100 ml" (an EU declaration, whose first column is per 100 g or 100 ml). Per 100 g/ml the
    /// judgement uses the UK's front-of-pack "high" levels (Department of Health and FSA,
    /// "Guide to creating a front of pack nutrition label", 2016): food over 17.5 g fat, 5 g
    /// saturates, 22.5 g sugars or 1.5 g salt (600 mg sodium) per 100 g; drinks half of that
    /// per 100 ml. A serving's limits applied to 100 g would call most cheese healthy and
    /// most bread salty.
    public var basis: String = "serving"

    /// The UK's per-100 g "high" levels for food (per 100 ml for drinks: half).
    public enum PerHundredGrams {
        public static let totalFatGrams = 17.5
        public static let saturatedFatGrams = 5.0
        public static let sugarsGrams = 22.5
        public static let sodiumMilligrams = 600.0
    }

    public enum Threshold {
        public static let saturatedFatGrams = 4.0
        public static let sodiumMilligrams = 460.0
        public static let addedSugarsGrams = 10.0
        public static let totalFatGrams = 15.6
        public static let sugarsGrams = 27.0
    }

    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    enum Field: CaseIterable {
        case calories, energy, totalFat, saturatedFat, transFat, cholesterol, sodium, salt, carbohydrate, fiber, sugars, addedSugars, protein,
            caloriesFromFat, servingSize
    }

    /// Phrases (lower-case words) naming each field; the longest match wins.
    static let phrases: [([String], Field)] = [
        (["calories", "from", "fat"], .caloriesFromFat), (["calories"], .calories), (["calorie"], .calories), (["energy"], .energy),
        (["total", "fat"], .totalFat), (["fat"], .totalFat), (["saturated", "fat"], .saturatedFat), (["sat.", "fat"], .saturatedFat),
        (["sat", "fat"], .saturatedFat), (["of", "which", "saturates"], .saturatedFat), (["saturates"], .saturatedFat),
        (["trans", "fat"], .transFat), (["cholesterol"], .cholesterol), (["sodium"], .sodium), (["salt"], .salt),
        (["total", "carbohydrate"], .carbohydrate), (["total", "carbohydrates"], .carbohydrate), (["carbohydrate"], .carbohydrate),
        (["carbohydrates"], .carbohydrate), (["total", "carbs"], .carbohydrate), (["carbs"], .carbohydrate),
        (["dietary", "fiber"], .fiber), (["dietary", "fibre"], .fiber), (["fiber"], .fiber), (["fibre"], .fiber),
        (["total", "sugars"], .sugars), (["sugars"], .sugars), (["of", "which", "sugars"], .sugars), (["sugar"], .sugars),
        (["added", "sugars"], .addedSugars), (["protein"], .protein), (["serving", "size"], .servingSize),
    ]

    /// Reads a label; throws when the text holds no nutrient with a value.
    public static func parse(_ text: String) throws(ParseError) -> NutritionLabel {
        guard text.utf8.count <= 64 * 1024 else { throw ParseError(description: "the label text is longer than 64 KB") }
        var label = NutritionLabel(unhealthy: false, reasons: [])
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let tokens = lines.enumerated().flatMap { line, text in tokenize(text).map { (word: $0, line: line) } }
        let words = tokens.map(\.word)
        var i = 0
        while i < words.count {
            guard let (length, field) = match(words, at: i) else {
                i += 1
                continue
            }
            let after = i + length
            switch field {
            case .caloriesFromFat: break
            case .servingSize:
                let line = tokens[i].line
                let rest = tokens[after...].prefix { $0.line == line }.map(\.word).joined(separator: " ")
                if !rest.isEmpty, label.servingSize == nil { label.servingSize = String(rest.prefix(80)) }
            case .energy:
                // "Energy 1046 kJ / 250 kcal": the kcal figure, else kJ ÷ 4.184.
                var kcal: Double?
                var kilojoules: Double?
                for j in after..<min(words.count, after + 8) {
                    guard let amount = quantity(words, at: j) else { continue }
                    if amount.unit == "kcal" {
                        kcal = amount.value
                        break
                    }
                    if amount.unit == "kj" && kilojoules == nil { kilojoules = amount.value }
                }
                if label.calories == nil, let value = kcal ?? kilojoules.map({ ($0 / 4.184).rounded() }) { label.calories = value }
            case .addedSugars:
                // "Includes 10g Added Sugars": the amount comes before the name.
                let before = i >= 1 ? quantity(words, at: i - 1) : nil
                if let amount = before ?? next(words, after: after), label.addedSugarsGrams == nil { label.addedSugarsGrams = grams(amount) }
            default:
                guard let amount = next(words, after: after) else { break }
                switch field {
                case .calories: if label.calories == nil, amount.unit == nil || amount.unit == "kcal" || amount.unit == "cal" { label.calories = amount.value }
                case .totalFat: if label.totalFatGrams == nil { label.totalFatGrams = grams(amount) }
                case .saturatedFat: if label.saturatedFatGrams == nil { label.saturatedFatGrams = grams(amount) }
                case .transFat: if label.transFatGrams == nil { label.transFatGrams = grams(amount) }
                case .cholesterol: if label.cholesterolMilligrams == nil { label.cholesterolMilligrams = milligrams(amount) }
                case .sodium: if label.sodiumMilligrams == nil { label.sodiumMilligrams = milligrams(amount) }
                case .salt:
                    // Salt is sodium chloride: 1 g of salt holds 400 mg of sodium (EU Regulation 1169/2011, Annex I).
                    if label.sodiumMilligrams == nil, let g = grams(amount) { label.sodiumMilligrams = (g * 400).rounded() }
                case .carbohydrate: if label.carbohydrateGrams == nil { label.carbohydrateGrams = grams(amount) }
                case .fiber: if label.fiberGrams == nil { label.fiberGrams = grams(amount) }
                case .sugars: if label.sugarsGrams == nil { label.sugarsGrams = grams(amount) }
                case .protein: if label.proteinGrams == nil { label.proteinGrams = grams(amount) }
                default: break
                }
            }
            i = after
        }
        let found: [Double?] = [
            label.calories, label.totalFatGrams, label.saturatedFatGrams, label.transFatGrams, label.cholesterolMilligrams,
            label.sodiumMilligrams, label.carbohydrateGrams, label.fiberGrams, label.sugarsGrams, label.addedSugarsGrams, label.proteinGrams,
        ]
        guard found.contains(where: { $0 != nil }) else {
            throw ParseError(description: "no nutrition facts found in the text: expected lines such as \"Calories 230\", \"Total Fat 8g\" or \"Sodium 160mg\"")
        }
        label.basis = basis(of: text)
        label.judge()
        return label
    }

    /// "per 100 g", "100g", "/100 ml" on the label: the values are per 100 g or 100 ml.
    static func basis(of text: String) -> String {
        let lower = text.lowercased()
        func has(_ pattern: String) -> Bool { lower.range(of: pattern, options: .regularExpression) != nil }
        if has(#"(per|/)\s*100\s*ml"#) || has(#"100\s*ml\b"#) && !has(#"(per|/)\s*100\s*g\b"#) { return "100 ml" }
        if has(#"(per|/)\s*100\s*g\b"#) || has(#"\b100\s*g\b"#) && has(#"nutrition declaration|energy|saturates"#) { return "100 g" }
        return "serving"
    }

    mutating func judge() {
        var reasons = [String]()
        func format(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value) }
        if basis != "serving" {
            // The UK's per-100 g (food) or per-100 ml (drinks, half) "high" levels.
            let scale = basis == "100 ml" ? 0.5 : 1
            let per = "per \(basis)"
            func limit(_ value: Double) -> String {
                var text = String(format: "%.2f", value * scale)
                while text.hasSuffix("0") { text.removeLast() }
                if text.hasSuffix(".") { text.removeLast() }
                return text
            }
            if let v = saturatedFatGrams, v > PerHundredGrams.saturatedFatGrams * scale {
                reasons.append("saturated fat \(format(v)) g \(per) (high is over \(limit(PerHundredGrams.saturatedFatGrams)) g)")
            }
            if let v = transFatGrams, v > 0 { reasons.append("trans fat \(format(v)) g (best avoided altogether)") }
            if let v = sodiumMilligrams, v > PerHundredGrams.sodiumMilligrams * scale {
                reasons.append("salt \(format(v / 400)) g \(per) (high is over \(limit(PerHundredGrams.sodiumMilligrams / 400)) g)")
            }
            if let v = addedSugarsGrams ?? sugarsGrams, v > PerHundredGrams.sugarsGrams * scale {
                reasons.append("sugars \(format(v)) g \(per) (high is over \(limit(PerHundredGrams.sugarsGrams)) g)")
            }
            if let v = totalFatGrams, v > PerHundredGrams.totalFatGrams * scale {
                reasons.append("fat \(format(v)) g \(per) (high is over \(limit(PerHundredGrams.totalFatGrams)) g)")
            }
            self.reasons = reasons
            unhealthy = !reasons.isEmpty
            return
        }
        if let v = saturatedFatGrams, v >= Threshold.saturatedFatGrams { reasons.append("saturated fat \(format(v)) g (20 % of the daily value is 4 g)") }
        if let v = transFatGrams, v > 0 { reasons.append("trans fat \(format(v)) g (best avoided altogether)") }
        if let v = sodiumMilligrams, v >= Threshold.sodiumMilligrams { reasons.append("sodium \(format(v)) mg (20 % of the daily value is 460 mg)") }
        if let v = addedSugarsGrams, v >= Threshold.addedSugarsGrams {
            reasons.append("added sugars \(format(v)) g (20 % of the daily value is 10 g)")
        } else if addedSugarsGrams == nil, let v = sugarsGrams, v >= Threshold.sugarsGrams {
            reasons.append("sugars \(format(v)) g (27 g a portion is high)")
        }
        if let v = totalFatGrams, v >= Threshold.totalFatGrams { reasons.append("fat \(format(v)) g (20 % of the daily value is 15.6 g)") }
        self.reasons = reasons
        unhealthy = !reasons.isEmpty
    }

    /// Lower-case words; OCR's letter O and l inside amounts ("Og", "lmg") read as 0 and 1;
    /// decimal commas as points; "%" values kept (they are skipped as amounts).
    static func tokenize(_ line: String) -> [String] {
        line.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "|" || $0 == "*" }).compactMap { raw in
            var word = String(raw).trimmingCharacters(in: CharacterSet(charactersIn: ":;,()[]"))
            if word.hasPrefix("less") { return nil }
            if let unitStart = word.firstIndex(where: { $0 == "g" || $0 == "m" }), unitStart > word.startIndex,
                ["g", "mg", "mcg"].contains(String(word[unitStart...]))
            {
                let number = word[..<unitStart].map { $0 == "o" ? "0" : $0 == "l" || $0 == "i" ? "1" : $0 }
                if number.allSatisfy({ $0.isNumber || $0 == "." || $0 == "," || $0 == "<" }) { word = String(number) + word[unitStart...] }
            }
            if word == "o" { word = "0" }
            return word.isEmpty ? nil : word
        }
    }

    static func match(_ words: [String], at index: Int) -> (Int, Field)? {
        var best: (Int, Field)?
        for (phrase, field) in phrases where phrase.count > (best?.0 ?? 0) && index + phrase.count <= words.count {
            if zip(phrase, words[index..<(index + phrase.count)]).allSatisfy({ $0 == $1 }) { best = (phrase.count, field) }
        }
        return best
    }

    /// An amount at `index`: "8g", "8 g", "<1g", "0,5 g", "230", "1046kj"; nil for "10%".
    static func quantity(_ words: [String], at index: Int) -> (value: Double, unit: String?)? {
        guard index >= 0, index < words.count else { return nil }
        var word = Substring(words[index])
        if word.hasPrefix("<") { word = word.dropFirst() }
        let digits = word.prefix { $0.isNumber || $0 == "." || $0 == "," }
        guard !digits.isEmpty, let value = Double(digits.replacingOccurrences(of: ",", with: ".")), value.isFinite, value >= 0, value < 100_000 else { return nil }
        var unit = String(word.dropFirst(digits.count))
        if unit == "%" { return nil }
        if unit.isEmpty, index + 1 < words.count, ["g", "mg", "mcg", "kcal", "kj", "cal"].contains(words[index + 1]) { unit = words[index + 1] }
        guard unit.isEmpty || ["g", "mg", "mcg", "kcal", "kj", "cal"].contains(unit) else { return nil }
        return (value, unit.isEmpty ? nil : unit)
    }

    /// The first amount within three words after a name (skipping "%" values).
    static func next(_ words: [String], after index: Int) -> (value: Double, unit: String?)? {
        for j in index..<min(words.count, index + 3) {
            if match(words, at: j) != nil { return nil }
            if let amount = quantity(words, at: j) { return amount }
        }
        return nil
    }

    static func grams(_ amount: (value: Double, unit: String?)) -> Double? {
        switch amount.unit {
        case nil, "g": amount.value
        case "mg": amount.value / 1000
        case "mcg": amount.value / 1_000_000
        default: nil
        }
    }

    static func milligrams(_ amount: (value: Double, unit: String?)) -> Double? {
        switch amount.unit {
        case nil, "mg": amount.value
        case "g": amount.value * 1000
        case "mcg": amount.value / 1000
        default: nil
        }
    }
}
