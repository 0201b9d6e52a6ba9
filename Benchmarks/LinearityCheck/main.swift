// Issue 40: every parser is linear in its input. Each case below builds the same hostile
// shape at size n and 2n (within the sizes the server takes: a gateway frame stays under 1 MB) (the shapes of the adversarial probe: one object of many distinct
// keys, a CSV line of commas, a field of doubled quotes, an element of many attributes, a tag
// cut across reads…), times the parser on both, and reports the ratio.
// A linear parser takes about twice as long on twice the input; a quadratic one four times.
//
//   swift run -c release heartwork-linearity --scale 8  # the figures (docs/BENCHMARKS.md)
//   swift run heartwork-linearity --check               # CI: exits 1 if a ratio passes 3
//
// A benchmark-style check, not a timed test: it compares two runs of the same build on the
// same machine, so the machine's speed cancels out (the best of five runs each); a case whose
// larger run takes under 80 ms is too quick to tell and passes (noise is most of it). A
// quadratic parser doubles its ratio with each doubling of n: 4, then 8. A ratio above 3 is
// measured again over four times the input (n/2 to 2n) and fails only above 8 (linear: 4,
// quadratic: 16), so one noisy doubling cannot fail CI.
import Foundation
import HeartworkCore
import HeartworkFormats

let check = CommandLine.arguments.contains("--check")
/// `--scale K`: every n times K (a release build is ten times as fast as a debug one).
let scale =
    CommandLine.arguments.firstIndex(of: "--scale").flatMap { index in
        index + 1 < CommandLine.arguments.count ? Int(CommandLine.arguments[index + 1]) : nil
    } ?? 1
let limit = 3.0

struct Case {
    let name: String
    /// Sizes at which a debug build takes a good fraction of a second.
    let n: Int
    let make: (Int) -> [UInt8]
    let run: ([UInt8]) -> Void
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

func seconds(_ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
}

func objectOfKeys(_ n: Int, prefix: String = "k") -> String {
    var text = "{"
    text.reserveCapacity(n * 12)
    for index in 0..<n {
        if index > 0 { text += "," }
        text += "\"\(prefix)\(index)\":\(index % 10)"
    }
    return text + "}"
}

let start = Date(timeIntervalSince1970: 1_780_000_000)

let cases: [Case] = [
    Case(name: "JSON: one object of n distinct keys", n: 40_000, make: { bytes(objectOfKeys($0)) }) { _ = try? JSONValue.parse($0) },
    Case(
        name: "JSON: n objects of 20 keys", n: 4_000,
        make: { n in bytes("[" + (0..<n).map { _ in objectOfKeys(20) }.joined(separator: ",") + "]") }
    ) { _ = try? JSONValue.parse($0) },
    Case(
        name: "gateway frame: a reading of n keys", n: 25_000,
        make: { n in
            var reading = objectOfKeys(n)
            reading.removeLast()
            return bytes(#"{"type":"reading","sensor":"a","seq":1,"at":1780000000000,"hrm":"0648","# + reading.dropFirst() + "}")
        }
    ) { _ = try? GatewayFrame.read($0) },
    Case(
        name: "phone sync: a workout of n keys", n: 40_000,
        make: { n in
            var workout = objectOfKeys(n, prefix: "x")
            workout.removeLast()
            return bytes(#"{"data":{"metrics":[],"workouts":[{"id":"w","name":"Running","# + workout.dropFirst() + "}]}}")
        }
    ) { _ = try? HealthAutoExport.read($0, now: start) },
    Case(
        name: "phone sync: n heart-rate entries", n: 20_000,
        make: { n in
            let entries = (0..<n).map { index in
                #"{"date":"2026-06-01 \#(String(format: "%02d:%02d:%02d", index / 3600 % 24, index / 60 % 60, index % 60)) +0000","Min":60,"Avg":70,"Max":80}"#
            }
            return bytes(#"{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":["# + entries.joined(separator: ",") + "]}]}}")
        }
    ) { _ = try? HealthAutoExport.read($0, now: start) },
    Case(
        name: "CSV: a Strong header and a line of n commas", n: 2_000_000,
        make: { n in bytes("Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps\n" + String(repeating: ",", count: n) + "\n") }
    ) { _ = try? LiftingLogCSV.read(String(decoding: $0, as: UTF8.self), timeZone: .gmt) },
    Case(
        name: "CSV: a field of n doubled quotes", n: 1_000_000,
        make: { n in bytes("Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps\n\"" + String(repeating: "\"\"", count: n) + "\",x\n") }
    ) { _ = try? LiftingLogCSV.read(String(decoding: $0, as: UTF8.self), timeZone: .gmt) },
    Case(
        name: "CSV: n Strong rows", n: 10_000,
        make: { n in
            var text = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps\n"
            for index in 0..<n {
                text += "2026-\(String(format: "%02d", 1 + index / 2000 % 12))-\(String(format: "%02d", 1 + index / 100 % 28)) 07:30:00,Legs,45m,Squat,\(index % 5 + 1),100,5\n"
            }
            return bytes(text)
        }
    ) { _ = try? LiftingLogCSV.read(String(decoding: $0, as: UTF8.self), timeZone: .gmt) },
    Case(
        name: "GPX: n track points", n: 20_000,
        make: { n in
            var text = #"<?xml version="1.0"?><gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
            for index in 0..<n {
                text += #"<trkpt lat="51.5" lon="-0.1"><time>\#(ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(index))))</time></trkpt>"#
            }
            return bytes(text + "</trkseg></trk></gpx>")
        }
    ) { _ = ActivityXMLReader.read($0) },
    Case(
        name: "GPX: one element of n attributes (past 256: the file is cut there)", n: 20_000,
        make: { n in
            let attributes = (0..<n).map { "a\($0)=\"1\"" }.joined(separator: " ")
            return bytes(#"<?xml version="1.0"?><gpx version="1.1" creator="x"><trk><trkseg><trkpt lat="51.5" lon="-0.1" "# + attributes + "/></trkseg></trk></gpx>")
        }
    ) { _ = ActivityXMLReader.read($0) },
    Case(
        name: "Apple Health XML: n records", n: 20_000,
        make: { n in
            var text = #"<?xml version="1.0"?><HealthData locale="en_US">"#
            for index in 0..<n {
                text +=
                    #"<Record type="HKQuantityTypeIdentifierHeartRate" sourceName="w" unit="count/min" startDate="2026-06-01 07:00:00 +0000" endDate="2026-06-01 07:00:00 +0000" value="\#(60 + index % 40)"/>"#
            }
            return bytes(text + "</HealthData>")
        }
    ) { xml in
        var scanner = ExportXMLScanner()
        var index = 0
        while index < xml.count {
            let end = min(xml.count, index + 65_536)
            try? scanner.feed(xml[index..<end]) { _ in }
            index = end
        }
        try? scanner.finish()
    },
    Case(
        name: "Apple Health XML: one tag of n bytes read 64 KiB at a time", n: 600_000,
        make: { n in bytes(#"<?xml version="1.0"?><HealthData><Record type="x" value=""# + String(repeating: "7", count: n) + #""/></HealthData>"#) }
    ) { xml in
        var scanner = ExportXMLScanner()
        var index = 0
        while index < xml.count {
            let end = min(xml.count, index + 65_536)
            try? scanner.feed(xml[index..<end]) { _ in }
            index = end
        }
        try? scanner.finish()
    },
    Case(
        name: "PNG photo: n rows of 256 pixels, decoded", n: 400,
        make: { n in
            PNGEncoder.encode(RasterImage(width: 256, height: n, pixels: (0..<(256 * n * 4)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }))
        }
    ) { _ = try? PNGDecoder.decode($0) },
    Case(
        name: "JPEG photo: n rows of 256 pixels, decoded", n: 256,
        make: { n in
            PhotoCodec.encodeJPEG(
                RasterImage(width: 256, height: n, pixels: (0..<(256 * n * 4)).map { UInt8(truncatingIfNeeded: ($0 / 4) % 256 + ($0 % 4) * 40) }), quality: 85)
        }
    ) { _ = try? PhotoCodec.decodeJPEG($0) },
    Case(
        name: "FIT: n records", n: 20_000,
        make: { n in
            var activity = ActivityRecording()
            activity.fileType = 4
            activity.created = start
            activity.records = (0..<n).map { ActivityRecording.Record(time: start.addingTimeInterval(Double($0)), heartRate: 120 + $0 % 40) }
            return FITEncoder.encode(activity)
        }
    ) { _ = FITActivityReader.read($0) },
]

var failed = [String]()
print("case".padding(toLength: 58, withPad: " ", startingAt: 0) + "      n      t(n)      t(2n)   ratio")
for item in cases {
    // A gateway frame stays within the 1 MB the server reads.
    let n = item.name.hasPrefix("gateway") ? item.n : item.n * scale
    let small = item.make(n)
    let large = item.make(n * 2)
    let first = seconds { item.run(small) }
    let second = seconds { item.run(large) }
    let ratio = second / max(first, 1e-9)
    let judged = second >= 0.08
    var verdict = !judged ? "too quick to tell" : (ratio <= limit ? "linear" : "NOT LINEAR")
    if judged && ratio > limit {
        // One doubling can be noise on a loaded machine (CI, 2026-12-02: JSON objects 1.72 in
        // one run, 3.44 in the next, the same build). Confirmed over four times the input, from
        // n/2 to 2n (within the sizes the server takes): a linear parser gives about 4, a
        // quadratic one 16; it fails only above 8, the middle of the two on a log scale.
        let quarter = seconds { item.run(item.make(n / 2)) }
        let spread = seconds { item.run(large) } / max(quarter, 1e-9)
        verdict = spread <= 8 ? String(format: "linear (n/2 to 2n: %.2f, a quadratic parser 16)", spread) : String(format: "NOT LINEAR (n/2 to 2n: %.2f)", spread)
        if spread > 8 { failed.append(item.name) }
    }
    print(
        item.name.padding(toLength: 58, withPad: " ", startingAt: 0)
            + String(format: " %7d %8.1f ms %8.1f ms %6.2f  %@", n, first * 1000, second * 1000, ratio, verdict))
}
if check, !failed.isEmpty {
    print("not linear: \(failed.joined(separator: "; "))")
    exit(1)
}
