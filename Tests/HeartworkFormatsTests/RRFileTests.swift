import Testing
import HeartworkCore
import HeartworkFormats
import HeartworkTestSupport

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
        ("800\nhello\n", "line 2: 'hello' is not an RR interval (a number in ms or s)"),
        ("800\n0\n", "line 2: interval 0 is not positive"),
        ("800\n-12\n", "line 2: interval -12 is not positive"),
        ("800\n30000\n810\n", "line 2: 30000 ms is not a heartbeat interval (at most 5000 ms, read as milliseconds); split the recording at the gap or check --unit"),
        ("1 2 3\n", "line 1: expected one interval, or `time interval`, per line; found 3 fields"),
        ("time,heart\n0,60\n", "line 1: no RR interval column in the header; name it with --column (known names: rr, rri, rr_ms, rr (ms), ibi, ibi_ms, nn, interval, rr_interval, rr_s)"),
        ("5 800\n4 810\n", "line 2: time '4' is earlier than the previous row's"),
        ("800\nnan\n", "line 2: 'nan' is not an RR interval (a number in ms or s)"),
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
    /// interval beyond Int64 made the error message trap instead of being refused.
    @Test func aHugeWholeIntervalIsRefusedWithoutTrapping() throws {
        let text = "22222222322222222222222232222222\n79\n79"
        do {
            _ = try RRFile.read(text: text)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("line 1"))
            #expect(error.description.contains("is not a heartbeat interval"))
        }
    }
}
