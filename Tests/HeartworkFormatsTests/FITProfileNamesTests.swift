import Testing

@testable import HeartworkFormats

/// Issue 41: FIT's product numbers by the names in FIT's own profile (generated from Garmin's
/// FIT SDK for Python, garmin-fit-sdk 21.218.0, by scripts/make_fit_names.py; the golden values
/// are its `Profile['types']['garmin_product']` entries: 2713 edge_1030, 3113 fr945, 2697
/// fenix5; `manufacturer` 1 garmin, 123 polar_electro).
@Suite("FIT profile names")
struct FITProfileNamesTests {
    @Test func productsAndMakersAsWords() {
        #expect(FITProfileNames.garminProducts[2713] == "Edge 1030")
        #expect(FITProfileNames.garminProducts[3113] == "Forerunner 945")
        #expect(FITProfileNames.garminProducts[2697] == "fēnix 5")
        #expect(FITProfileNames.manufacturers[1] == "Garmin" && FITProfileNames.manufacturers[123] == "Polar Electro")
        #expect(FITProfileNames.garminProducts.count > 400 && FITProfileNames.manufacturers.count > 200)
    }
}
