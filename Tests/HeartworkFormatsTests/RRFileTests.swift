import Foundation
import HeartworkCore
import HeartworkFormats
import HeartworkTestSupport
import Testing

@Suite("RR interval files")
struct RRFileTests {
    @Test func plainMillisecondsWithComments() throws {
        let recording = try RRFile.read(text: "# Polar H10\n812\n 798 \n\n805 # after a cough\n")
        #expect(recording.intervalsMilliseconds == [812, 798, 805])
        #expect(recording.unit == .milliseconds)
        #expect(recording.timestamps == nil)
    }

    @Test func secondsAreDetectedByMagnitudeOrForced() throws {
        #expect(try RRFile.read(text: "0.812\n0.798\n").intervalsMilliseconds == [812, 798])
        #expect(try RRFile.read(text: "0.812\n0.798\n").unit == .seconds)
        #expect(try RRFile.read(text: "2\n3\n", unit: .seconds).intervalsMilliseconds == [2000, 3000])
    }

    @Test func timeAndIntervalPerLine() throws {
        let recording = try RRFile.read(text: "0.000 812\n0.812 798\n1.610 805\n")
        #expect(recording.intervalsMilliseconds == [812, 798, 805])
        #expect(recording.timestamps == [0, 0.812, 1.61])
    }

    @Test func csvColumnsByName() throws {
        let csv = "timestamp,hr,rr_ms\n2026-11-21T08:00:00Z,74,812\n2026-11-21T08:00:00.812Z,75,798\n"
        let recording = try RRFile.read(text: csv)
        #expect(recording.intervalsMilliseconds == [812, 798])
        #expect(recording.column == "rr_ms")
        let times = try #require(recording.timestamps)
        #expect(abs(times[1] - times[0] - 0.812) < 1e-6)
        let chosen = try RRFile.read(text: "a;b\n1;800\n2;810\n", column: "b")
        #expect(chosen.intervalsMilliseconds == [800, 810])
        #expect(throws: TextInputError.format(TextFormatError(line: 1, "no column 'c' in the header; it has a, b"))) {
            try RRFile.read(text: "a;b\n1;800\n", column: "c")
        }
    }

    @Test(arguments: [
        ("", "0 RR intervals found; at least 2 are needed"),
        ("800\n", "1 RR interval found; at least 2 are needed"),
        ("800\nhello\n", "1 RR interval found; at least 2 are needed"),
        ("800\n40000\n30000\n", "line 1: 2 of 3 intervals are longer than 5000 ms read as milliseconds: is the unit right? (--unit ms or s)"),
        ("1 2 3\n", "line 1: expected one interval, or `time interval`, per line; found 3 fields"),
        (
            "time,heart\n0,60\n",
            "line 1: no RR interval column in the header; name it with --column (known names: rr, rri, rr_ms, rr (ms), ibi, ibi_ms, nn, interval, rr_interval, rr_s, rr-interval [ms], r-r (ms), pp-interval [ms], ppi)"
        ),
    ])
    func badFilesSayWhatAndWhere(text: String, message: String) {
        do {
            _ = try RRFile.read(text: text)
            Issue.record("expected an error for \(text.debugDescription)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func binaryGarbageIsAnErrorNotACrash() throws {
        let directory = try TemporaryDirectory()
        var random = SplitMix64(seed: 1)
        let garbage = String(decoding: (0..<5000).map { _ in UInt8.random(in: 0...255, using: &random) }, as: UTF8.self)
        let path = try directory.write(garbage, to: "garbage.bin")
        #expect(throws: TextInputError.self) { try RRFile.read(path: path) }
    }

    /// Found by `scripts/fuzz.sh` (target rr, .build-fuzz/crash-rr-b17ba063…): a whole-number
    /// interval beyond Int64 made the error message trap instead of being refused. Now it is a
    /// gap, left out with a warning naming its line.
    @Test func aHugeWholeIntervalIsLeftOutWithoutTrapping() throws {
        let recording = try RRFile.read(text: "22222222322222222222222232222222\n79\n79")
        #expect(recording.intervalsMilliseconds == [79, 79])
        #expect(recording.warnings.first?.line == 1)
        #expect(recording.warnings.first?.message.contains("longer than 5000 ms") == true)
    }

    /// Issue 28: a real recording's artifacts — a gap of 6.7 s, a row that is not a number, a
    /// time stepping back, a zero — are left out and counted with their first line; the rest is
    /// the recording.
    /// A fuzzer's find (CI, 2026-11-26): a first line of separators only laid the file out
    /// with an interval field of −1 and trapped on the next line. Now it is a row left out.
    @Test func aLineOfSeparatorsIsARowLeftOut() throws {
        let recording = try RRFile.read(text: ";\n798\n805\n790\n1")
        #expect(recording.intervalsMilliseconds.count >= 3)
        #expect(recording.warnings.contains { $0.line == 1 }, "\(recording.warnings)")
        for text in [",\n800\n810", " ; , \n800\n810\n", ";;\n;\n800\n805"] {
            #expect(try RRFile.read(text: text).intervalsMilliseconds.count == 2, "\(text.debugDescription)")
        }
    }

    @Test func artifactsAreLeftOutAndCounted() throws {
        let recording = try RRFile.read(text: "0.0 800\n0.8 810\n1.6 6712\n8.3 abc\n8.4 805\n8.0 790\n9.2 0\n9.2 815\n10.0 820\n")
        #expect(recording.intervalsMilliseconds == [800, 810, 805, 815, 820])
        #expect(recording.timestamps == [0.0, 0.8, 8.4, 9.2, 10.0])
        let messages = recording.warnings.map(\.description)
        #expect(messages.contains("line 3: an interval longer than 5000 ms (a gap in the recording, not a beat; the first was 6712 ms) was left out"), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("line 4: a row whose interval is not a number") })
        #expect(messages.contains("line 6: a row whose time goes back was left out"))
        #expect(messages.contains("line 7: a row whose interval is not positive was left out"))
    }
}

/// The exports of other HRV tools, in layouts taken from real files (the fixtures and the
/// sources of each layout: Resources/rr/README.md, written by scripts/make_rr_fixtures.py).
@Suite("RR exports of other tools")
struct RRExportTests {
    struct Expected: Decodable { var intervalsMilliseconds: [Double] }

    func fixture(_ name: String) throws -> (path: String, expected: [Double]) {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Resources/rr"))
        let json = try #require(Bundle.module.url(forResource: name + ".expected", withExtension: "json", subdirectory: "Resources/rr"))
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: json))
        return (url.path, expected.intervalsMilliseconds)
    }

    func expectSame(_ read: [Double], _ expected: [Double]) {
        #expect(read.count == expected.count)
        for (a, b) in zip(read, expected) where abs(a - b) > 1e-6 {
            Issue.record("read \(a) ms, expected \(b) ms")
            return
        }
    }

    @Test func kubiosTextReportGivesItsRRColumnInSeconds() throws {
        let (path, expected) = try fixture("kubios-export")
        let recording = try RRFile.read(path: path)
        #expect(expected.count == 200)
        expectSame(recording.intervalsMilliseconds, expected)
        #expect(recording.unit == .seconds)
        #expect(recording.column == "RR interval")
        let times = try #require(recording.timestamps)
        #expect(times.count == 200)
        #expect(abs(times[1] - times[0] - expected[1] / 1000) < 0.002)
    }

    @Test func kubiosReportWithoutItsRRSectionSaysSo() {
        let report = "HRV ANALYSIS RESULTS - 04-Jun-2026 07:12:40\nKubios HRV Standard\nMean RR  (ms):, 812\nSDNN (ms):, 40\n"
        #expect(throws: TextInputError.format(TextFormatError(line: nil, "a Kubios HRV report without its RR INTERVAL DATA section: export the report with the RR data"))) {
            try RRFile.read(text: report)
        }
    }

    @Test func polarFlowKeepsItsDuplicatedFirstInterval() throws {
        let (path, expected) = try fixture("polar-flow")
        let recording = try RRFile.read(path: path)
        #expect(expected.count == 201)
        expectSame(recording.intervalsMilliseconds, expected)
        #expect(recording.intervalsMilliseconds[0] == recording.intervalsMilliseconds[1])
        #expect(recording.unit == .seconds)
        #expect(recording.timestamps?.first == 0)
    }

    @Test func eliteHRVOneMillisecondValuePerLine() throws {
        let (path, expected) = try fixture("elite-hrv")
        let recording = try RRFile.read(path: path)
        expectSame(recording.intervalsMilliseconds, expected)
        #expect(recording.unit == .milliseconds)
        #expect(recording.timestamps == nil)
    }

    @Test func polarSensorLoggerByItsHeaderWithZonelessTimes() throws {
        let (path, expected) = try fixture("polar-sensor-logger")
        let recording = try RRFile.read(path: path)
        expectSame(recording.intervalsMilliseconds, expected)
        #expect(recording.unit == .milliseconds)
        #expect(recording.column == "RR-interval [ms]")
        let times = try #require(recording.timestamps)
        // Intervals of one notification share the phone's stamp: equal times are allowed.
        #expect(times.count == 200)
        #expect(zip(times, times.dropFirst()).contains { $0 == $1 })
        // 2026-06-04T06:58:03.256 read on the UTC clock.
        #expect(abs(times[0] - 1_780_556_283.256) < 1e-3)
    }

    @Test func aHeaderUnitIsTaken() throws {
        #expect(try RRFile.read(text: "RR-interval [ms]\n5\n6\n").unit == .milliseconds)
        // The header's unit is taken as written.
        let recording = try RRFile.read(text: "Time;RR [s]\n0;1.1\n1.1;2\n3.1;1.2\n")
        #expect(recording.unit == .seconds)
        #expect(recording.intervalsMilliseconds == [1100, 2000, 1200])
    }

    // MARK: Issue 41: real exports in other shapes

    /// Polar Sensor Logger's PP intervals from an optical sensor (a Verity Sense), in the
    /// header the app writes (`_PPI.txt`, as the issue quotes it): the sensor's own flags mark
    /// artifacts, left out and counted (blocker 1; contact 0 where contact is supported; an
    /// error estimate over 10 % of the interval); a contact 0 where contact is not supported
    /// says nothing and is kept. Refused before, even with --column.
    @Test func polarSensorLoggerPPIWithItsFlags() throws {
        let text = """
            Phone timestamp;PP-interval [ms];error estimate [ms];blocker;contact;contact;hr [bpm]
            2026-06-04T06:58:03.256;812;6;0;1;1;74
            2026-06-04T06:58:04.068;798;7;0;1;1;75
            2026-06-04T06:58:04.866;805;5;1;1;1;75
            2026-06-04T06:58:05.671;820;120;0;1;1;73
            2026-06-04T06:58:06.491;790;6;0;0;1;76
            2026-06-04T06:58:07.281;801;6;0;1;1;75
            2026-06-04T06:58:08.082;809;6;0;0;0;74
            2026-06-04T06:58:08.891;1250;400;0;1;1;48
            """
        let recording = try RRFile.read(text: text)
        #expect(recording.intervalsMilliseconds == [812, 798, 801, 809])
        #expect(recording.column == "PP-interval [ms]" && recording.unit == .milliseconds)
        #expect(recording.warnings.map(\.line) == [4, 5, 6], "\(recording.warnings)")
        #expect(recording.warnings[0].message.contains("blocker 1"))
        #expect(recording.warnings[1].message.hasPrefix("2 rows left out: an interval whose error estimate is more than 10 % of it"), "\(recording.warnings[1])")
        #expect(recording.warnings[2].message.contains("without skin contact"))
        let times = try #require(recording.timestamps)
        #expect(abs(times[1] - times[0] - 0.812) < 1e-6)
        // --column by its words alone finds the column with its unit.
        #expect(try RRFile.read(text: text, column: "PP-interval").intervalsMilliseconds == [812, 798, 801, 809])
        // The app's `_RR.txt` from a chest strap, as before.
        let rr = try RRFile.read(text: "Phone timestamp;RR-interval [ms]\n2026-06-04T06:58:03.256;812\n2026-06-04T06:58:04.068;798\n")
        #expect(rr.intervalsMilliseconds == [812, 798])
    }

    /// SelfLoops HRV's export: the recording's date on the first line, in the phone's language
    /// ("10 Jan 2026 16:08:50", "10 1月 2026 16:08:50"), then `Time (ms),HR (bpm),R-R (ms)` with
    /// the time in milliseconds from the start (layout: a public SelfLoops loader, see
    /// Resources/rr/README.md). Refused before: the date was taken for the header.
    @Test(arguments: ["10 Jan 2026 16:08:50", "10 1月 2026 16:08:50"])
    func selfLoopsExport(firstLine: String) throws {
        let text = firstLine + "\nTime (ms),HR (bpm),R-R (ms)\n0,74,812\n812,75,798\n1610,75,805\n2415,73,820\n"
        let recording = try RRFile.read(text: text)
        #expect(recording.intervalsMilliseconds == [812, 798, 805, 820])
        #expect(recording.column == "R-R (ms)")
        #expect(recording.timestamps == [0, 0.812, 1.61, 2.415], "Time (ms) read as milliseconds")
        #expect(recording.warnings.map(\.line) == [1] && recording.warnings[0].message.contains("above the header"), "\(recording.warnings)")
        #expect(try RRFile.read(text: text, column: "R-R (ms)").intervalsMilliseconds.count == 4)
    }

    /// Polar's HRM format (Polar ProTrainer, S-series watches): only an R-R recording
    /// (`Interval=238`) holds RR intervals, and only in `[HRData]`; the numbers of `[HRZones]`
    /// and `[Trip]` (12 were read as intervals before) are not beats. A recording of heart rate
    /// every N s is refused saying so; a file without `[HRData]` too.
    @Test func polarHRMReadsOnlyItsRRData() throws {
        func hrm(interval: String, data: Bool = true) -> String {
            """
            [Params]
            Version=106
            Monitor=22
            SMode=000000000
            Date=20260604
            StartTime=06:58:03.0
            Length=00:00:03.2
            Interval=\(interval)
            Upper1=0
            Lower1=0
            MaxHR=190
            RestHR=52

            [Note]
            morning RR

            [IntTimes]
            00:00:03.2\t74\t70\t80\t90
            0\t0\t0\t0\t0

            [HRZones]
            190
            170
            150
            130
            110
            0
            0
            0
            0
            0
            0

            [Trip]
            0
            0
            3
            0
            0
            0
            0
            0

            """ + (data ? "[HRData]\n812\n798\n805\n820\n" : "")
        }
        let recording = try RRFile.read(text: hrm(interval: "238"))
        #expect(recording.intervalsMilliseconds == [812, 798, 805, 820])
        #expect(recording.unit == .milliseconds && recording.warnings.isEmpty)
        #expect(
            throws: TextInputError.format(
                TextFormatError(
                    line: 43, "a Polar HRM file of heart rate every 5 s, not RR intervals: only an R-R recording (Interval=238 in [Params]) has them"))
        ) {
            try RRFile.read(text: hrm(interval: "5"))
        }
        #expect(throws: TextInputError.format(TextFormatError(line: nil, "a Polar HRM file without its [HRData] section: nothing to read"))) {
            try RRFile.read(text: hrm(interval: "238", data: false))
        }
    }

}
