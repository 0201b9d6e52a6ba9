import HeartworkCore
import HeartworkFormats
import HeartworkTestSupport
import Testing

@Suite("Heart-rate CSV and line reading")
struct HeartRateCSVTests {
    @Test func readsRowsWithHeaderCommentsAndBlankLines() throws {
        let readings = try HeartRateCSV.read(text: "# warm-up\nsecond,bpm\n0,120\n\n1, 121\r\n2.5,0\n")
        #expect(
            readings == [
                TimedHeartRate(timeSeconds: 0, beatsPerMinute: 120),
                TimedHeartRate(timeSeconds: 1, beatsPerMinute: 121),
                TimedHeartRate(timeSeconds: 2.5, beatsPerMinute: 0),
            ])
    }

    @Test(arguments: [
        ("0,120\n1,abc\n", "line 2: bpm 'abc' is not a number"),
        ("0,120\n1,120,3\n", "line 2: expected 2 comma-separated fields `second,bpm`, found 3"),
        ("0,120\nx,120\n", "line 2: second 'x' is not a number"),
        ("5,120\n4,120\n", "line 2: second 4.0 comes before the previous row's 5.0"),
        ("0,400\n", "line 1: heart rate 400.0 bpm is outside 20–250 bpm (0 marks a missing reading)"),
        ("0,nan\n", "line 1: bpm 'nan' is not a number"),
        ("-1,120\n", "line 1: second -1.0 is negative"),
        ("# nothing\n", "no heart-rate rows: expected lines `second,bpm`"),
    ])
    func badRowsAreNamedByLine(text: String, message: String) {
        do {
            _ = try HeartRateCSV.read(text: text)
            Issue.record("expected an error for \(text.debugDescription)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func missingFileSaysWhy() {
        #expect(throws: TextInputError.self) { try HeartRateCSV.read(path: "/nonexistent/heart.csv") }
        do {
            _ = try HeartRateCSV.read(path: "/nonexistent/heart.csv")
        } catch {
            #expect(error.description.contains("cannot open /nonexistent/heart.csv"))
        }
    }

    /// Lines longer than the reader's 64 KiB chunk and lines split across chunks read intact.
    @Test func linesSurviveChunkBoundaries() throws {
        let directory = try TemporaryDirectory()
        let long = String(repeating: "x", count: 70_000)
        var lines = [long]
        lines += (0..<20_000).map { "line \($0)" }
        let path = try directory.write(lines.joined(separator: "\r\n"), to: "lines.txt")
        let reader = try TextLineReader(path: path)
        var read = [String]()
        while let line = try reader.nextLine() { read.append(line) }
        #expect(read == lines)
        #expect(reader.lineNumber == lines.count)
    }

    @Test func aDirectoryIsNotAFile() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: TextFileError.self) { try TextLineReader(path: directory.url.path) }
    }
}
