import ArgumentParser
import Foundation
import HeartworkApp
import HeartworkFormats

/// `heartwork food-label`: a nutrition label's text → its values per serving and a verdict
/// (issue 11, iHeart Monitor's food scanner, seed 003 F8).
struct FoodLabelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "food-label",
        abstract: "Read a nutrition label's text: calories, fats, sodium, sugars, protein, and whether it is unhealthy.",
        discussion: """
            FILE holds the label's text as typed or as OCR gave it (US "Nutrition Facts" or an EU \
            nutrition declaration), or is a photo of the label (PNG, JPEG, TIFF, BMP, GIF, WebP), \
            read with Tesseract OCR when it is installed (Debian: apt-get install tesseract-ocr); \
            without FILE, or with "-", the text is read from standard input. A serving is unhealthy when it holds 20 % or more of the daily value of \
            saturated fat (4 g), sodium (460 mg) or added sugars (10 g) or of fat (15.6 g), any \
            trans fat, or — without an added-sugars line — 27 g of sugars (docs/DAILY-HEALTH.md).

            Examples:
              heartwork food-label label.txt
              heartwork food-label photo.jpg --format json
            """
    )

    @Argument(help: "A text file with the label, or a photo of it (default: standard input).")
    var file: String?

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func run() throws {
        print(try render())
    }

    func render() throws -> String {
        let bytes: [UInt8]
        if let file, file != "-" {
            bytes = try LocalFile.read(file)
        } else {
            bytes = [UInt8](FileHandle.standardInput.readData(ofLength: LabelReader.maximumImageBytes + 1))
        }
        let label: NutritionLabel
        do {
            label = try LabelReader.read(bytes)
        } catch {
            throw CommandFailure(error.description)
        }
        switch format {
        case .json: return try JSONOutput.render(label)
        case .table: return Self.table(label)
        }
    }

    static func table(_ label: NutritionLabel) -> String {
        func amount(_ value: Double?, _ unit: String) -> String? {
            value.map { ($0 == $0.rounded() ? String(Int($0)) : String(format: "%.1f", $0)) + " " + unit }
        }
        let rows: [(String, String?)] = [
            ("Serving size", label.servingSize), ("Calories", amount(label.calories, "kcal")), ("Fat", amount(label.totalFatGrams, "g")),
            ("Saturated fat", amount(label.saturatedFatGrams, "g")), ("Trans fat", amount(label.transFatGrams, "g")),
            ("Cholesterol", amount(label.cholesterolMilligrams, "mg")), ("Sodium", amount(label.sodiumMilligrams, "mg")),
            ("Carbohydrate", amount(label.carbohydrateGrams, "g")), ("Fibre", amount(label.fiberGrams, "g")),
            ("Sugars", amount(label.sugarsGrams, "g")), ("Added sugars", amount(label.addedSugarsGrams, "g")),
            ("Protein", amount(label.proteinGrams, "g")),
        ]
        let present = rows.compactMap { row in row.1.map { (row.0, $0) } }
        var lines = LabelledRows.lines(present)
        lines.append(label.unhealthy ? "Unhealthy:" : "Nothing above the thresholds.")
        lines += label.reasons.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }
}
