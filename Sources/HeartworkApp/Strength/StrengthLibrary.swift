import HeartworkCore
import HeartworkFormats

/// What every user shares: the exercise catalogue and built-in routines, the sentiment
/// lexicon and the motivation messages, read once from the files embedded in the binary
/// (`Sources/HeartworkApp/Resources/strength/`, docs/STRENGTH.md).
public struct StrengthLibrary: Sendable {
    public let catalogue: StrengthCatalogue
    public let scorer: SentimentScorer
    public let messages: MotivationMessages

    /// Reads the embedded files; an error names the file and the path or line in it.
    public static func embedded() throws -> StrengthLibrary {
        let catalogue: StrengthCatalogue
        do {
            catalogue = try StrengthCatalogueJSON.read(exercises: PackageResources.exercises_json, routines: PackageResources.routines_json)
        } catch {
            throw AppError(.unavailable, "the strength catalogue (exercises.json, routines.json) is damaged: \(error)")
        }
        let scorer: SentimentScorer
        do {
            scorer = try SentimentLexiconFile.read(
                lexicon: String(decoding: PackageResources.sentiment_lexicon_tsv, as: UTF8.self),
                modifiers: String(decoding: PackageResources.lexicon_modifiers_tsv, as: UTF8.self))
        } catch {
            throw AppError(.unavailable, "the sentiment lexicon is damaged: \(error)")
        }
        let messages: MotivationMessages
        do {
            messages = try MotivationJSON.read(PackageResources.motivation_json)
        } catch {
            throw AppError(.unavailable, "motivation.json is damaged: \(error)")
        }
        return StrengthLibrary(catalogue: catalogue, scorer: scorer, messages: messages)
    }
}
