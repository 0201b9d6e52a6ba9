import Foundation
import HeartworkFormats
import Testing

@Suite("RFC 3339 date-times")
struct RFC3339Tests {
    @Test func acceptsWhatTheStandardAllows() throws {
        #expect(RFC3339.parse("1970-01-01T00:00:00Z")?.timeIntervalSince1970 == 0)
        #expect(RFC3339.parse("2026-11-21T07:30:00Z")?.timeIntervalSince1970 == 1_795_246_200)
        #expect(RFC3339.parse("2026-11-21T08:30:00+01:00") == RFC3339.parse("2026-11-21T07:30:00Z"))
        #expect(RFC3339.parse("2026-11-21t07:30:00.250z")?.timeIntervalSince1970 == 1_795_246_200.25)
        let withOffset = try #require(RFC3339.parseWithOffset("2026-03-29T02:30:00-04:30"))
        #expect(withOffset.utcOffsetSeconds == -16_200)
    }

    /// Lenient parsers roll these into other dates; these are refused.
    @Test func refusesImpossibleFields() {
        for bad in [
            "2026-02-31T10:00:00Z", "2026-11-21T25:00:00Z", "2026-11-21T23:61:00Z", "2026-11-21T23:59:61Z",
            "2026-02-31T25:61:61Z", "2026-11-21T07:30:00", "2026-11-21 07:30:00Z", "2026-11-21T07:30:00+24:00",
            "2026-11-21T07:30:00.Z", "2026-11-21T07:30Z", "2026-11-21", "", "2026-11-21T07:30:00Zjunk",
        ] {
            #expect(RFC3339.parse(bad) == nil, "\(bad)")
        }
        #expect(RFC3339.parseDateTimeOrDay("2026-11-21")?.timeIntervalSince1970 == 1_795_219_200)
    }
}
