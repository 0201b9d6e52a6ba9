import Foundation
import HeartworkCore
import HeartworkTestSupport
import Testing

@Suite("Calendar days")
struct CalendarDayTests {
    @Test func strictParsing() {
        #expect(CalendarDay(iso: "2024-02-29")?.description == "2024-02-29")
        for bad in ["2023-02-29", "2026-02-31", "2026-13-01", "2026-00-10", "2026-1-5", "26-01-05", "2026-01-05T00:00", " 2026-01-05", "abcd-ef-gh", ""] {
            #expect(CalendarDay(iso: bad) == nil, "\(bad)")
        }
        #expect(CalendarDay(year: 1900, month: 2, day: 29) == nil)  // not a leap year
        #expect(CalendarDay(year: 2000, month: 2, day: 29) != nil)  // a leap year
    }

    /// Day numbers against Unix time by hand: 1970-01-01 is day 0, 2000-03-01 is day 11017
    /// (30 years of 365 days + 7 leap days before 2000, then January and February 2000).
    @Test func dayNumbers() {
        #expect(CalendarDay(year: 1970, month: 1, day: 1)?.daysSinceEpoch == 0)
        #expect(CalendarDay(year: 2000, month: 3, day: 1)?.daysSinceEpoch == 30 * 365 + 7 + 31 + 29)
        #expect(CalendarDay(year: 1969, month: 12, day: 31)?.daysSinceEpoch == -1)
        #expect(CalendarDay(Date(timeIntervalSince1970: 1_763_769_599)).description == "2025-11-21")
        #expect(CalendarDay(Date(timeIntervalSince1970: 1_763_769_599), utcOffsetSeconds: 3600).description == "2025-11-22")
    }

    @Test func roundTripsOverFourCenturies() {
        var previous: CalendarDay?
        for days in stride(from: -150_000, through: 150_000, by: 1) {
            let day = CalendarDay(daysSinceEpoch: days)
            #expect(day.daysSinceEpoch == days)
            if let previous { #expect(previous < day) }
            previous = day
            if days % 997 == 0 { #expect(CalendarDay(iso: day.description) == day) }
        }
    }

    @Test func agesCountWholeYears() throws {
        let birth = try #require(CalendarDay(iso: "2000-02-29"))
        #expect(birth.wholeYears(until: try #require(CalendarDay(iso: "2001-02-28"))) == 0)
        #expect(birth.wholeYears(until: try #require(CalendarDay(iso: "2001-03-01"))) == 1)
        #expect(birth.wholeYears(until: try #require(CalendarDay(iso: "2026-11-22"))) == 26)
    }
}
