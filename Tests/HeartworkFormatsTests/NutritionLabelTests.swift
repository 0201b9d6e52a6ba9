import HeartworkFormats
import Testing

/// Nutrition labels as text (issue 11, seed 003 F8).
@Suite("Nutrition labels")
struct NutritionLabelTests {
    /// The FDA's sample label of the 2016 format ("Nutrition Facts Label Images for Download",
    /// FDA, the "original" lasagna-style sample: 8 servings, 230 calories), as typed.
    static let fdaSample = """
        Nutrition Facts
        8 servings per container
        Serving size 2/3 cup (55g)
        Amount per serving
        Calories 230
        % Daily Value*
        Total Fat 8g 10%
        Saturated Fat 1g 5%
        Trans Fat 0g
        Cholesterol 0mg 0%
        Sodium 160mg 7%
        Total Carbohydrate 37g 13%
        Dietary Fiber 4g 14%
        Total Sugars 12g
        Includes 10g Added Sugars 20%
        Protein 3g
        Vitamin D 2mcg 10%
        """

    @Test func theFDASampleLabel() throws {
        let label = try NutritionLabel.parse(Self.fdaSample)
        #expect(label.servingSize == "2/3 cup 55g")
        #expect(label.calories == 230)
        #expect(label.totalFatGrams == 8 && label.saturatedFatGrams == 1 && label.transFatGrams == 0)
        #expect(label.cholesterolMilligrams == 0 && label.sodiumMilligrams == 160)
        #expect(label.carbohydrateGrams == 37 && label.fiberGrams == 4)
        #expect(label.sugarsGrams == 12 && label.addedSugarsGrams == 10)
        #expect(label.proteinGrams == 3)
        // 10 g of added sugars is 20 % of the daily value: high.
        #expect(label.unhealthy && label.reasons == ["added sugars 10 g (20 % of the daily value is 10 g)"])
    }

    @Test func whatOCRMakesOfALabel() throws {
        // Typical OCR damage: letters for digits, units apart, lines run together, the old
        // "Calories from Fat" line, the number on the line after its name.
        let text = """
            NUTRITION FACTS Serving Size 1 bar (40 g)
            Calories
            190 Calories from Fat 70
            Total Fat 8 g 12% Saturated Fat 4.5g 23%
            Trans Fat Og
            Sodium 480 mg 20%
            Total Carbohydrate 27g 9%  Sugars 14g
            Protein lg
            """
        let label = try NutritionLabel.parse(text)
        #expect(label.calories == 190)
        #expect(label.totalFatGrams == 8 && label.saturatedFatGrams == 4.5 && label.transFatGrams == 0)
        #expect(label.sodiumMilligrams == 480 && label.carbohydrateGrams == 27 && label.sugarsGrams == 14 && label.proteinGrams == 1)
        #expect(label.unhealthy)
        #expect(label.reasons == ["saturated fat 4.5 g (20 % of the daily value is 4 g)", "sodium 480 mg (20 % of the daily value is 460 mg)"])
    }

    @Test func anEULabelWithKilojoulesAndSalt() throws {
        let text = """
            Nutrition declaration per 100 g
            Energy 1046 kJ / 250 kcal
            Fat 3,5 g
            of which saturates 0,5 g
            Carbohydrate 45 g
            of which sugars 30 g
            Protein 9 g
            Salt 1,2 g
            """
        let label = try NutritionLabel.parse(text)
        #expect(label.calories == 250)
        #expect(label.totalFatGrams == 3.5 && label.saturatedFatGrams == 0.5)
        #expect(label.sugarsGrams == 30 && label.addedSugarsGrams == nil)
        #expect(label.sodiumMilligrams == 480, "1.2 g salt × 400 mg/g")
        // Issue 28: per 100 g, the UK's per-100 g levels (sugars over 22.5 g, salt over 1.5 g), not a serving's.
        #expect(label.basis == "100 g")
        #expect(label.reasons == ["sugars 30 g per 100 g (high is over 22.5 g)"])
        let cheese = try NutritionLabel.parse("Nutrition declaration per 100 g\nFat 34 g\nof which saturates 21 g\nSalt 1,8 g")
        #expect(
            cheese.reasons == [
                "saturated fat 21 g per 100 g (high is over 5 g)", "salt 1.8 g per 100 g (high is over 1.5 g)",
                "fat 34 g per 100 g (high is over 17.5 g)",
            ])
        let drink = try NutritionLabel.parse("Typical values per 100 ml\nEnergy 180 kJ / 42 kcal\nSugars 12 g\nSalt 0,1 g")
        #expect(drink.basis == "100 ml" && drink.reasons == ["sugars 12 g per 100 ml (high is over 11.25 g)"])
        let kilojoulesOnly = try NutritionLabel.parse("Energy 1046 kJ\nProtein 9 g")
        #expect(kilojoulesOnly.calories == 250)
    }

    @Test func aHealthyLabelAndTransFat() throws {
        let plain = try NutritionLabel.parse("Calories 90\nTotal Fat 0.5g\nSodium 5mg\nProtein 2g")
        #expect(!plain.unhealthy && plain.reasons.isEmpty)
        let trans = try NutritionLabel.parse("Calories 150\nTrans Fat 1.5g")
        #expect(trans.unhealthy && trans.reasons == ["trans fat 1.5 g (best avoided altogether)"])
    }

    @Test func notALabelSaysSo() {
        for text in ["", "hello world", "Calories", "%%%%", String(repeating: "Sodium ", count: 20)] {
            #expect(throws: NutritionLabel.ParseError.self) { try NutritionLabel.parse(text) }
        }
        #expect(throws: NutritionLabel.ParseError.self) { try NutritionLabel.parse(String(repeating: "x", count: 70_000)) }
        // Huge and hostile numbers are not amounts.
        #expect(throws: NutritionLabel.ParseError.self) { try NutritionLabel.parse("Calories 99999999999999999999\nSodium 1e400mg") }
    }
}
