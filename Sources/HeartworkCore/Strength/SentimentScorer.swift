/// Scores a post-workout review from −5 to +5, as Pocket PT's Octoblu flow did (seed-002
/// §2.9: "score from −5 to +5", "≥ 0 means positive"). Heartwork's own design, since the
/// seed's component was a black box: a lexicon of words with integer weights (−5…+5, our
/// own file, `Resources/strength/sentiment-lexicon.tsv`), summed over the review's words,
/// with two modifiers — a negator among the three words before flips a word's sign ("not
/// good"), a booster just before adds one to its size ("very sore"), neither reaching across
/// a clause (`.` `,` `;` `!` `?` or "but": "not great. Tired." keeps "tired" negative) — and
/// the sum clamped to [−5, +5]. A review with no lexicon word scores 0, positive, as the
/// seed's neutral did.
public struct SentimentScorer: Sendable {
    public static let range = -5...5
    public let weights: [String: Int]
    public let negators: Set<String>
    public let boosters: Set<String>

    public init(weights: [String: Int], negators: Set<String>, boosters: Set<String>) {
        self.weights = weights
        self.negators = negators
        self.boosters = boosters
    }

    public struct Scored: Sendable, Hashable {
        public var score: Int
        /// The words that counted and what each added, in order (for a transparent answer).
        public var contributions: [(word: String, value: Int)]
        public var isPositive: Bool { score >= 0 }

        public static func == (a: Scored, b: Scored) -> Bool {
            a.score == b.score && a.contributions.map(\.word) == b.contributions.map(\.word) && a.contributions.map(\.value) == b.contributions.map(\.value)
        }
        public func hash(into hasher: inout Hasher) { hasher.combine(score) }
    }

    public func score(_ text: String) -> Scored {
        var total = 0
        var contributions = [(word: String, value: Int)]()
        for clause in Self.clauses(text) {
            for (index, word) in clause.enumerated() {
                guard var value = weights[word] else { continue }
                if index > 0, boosters.contains(clause[index - 1]) { value += value > 0 ? 1 : -1 }
                if clause[max(0, index - 3)..<index].contains(where: negators.contains) { value = -value }
                total += value
                contributions.append((word, value))
            }
        }
        return Scored(score: min(Self.range.upperBound, max(Self.range.lowerBound, total)), contributions: contributions)
    }

    /// The review's clauses, each a list of words: split at `.` `,` `;` `:` `!` `?` and
    /// before "but"; at most 2,000 words in all.
    public static func clauses(_ text: String) -> [[String]] {
        var clauses = [[String]]()
        var count = 0
        for piece in text.split(whereSeparator: { ".,;:!?\n".contains($0) }) {
            var clause = [String]()
            for word in words(String(piece)) {
                if word == "but", !clause.isEmpty {
                    clauses.append(clause)
                    clause = []
                }
                clause.append(word)
                count += 1
                if count >= 2000 { break }
            }
            if !clause.isEmpty { clauses.append(clause) }
            if count >= 2000 { break }
        }
        return clauses
    }

    /// Lowercased words of letters and apostrophes (typographic apostrophes made plain),
    /// at most 2,000 of them: a review longer than that is scored on its beginning.
    public static func words(_ text: String) -> [String] {
        var words = [String]()
        var current = ""
        for scalar in text.lowercased().unicodeScalars {
            let c: Unicode.Scalar = scalar == "\u{2019}" || scalar == "\u{2018}" ? "'" : scalar
            if (c >= "a" && c <= "z") || c == "'" {
                current.unicodeScalars.append(c)
            } else if !current.isEmpty {
                words.append(current.trimmingApostrophes)
                current = ""
                if words.count >= 2000 { break }
            }
        }
        if !current.isEmpty, words.count < 2000 { words.append(current.trimmingApostrophes) }
        return words.filter { !$0.isEmpty }
    }
}

extension String {
    fileprivate var trimmingApostrophes: String {
        var s = Substring(self)
        while s.first == "'" { s = s.dropFirst() }
        while s.last == "'" { s = s.dropLast() }
        return String(s)
    }
}

/// The messages shown after a review: each positive one applies from a minimum score up,
/// each negative one from a maximum down. The most specific applicable ones (highest
/// minimum, lowest maximum) are chosen among, turned by `rotation` so a user does not see
/// the same sentence every time.
public struct MotivationMessages: Sendable, Hashable {
    public struct Message: Sendable, Hashable {
        public var threshold: Int
        public var text: String
        public init(threshold: Int, text: String) {
            self.threshold = threshold
            self.text = text
        }
    }

    public var positive: [Message]
    public var negative: [Message]

    public init(positive: [Message], negative: [Message]) {
        self.positive = positive
        self.negative = negative
    }

    public func message(for score: Int, rotation: Int) -> String? {
        let candidates: [Message]
        if score >= 0 {
            let applicable = positive.filter { $0.threshold <= score }
            let best = applicable.map(\.threshold).max()
            candidates = applicable.filter { $0.threshold == best }
        } else {
            let applicable = negative.filter { $0.threshold >= score }
            let best = applicable.map(\.threshold).min()
            candidates = applicable.filter { $0.threshold == best }
        }
        guard !candidates.isEmpty else { return nil }
        let index = ((rotation % candidates.count) + candidates.count) % candidates.count
        return candidates[index].text
    }
}
