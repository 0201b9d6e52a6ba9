import Foundation
import HeartworkCore
import HeartworkFormats
import Testing

/// Issue 25: every catalogue exercise names its picture (docs/STRENGTH.md), a plain file name
/// of the catalogue's images/ folder with its licence; the reader refuses anything else.
@Suite("Exercise pictures in the catalogue file")
struct ExercisePictureReaderTests {
    static let routines = Array(#"{"licence": "CC0-1.0", "routines": []}"#.utf8)

    static func exercises(_ picture: String) -> [UInt8] {
        Array(
            """
            {"licence": "CC0-1.0", "attribution": "test", "exercises": [{"id": "squat", "name": "Squat", "group": "Legs",
             "primary": "Quadriceps", "secondary": [], "equipment": "barbell", "loaded": true, "instructions": "Squat.",
             "licence": "CC0-1.0", "attribution": "test"\(picture)}]}
            """.utf8)
    }

    @Test func theShippedCatalogueHasAPictureOnEveryExercise() throws {
        let catalogue = try StrongHevyImportTests.catalogue()
        #expect(catalogue.exercises.count >= 300)
        for exercise in catalogue.exercises {
            let image = try #require(exercise.image, "\(exercise.id) has no picture")
            #expect(StrengthCatalogueJSON.isPictureName(image), "\(exercise.id): \(image)")
            #expect(exercise.imageLicence?.hasPrefix("CC0-1.0") == true, "\(exercise.id)")
        }
    }

    @Test func aPlainPictureNameWithItsLicenceIsRead() throws {
        let catalogue = try StrengthCatalogueJSON.read(
            exercises: Self.exercises(#", "image": "front-squat.svg", "imageLicence": "CC0-1.0, ours""#), routines: Self.routines)
        #expect(catalogue.exercises.first?.image == "front-squat.svg")
        #expect(catalogue.exercises.first?.imageLicence == "CC0-1.0, ours")
        let none = try StrengthCatalogueJSON.read(exercises: Self.exercises(""), routines: Self.routines)
        #expect(none.exercises.first?.image == nil)
    }

    @Test(arguments: [
        "../app.css", "images/squat.svg", "/etc/passwd.svg", "..%2Fsquat.svg", "squat.png", "Squat.svg", ".svg", "-squat.svg", "squat--low.svg",
        "squat.svg ", "squat\\u0000.svg", "",
    ])
    func aPictureNameThatIsNotAPlainFileNameIsRefused(name: String) throws {
        let error = #expect(throws: JSONFieldError.self) {
            try StrengthCatalogueJSON.read(exercises: Self.exercises(#", "image": "\#(name)", "imageLicence": "CC0-1.0""#), routines: Self.routines)
        }
        #expect(error?.path == "exercises[0].image", "\(name): \(String(describing: error))")
    }

    @Test func aPictureWithoutItsLicenceIsRefused() throws {
        let error = #expect(throws: JSONFieldError.self) {
            try StrengthCatalogueJSON.read(exercises: Self.exercises(#", "image": "squat.svg""#), routines: Self.routines)
        }
        #expect(error?.path == "exercises[0].imageLicence")
    }
}
