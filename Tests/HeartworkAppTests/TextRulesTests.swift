import Testing

@testable import HeartworkApp

@Suite("Text rules")
struct TextRulesTests {
    @Test func controlCharactersAreRefusedWithTheirCodePoint() throws {
        for text in ["Ada\u{0}Lovelace", "tab\there", "bell\u{7}", "c1\u{85}x"] {
            #expect(throws: AppError.self) { try TextRules.line(text, field: "fullName", what: "the full name", length: 1...100) }
        }
        do {
            _ = try TextRules.line("Ada\u{0}", field: "fullName", what: "the full name", length: 1...100)
            Issue.record("accepted U+0000")
        } catch {
            #expect(error.detail.contains("U+0000"))
            #expect(error.field == "fullName")
        }
        #expect(try TextRules.line("  Zoë Ünlü 🏃 ", field: "fullName", what: "the full name", length: 1...100) == "Zoë Ünlü 🏃")
    }

    @Test func lengthIsCountedInCharactersAfterTrimming() throws {
        #expect(throws: AppError.self) { try TextRules.line("   ", field: "fullName", what: "the full name", length: 1...100) }
        #expect(try TextRules.line("", field: "status", what: "a status", length: 0...280) == "")
        #expect(throws: AppError.self) { try TextRules.line(String(repeating: "é", count: 281), field: "status", what: "a status", length: 0...280) }
    }

    @Test func usernamesAndAddresses() throws {
        #expect(try Registration.checkedUsername(" ada.l-1_ ") == "ada.l-1_")
        for bad in ["ab", "a b", "ädá", String(repeating: "a", count: 31)] {
            #expect(throws: AppError.self) { try Registration.checkedUsername(bad) }
        }
        #expect(EmailAddress.isValid("ada@example.org"))
        for bad in ["ada", "@example.org", "ada@example", "ada@example.o", "a da@example.org", "ada@@example.org"] {
            #expect(!EmailAddress.isValid(bad), "\(bad)")
        }
    }
}
