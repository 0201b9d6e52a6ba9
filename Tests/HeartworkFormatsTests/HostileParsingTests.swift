import Foundation
import HeartworkCore
import HeartworkFormats
import Testing

/// Issue 40, item 1: the probe's shapes read correctly and within their bounds (their time is
/// measured by `swift run -c release heartwork-linearity`, a benchmark-style check run in CI:
/// twice the input, at most about twice the time). Inputs are generated here.
@Suite("Hostile parsing (issue 40)")
struct HostileParsingTests {
    static func object(_ n: Int, repeating repeated: Int? = nil) -> [UInt8] {
        var text = "{"
        for index in 0..<n {
            if index > 0 { text += "," }
            text += "\"k\(index)\":\(index)"
        }
        if let repeated { text += ",\"k\(repeated)\":0" }
        return Array((text + "}").utf8)
    }

    /// 95,000 distinct keys (the probe's 1 MB gateway frame) parse, in order; a name repeated
    /// past the scanned first members is still found and named.
    @Test func manyKeysParseAndARepeatIsStillFound() throws {
        let value = try JSONValue.parse(Self.object(95_000))
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        #expect(members.count == 95_000 && members[94_999].key == "k94999" && members[3].value == .number(3))
        #expect(value["k50000"] == .number(50_000))
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Self.object(95_000, repeating: 60_000)) }
        do {
            _ = try JSONValue.parse(Self.object(20, repeating: 3))
            Issue.record("a repeated name within the scanned members was taken")
        } catch {
            #expect(error.reason == "the member \"k3\" appears twice")
        }
        do {
            _ = try JSONValue.parse(Self.object(40, repeating: 30))
            Issue.record("a repeated name past the scanned members was taken")
        } catch {
            #expect(error.reason == "the member \"k30\" appears twice")
        }
    }

    /// A gateway reading of 65,000 keys (a frame of nearly 1 MB) is one reading (unknown members are ignored, as the
    /// protocol says), read without checking each against the others.
    @Test func aGatewayReadingOfManyKeysIsOneReading() throws {
        var keys = String(decoding: Self.object(65_000), as: UTF8.self)
        keys.removeFirst()
        let frame = Array(#"{"type":"reading","sensor":"A0:9E:1A:12:34:56","seq":7,"at":1780000000000,"hrm":"0648","#.utf8) + Array(keys.utf8)
        #expect(frame.count < GatewayFrame.maximumBytes)
        let items = try GatewayFrame.read(frame)
        guard case .reading(let reading) = items.first else {
            Issue.record("\(items)")
            return
        }
        #expect(items.count == 1 && reading.sequence == 7 && reading.measurement.beatsPerMinute == 72)
    }

    /// The probe's line of 20 million commas is one row too long to keep: named and left out,
    /// the rows after it read; a field of doubled quotes past the field bound likewise; the
    /// reader never keeps more than a row's bounds.
    @Test func aLineOfCommasIsNamedAndLeftOut() throws {
        let header = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps\n"
        let good = "2026-03-04 18:02:11,Legs,45m,Squat (Barbell),1,100,5\n"
        let commas = String(repeating: ",", count: 2_000_000)
        let quotes = "\"" + String(repeating: "\"\"", count: 10_000) + "\",Legs,45m,Squat (Barbell),1,100,5"
        let read = try LiftingLogCSV.read(header + commas + "\n" + good + quotes + "\n" + good, timeZone: .gmt)
        #expect(read.sessions.count == 1 && read.sessions[0].exercises[0].sets.count == 2)
        #expect(read.skipped.count == 2, "\(read.skipped.map { $0.prefix(120) })")
        #expect(read.skipped[0].hasPrefix("line 2: the row is longer than a row of an export can be"))
        #expect(read.skipped[1].hasPrefix("line 4: the row is longer"))
    }

    /// Bytes fed in any pieces give the same rows (CRLF split between pieces, a quoted line
    /// break, a byte-order mark).
    @Test func rowsAreTheSameInAnyPieces() throws {
        let text = "\u{FEFF}a;b;c\r\n1;\"x\r\ny\";3\r\n\r\n4;\"\"\"q\"\"\";6"
        let whole = try DelimitedText.rows(text, maximumRows: 10)
        #expect(whole.map(\.fields) == [["a", "b", "c"], ["1", "x\r\ny", "3"], [""], ["4", "\"q\"", "6"]])
        #expect(whole.map(\.line) == [1, 2, 4, 5] && whole[1].lastLine == 3)
        let bytes = Array(text.utf8)
        for size in 1...7 {
            var reader = DelimitedText.Reader()
            var rows = [DelimitedText.Row]()
            var index = 0
            while index < bytes.count {
                reader.feed(bytes[index..<min(bytes.count, index + size)]) { row in
                    rows.append(row)
                    return true
                }
                index += size
            }
            if let last = try reader.finish() { rows.append(last) }
            #expect(rows == whole, "pieces of \(size) bytes")
        }
    }

    /// A Strong export read as it arrives, in 4-KiB pieces, is the same as read whole; the
    /// memory budget and the row limit stop the reading with a reason, never silently.
    @Test func anExportReadAsItArrivesIsTheSame() throws {
        var text = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,RPE\n"
        for day in 1...28 {
            for set in 1...5 { text += "2026-02-\(String(format: "%02d", day)) 07:30:00,\"Legs, heavy\",45m,Squat (Barbell),\(set),\(90 + set),5,8\n" }
        }
        let whole = try LiftingLogCSV.read(text, timeZone: .gmt)
        var reader = LiftingLogReader(timeZone: .gmt)
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            try reader.feed(bytes[index..<min(bytes.count, index + 4096)])
            index += 4096
        }
        let pieces = try reader.finish()
        #expect(pieces.sessions == whole.sessions && pieces.sessions.count == 28 && pieces.skipped.isEmpty)
        #expect(pieces.sessions[0].exercises[0].sets.map(\.rpe) == [8, 8, 8, 8, 8])
    }

    /// Phone sync: a workout of 80,000 keys (the probe's 0.87 MB body) is one workout, its
    /// unknown fields counted under at most 100 names; samples dated before the account
    /// holder's birth date are left out and counted with the reason.
    @Test func aSyncWorkoutOfManyKeysAndSamplesBeforeBirth() throws {
        var keys = String(decoding: Self.object(80_000), as: UTF8.self)
        keys.removeFirst()
        let body = Array(
            (#"{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":["#
                + #"{"date":"2003-06-01 07:00:00 +0000","Min":60,"Avg":70,"Max":80},"#
                + #"{"date":"2026-06-01 07:00:00 +0000","Min":60,"Avg":70,"Max":80}]}],"#
                + #""workouts":[{"id":"w1","name":"Running","start":"2026-06-01 06:00:00 +0000","end":"2026-06-01 06:30:00 +0000","# + keys + "]}}").utf8)
        let payload = try HealthAutoExport.read(body, now: Date(timeIntervalSince1970: 1_780_400_000), bornOn: CalendarDay(year: 2005, month: 3, day: 1))
        #expect(payload.workouts.count == 1)
        #expect(payload.fieldsNotUsed.count <= 101 && payload.fieldsNotUsed["(other fields)"] != nil)
        #expect(payload.samples.filter { $0.kind == .heartRate }.count == 1)
        #expect(payload.leftOut["heart_rate: dated before your date of birth or more than a day ahead"] == 1, "\(payload.leftOut)")
    }
}

extension HostileParsingTests {
    /// A sync past its budget is refused as a whole, saying how to send it (never kept in part).
    @Test func aSyncPastItsBudgetIsRefusedSayingHow() throws {
        let entries = (0..<50).map { #"{"date":"2026-06-01 07:\#(String(format: "%02d", $0)):00 +0000","Min":60,"Avg":70,"Max":80}"# }
        let body = Array((#"{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":["# + entries.joined(separator: ",") + "]}]}}").utf8)
        let now = Date(timeIntervalSince1970: 1_780_400_000)
        #expect(try HealthAutoExport.read(body, now: now, maximumValues: 50).samples.count == 50)
        #expect { try HealthAutoExport.read(body, now: now, maximumValues: 49) } throws: { "\($0)".contains("sync a shorter date range") }
    }
}
