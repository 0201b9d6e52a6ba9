import Foundation
import HeartworkCore
import HeartworkFormats
import Testing

/// Issue 29's decoder bounds in Formats: XML nesting and gateway values.
@Suite("Hostile input: decoders")
struct HostileDecoderTests {
    /// The probe's 100,000 nested unknown elements (0.9 MB; 15.9 s before): read up to the 64th
    /// level, with a warning naming why; what came before is kept.
    @Test func deeplyNestedXMLEndsAtTheDepthBound() {
        let depth = 100_000
        let point = #"<trkpt lat="48.2" lon="16.3"><time>2026-11-01T08:00:00Z</time><extensions><hr>120</hr></extensions></trkpt>"#
        let text =
            #"<?xml version="1.0"?><gpx version="1.1" creator="probe"><trk><trkseg>"# + point
            + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + point + "</trkseg></trk></gpx>"
        let recording = ActivityXMLReader.read(Array(text.utf8))
        #expect(recording.records.count == 1, "the point before the nesting is kept")
        #expect(recording.records.first?.heartRate == 120)
        #expect(recording.warnings.contains { $0.message.contains("nested more than 64 deep") })
        // A real TCX track point (7 deep) is far inside the bound.
        #expect(ActivityXMLReader.maximumDepth >= 16)
    }

    static func frame(at: Int64, hrm: String) -> [UInt8] {
        Array(#"{"type":"reading","sensor":"A0:9E","seq":1,"at":\#(at),"hrm":"\#(hrm)"}"#.utf8)
    }

    static func detail(_ items: [GatewayItem]) -> String? {
        if case .refused(_, _, let detail)? = items.first { return detail }
        return nil
    }

    /// A reading dated past the server's clock by more than 60 s is refused (an `at` up to
    /// 2100 froze a strap's last value for a day); a minute ahead and anything earlier pass.
    @Test func aReadingFromTheFutureIsRefused() throws {
        let now: Int64 = 1_795_400_000_000
        let far = try GatewayFrame.read(Self.frame(at: 4_000_000_000_000, hrm: "0648"), nowMilliseconds: now)
        #expect(Self.detail(far)?.contains("ahead of the server's clock") == true)
        let near = try GatewayFrame.read(Self.frame(at: now + 59_000, hrm: "0648"), nowMilliseconds: now)
        #expect(Self.detail(near) == nil)
        let late = try GatewayFrame.read(Self.frame(at: now - 3_600_000, hrm: "0648"), nowMilliseconds: now)
        #expect(Self.detail(late) == nil)
    }

    /// A 16-bit heart rate of 65535 (a session review once averaged it) and an 8-bit 255 are
    /// refused; 0 (no reading, contact lost) and the Core's plausible range pass.
    @Test func heartRatesOutsideTheBodysRangeAreRefused() throws {
        for hrm in ["01FFFF", "06FF", "0613"] {  // 65535, 255, 19 bpm
            let items = try GatewayFrame.read(Self.frame(at: 1_795_400_000_000, hrm: hrm))
            #expect(Self.detail(items)?.contains("is not a heart rate") == true, "\(hrm)")
        }
        for hrm in ["0600", "0614", "06FA", "0148 00"] {  // 0, 20, 250, 72 as 16-bit
            #expect(Self.detail(try GatewayFrame.read(Self.frame(at: 1_795_400_000_000, hrm: hrm))) == nil, "\(hrm)")
        }
    }

    /// PROTOCOL §3: `hrm` is at most 512 bytes — as bytes, whatever the spelling (513 bytes of
    /// plain hex, 1,026 characters, were taken).
    @Test func hrmIsAtMost512Bytes() throws {
        // Flags 0x10 (RR present), 72 bpm, then RR intervals of 1024 ticks: 2 + 2n bytes.
        let rr = String(repeating: "0004", count: 255)
        let ok = "1048" + rr  // 512 bytes
        #expect(Self.detail(try GatewayFrame.read(Self.frame(at: 1_795_400_000_000, hrm: ok))) == nil)
        let over = "1048" + rr + "00"  // 513 bytes
        #expect(Self.detail(try GatewayFrame.read(Self.frame(at: 1_795_400_000_000, hrm: over)))?.contains("at most 512") == true)
        let spaced = stride(from: 0, to: ok.count, by: 2).map { String(Array(ok)[$0..<$0 + 2]) }.joined(separator: " ")
        #expect(Self.detail(try GatewayFrame.read(Self.frame(at: 1_795_400_000_000, hrm: spaced))) == nil, "separators allowed")
    }
}
