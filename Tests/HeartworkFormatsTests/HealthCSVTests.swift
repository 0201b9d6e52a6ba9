import Foundation
import HeartworkCore
import Testing

@testable import HeartworkFormats

/// Issue 41: the account export's readable daily health. The CSV as RFC 4180 has it (Python's
/// `csv` reads the archive's files in CI: Tests/Reference/zip_crosscheck.py).
@Suite("Daily health as CSV")
struct HealthCSVTests {
    @Test func samplesInLocalTimeWithTheirSourceQuotedAndDefused() {
        let start = Date(timeIntervalSince1970: 1_772_406_000)  // 2026-03-01T23:00:00Z
        let samples = [
            HealthSample(kind: .heartRate, start: start, end: start, utcOffsetSeconds: 3600, value: 61, source: "Anna's Watch, \"blue\""),
            HealthSample(kind: .heartRate, start: start, end: start.addingTimeInterval(60), utcOffsetSeconds: -16_200, value: 62.5, source: "=HYPERLINK(1)"),
        ]
        let csv = HealthCSV.samples(samples, unit: "bpm")
        #expect(
            csv == "start,end,utc_offset_seconds,value,unit,source,device\r\n"
                + "2026-03-02T00:00:00+01:00,2026-03-02T00:00:00+01:00,3600,61,bpm,\"Anna's Watch, \"\"blue\"\"\",\r\n"
                + "2026-03-01T18:30:00-04:30,2026-03-01T18:31:00-04:30,-16200,62.5,bpm,'=HYPERLINK(1),\r\n")
        let night = HealthSample(kind: .sleep, start: start, end: start.addingTimeInterval(3600), utcOffsetSeconds: 0, value: 4, source: "Band")
        #expect(HealthCSV.samples([night], unit: "stage").hasSuffix(",deep,stage,Band,\r\n"))
    }

    @Test func aLineADayWithItsSources() {
        var day = HealthCSV.Day(nil, date: "2026-03-02", sources: ["heart-rate": ["Band", "Watch"], "steps": ["Phone"]])
        day.steps = 9442
        day.restingHeartRate = 52
        let lines = HealthCSV.days([day]).components(separatedBy: "\r\n")
        #expect(lines[0].hasPrefix("date,heart_rate_average,") && lines[0].hasSuffix(",steps_sources,sleep_sources"))
        #expect(lines[1] == "2026-03-02,,,,,52,,9442,,,,,Band; Watch,,,,Phone,")
        #expect(lines.count == 3 && lines[2].isEmpty)
    }
}
